"""What each preset changes from the standard game (docs/rules.md: "Presets"); `presets` builds
and checks them. Plain data."""

from __future__ import annotations

from typing import Any

# What each preset changes from the standard game. `lose_at: None` marks a preset that plays
# without lose_at; the others lose at minus their target.
_NO_LOSE_AT = {"lose_at": None}
_LES_ROIS = {
    "min_bid": 4,
    "no_trump": False,
    "target": 40,
    "bid_out": None,
    "nt_target": None,
    "win_requires_bid": False,
    **_NO_LOSE_AT,
}
_PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "standard": {},
    "pagat": {"min_bid": 6, "nt_target": None, "win_requires_bid": False, **_NO_LOSE_AT},
    "yarotsky": {
        "min_bid": 6,
        "bid_out": 46,
        "dealer_may_equal": False,
        "kaiser_bid": "solo",
        **_NO_LOSE_AT,
    },
    "bid-out-47": {"bid_out": 47, "nt_target": None, "win_requires_bid": False},
    "saskatchewan": {"low_no_trump": True},
    "cap-49": {
        "min_bid": 6,
        "bid_out": None,
        "nonbidder_cap": 49,
        "nt_target": None,
        **_NO_LOSE_AT,
    },
    "les-rois": _LES_ROIS,
    "hetu": {**_LES_ROIS, "min_bid": 5, "heart_bonus": 6},
    "joffre": {
        "min_bid": 5,
        "no_trump": False,
        "target": 41,
        "bid_out": None,
        "nt_target": None,
        "win_requires_bid": False,
        "joffre_insult": True,
        **_NO_LOSE_AT,
    },
    "three-player": {
        "seats": 3,
        "nt_target": None,
        "win_requires_bid": False,
        **_NO_LOSE_AT,
    },
    "lost-heir": {
        "no_trump": False,
        "min_bid": 1,
        "max_bid": 13,
        "target": 25,
        "bid_out": None,
        "nt_target": None,
        "win_requires_bid": False,
        "dealer_may_pass": True,
        "dealer_sells": True,
        "set_scores_zero": True,
        "blank_cards": True,
        **_NO_LOSE_AT,
    },
    # kaiser-lib, the engine of kaisergame.com: no bid-out and no raised target, any side at the
    # target wins (the higher score when both are, side 0 when level), 13 no ("Troika") scores
    # 52 either way and 14 no 1000.
    "kaisergame.com": {
        "bid_out": None,
        "nt_target": None,
        "win_requires_bid": False,
        "both_cross": "higher",
        "bid_13_no": 52,
        "bid_14_no": 1000,
        **_NO_LOSE_AT,
    },
    # dcm454/kaiser: game to 52, or 64 after a made no-trump bid; no bid-out, but a side that did
    # not bid scores nothing on a hand that would take it past the target.
    "dcm454": {
        "bid_out": None,
        "nt_target": 64,
        "defender_all_or_nothing": True,
        "no_trump_named": "after",
        **_NO_LOSE_AT,
    },
}
