"""Settings, presets and their derived defaults, and the checks on settings (rulebook: "Presets",
"Settings are checked", "The table", "Bids")."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import (
    BID_KINDS,
    PRESET_CHANGES,
    PRESETS,
    SETTINGS,
    Rules,
    RulesError,
    rules_build,
)

from .helpers import rules_of

STANDARD = {
    "seats": 4,
    "partnership": "pairs",
    "tricks_per_hand": 8,
    "min_bid": 7,
    "max_bid": 12,
    "no_trump": True,
    "low_no_trump": False,
    "low_ranks_equal": False,
    "target": 52,
    "nt_target": 62,
    "bid_out": 45,
    "nt_bid_out": 55,
    "lose_at": -52,
    "win_requires_bid": True,
    "both_cross": "bidder",
    "nt_target_for": "game",
    "nonbidder_cap": None,
    "bid_out_heart_wins": False,
    "bid_out_keeps_losses": True,
    "bid_out_bidder_to_target": False,
    "defender_all_or_nothing": False,
    "overtricks": True,
    "cover_three": False,
    "kaiser_bid": "off",
    "kaiser_40": False,
    "bid_13_no": None,
    "bid_14_no": None,
    "heart_bonus": 5,
    "spade_penalty": -3,
    "dealer_may_equal": True,
    "dealer_may_pass": False,
    "no_trump_named": "auction",
    "joffre_insult": False,
    "dealer_sells": False,
    "set_scores_zero": False,
    "blank_cards": False,
}

# rules.md's preset table: what each one changes from standard (derived values worked out).
NO_NT = {"nt_target": None, "nt_bid_out": None}
QUEBEC = {
    "min_bid": 4,
    "no_trump": False,
    "target": 40,
    "bid_out": None,
    **NO_NT,
    "lose_at": None,
    "win_requires_bid": False,
}
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "standard": {},
    "pagat": {"min_bid": 6, **NO_NT, "lose_at": None, "win_requires_bid": False},
    "yarotsky": {
        "min_bid": 6,
        "bid_out": 46,
        "nt_bid_out": 56,
        "dealer_may_equal": False,
        "kaiser_bid": "solo",
        "lose_at": None,
    },
    "bid-out-47": {"bid_out": 47, **NO_NT, "win_requires_bid": False},
    "saskatchewan": {"low_no_trump": True},
    "cap-49": {
        "min_bid": 6,
        "bid_out": None,
        "nonbidder_cap": 49,
        **NO_NT,
        "lose_at": None,
    },
    "les-rois": QUEBEC,
    "hetu": {**QUEBEC, "min_bid": 5, "heart_bonus": 6},
    "joffre": {
        "min_bid": 5,
        "no_trump": False,
        "target": 41,
        "bid_out": None,
        **NO_NT,
        "lose_at": None,
        "win_requires_bid": False,
        "joffre_insult": True,
    },
    "three-player": {
        "seats": 3,
        "partnership": "individual",
        **NO_NT,
        "lose_at": None,
        "win_requires_bid": False,
    },
    "lost-heir": {
        "no_trump": False,
        "min_bid": 1,
        "max_bid": 13,
        "target": 25,
        "bid_out": None,
        **NO_NT,
        "lose_at": None,
        "win_requires_bid": False,
        "dealer_may_pass": True,
        "dealer_sells": True,
        "set_scores_zero": True,
        "blank_cards": True,
    },
    "kaisergame.com": {
        "bid_out": None,
        **NO_NT,
        "lose_at": None,
        "win_requires_bid": False,
        "both_cross": "higher",
        "bid_13_no": 52,
        "bid_14_no": 1000,
    },
    "dcm454": {
        "bid_out": None,
        "nt_target": 64,
        "nt_bid_out": None,
        "lose_at": None,
        "defender_all_or_nothing": True,
        "no_trump_named": "after",
    },
}


def test_thirteen_presets() -> None:
    assert list(PRESETS) == list(PRESET_TABLE)
    assert set(PRESET_CHANGES) == set(PRESETS)


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_preset_values(name: str) -> None:
    expected = {**STANDARD, **PRESET_TABLE[name]}
    assert PRESETS[name] == expected
    rules = rules_build({"preset": name})
    assert rules.preset == name
    assert {key: value for key, value in rules.as_dict().items() if key != "preset"} == expected


def test_default_is_standard() -> None:
    assert rules_build() == rules_build({}) == rules_build(None) == Rules()
    assert rules_build().preset == "standard"
    assert tuple(STANDARD) == SETTINGS


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_as_dict_round_trip(name: str) -> None:
    rules = rules_build({"preset": name})
    assert rules_build(rules.as_dict()) == rules


def test_presets_dict_is_not_the_engine() -> None:
    """PRESETS is for display: changing it by accident changes no game."""
    copy = dict(PRESETS["standard"])
    PRESETS["standard"]["target"] = 99
    try:
        assert rules_build().target == 52
    finally:
        PRESETS["standard"] = copy


DERIVED = [
    (
        "lose_at follows target",
        "standard",
        {"target": 69, "nt_target": None},
        {"lose_at": -69, "nt_bid_out": None},
    ),
    ("lose_at follows target in bid-out-47", "bid-out-47", {"target": 60}, {"lose_at": -60}),
    ("no lose_at stays off", "pagat", {"target": 69}, {"lose_at": None}),
    ("explicit lose_at", "pagat", {"lose_at": -60}, {"lose_at": -60}),
    ("lose_at null disables", "standard", {"lose_at": None}, {"lose_at": None}),
    ("nt_bid_out follows bid_out", "standard", {"bid_out": 40}, {"nt_bid_out": 50}),
    (
        "nt_bid_out follows the raise",
        "standard",
        {"target": 60, "nt_target": 75},
        {"nt_bid_out": 60, "lose_at": -60},
    ),
    ("explicit nt_bid_out", "standard", {"nt_bid_out": 50}, {"nt_bid_out": 50}),
    ("no bid_out, no nt_bid_out", "standard", {"bid_out": None}, {"nt_bid_out": None}),
    ("no nt_target, no nt_bid_out", "standard", {"nt_target": None}, {"nt_bid_out": None}),
    ("nt_target switched on", "pagat", {"nt_target": 62}, {"nt_bid_out": 55}),
    ("raise never moves lose_at", "standard", {"nt_target": 80}, {"lose_at": -52}),
    (
        "two seats play 16 tricks alone",
        "standard",
        {"seats": 2},
        {"tricks_per_hand": 16, "partnership": "individual"},
    ),
    ("five seats", "standard", {"seats": 5}, {"tricks_per_hand": 8, "partnership": "individual"}),
    ("six seats pair up", "standard", {"seats": 6}, {"partnership": "pairs"}),
    ("six seats in triples", "hetu", {"seats": 6, "partnership": "triples"}, {}),
    ("three-player back to four", "three-player", {"seats": 4}, {"partnership": "pairs"}),
    ("explicit tricks_per_hand", "standard", {"seats": 2, "tricks_per_hand": 8}, {}),
]


@pytest.mark.parametrize(
    ("preset", "given", "derived"),
    [case[1:] for case in DERIVED],
    ids=[case[0] for case in DERIVED],
)
def test_derived_defaults(preset: str, given: dict, derived: dict) -> None:
    rules = rules_build({"preset": preset, **given})
    for name, value in {**given, **derived}.items():
        assert getattr(rules, name) == value, name
    assert rules_build(rules.as_dict()) == rules


BAD_SETTINGS = [
    ("min_bid as text", {"min_bid": "7"}, "min_bid", "min_bid must be a whole number"),
    ("target true", {"target": True}, "target", "target must be a whole number"),
    ("target float", {"target": 52.0}, "target", "target must be a whole number"),
    ("target null", {"target": None}, "target", "target must not be null"),
    ("seats text", {"seats": "4"}, "seats", "seats must be a whole number"),
    ("bool as number", {"no_trump": 1}, "no_trump", "no_trump must be true or false"),
    ("bool null", {"overtricks": None}, "overtricks", "overtricks must not be null"),
    ("bid_out text", {"bid_out": "45"}, "bid_out", "bid_out must be a whole number or null"),
    ("lose_at bool", {"lose_at": False}, "lose_at", "lose_at must be a whole number or null"),
    ("cap text", {"nonbidder_cap": "49"}, "nonbidder_cap", "nonbidder_cap must be"),
    ("unknown kaiser_bid", {"kaiser_bid": "duo"}, "kaiser_bid", "kaiser_bid must be one of"),
    ("kaiser_bid bool", {"kaiser_bid": True}, "kaiser_bid", "kaiser_bid must be one of"),
    ("unknown partnership", {"partnership": "teams"}, "partnership", "must be one of"),
    ("unknown setting", {"no_such_rule": 1}, "no_such_rule", "unknown setting 'no_such_rule'"),
    ("unknown preset", {"preset": "vegas"}, "preset", "unknown preset 'vegas'"),
    ("preset not text", {"preset": 3}, "preset", "unknown preset 3"),
    ("seats 1", {"seats": 1}, "seats", "seats must be 2 to 6 (got 1)"),
    ("seats 7", {"seats": 7}, "seats", "seats must be 2 to 6 (got 7)"),
    ("pairs of 3", {"seats": 3, "partnership": "pairs"}, "partnership", "does not fit 3 seats"),
    ("triples of 4", {"partnership": "triples"}, "partnership", "does not fit 4 seats"),
    ("4 in triples", {"partnership": "triples"}, "partnership", "4 seats play pairs or individual"),
    ("5 in pairs", {"seats": 5, "partnership": "pairs"}, "partnership", "does not fit 5 seats"),
    ("min_bid 0", {"min_bid": 0}, "min_bid", "min_bid must be 1 to 36 (got 0)"),
    ("min above max", {"min_bid": 9, "max_bid": 8}, "min_bid", "min_bid must not be above"),
    ("target 0", {"target": 0}, "target", "target must be 6 to 500 (got 0)"),
    ("no tricks", {"tricks_per_hand": 0}, "tricks_per_hand", "tricks_per_hand must be 1 to 16"),
    ("nt_target equal", {"nt_target": 52}, "nt_target", "nt_target must be above target"),
    ("nt_target below", {"target": 70}, "nt_target", "nt_target must be above target"),
    ("lose_at zero", {"lose_at": 0}, "lose_at", "lose_at must be -500 to -1 (got 0)"),
    ("lose_at positive", {"lose_at": 10}, "lose_at", "lose_at must be -500 to -1 (got 10)"),
    (
        "dealer sells a kaiser",
        {"dealer_sells": True, "kaiser_bid": "team"},
        "dealer_sells",
        "dealer_sells cannot be combined with kaiser bids",
    ),
    (
        "lost heir with kaiser 40",
        {"preset": "lost-heir", "kaiser_40": True},
        "dealer_sells",
        "cannot be combined",
    ),
    ("lost heir sells", {"preset": "lost-heir", "dealer_sells": 1}, "dealer_sells", "true or"),
    ("blank cards null", {"blank_cards": None}, "blank_cards", "must not be null"),
    ("set zero text", {"set_scores_zero": "yes"}, "set_scores_zero", "true or false"),
    (
        "low without no",
        {"preset": "les-rois", "low_no_trump": True},
        "low_no_trump",
        "low_no_trump needs no_trump",
    ),
    (
        "kaiser without no",
        {"no_trump": False, "kaiser_bid": "team"},
        "kaiser_bid",
        "kaiser_bid team needs no_trump",
    ),
    ("yarotsky without no", {"preset": "yarotsky", "no_trump": False}, "kaiser_bid", "needs"),
]


@pytest.mark.parametrize(
    ("data", "setting", "fragment"),
    [case[1:] for case in BAD_SETTINGS],
    ids=[case[0] for case in BAD_SETTINGS],
)
def test_bad_settings_are_refused_naming_the_setting(
    data: dict, setting: str, fragment: str
) -> None:
    with pytest.raises(RulesError) as caught:
        rules_build(data)
    error = caught.value
    assert str(error).startswith("rules: ")
    assert fragment in str(error)
    assert setting in str(error)
    assert error.field == "rules"
    assert error.setting == setting


@pytest.mark.parametrize("data", [[], "standard", 7], ids=["list", "text", "number"])
def test_rules_must_be_an_object(data: Any) -> None:
    with pytest.raises(RulesError, match=r"^rules: expected an object"):
        rules_build(data)


def test_kaiser_40_stands_without_no_trump() -> None:
    # "Either needs no_trump" is said of kaiser_bid; kaiser 40 is not played in no trump.
    assert "kaiser40" in rules_of("joffre", kaiser_40=True).kinds_allowed()


SIDES = [
    ("2 seats", {"seats": 2}, ((0,), (1,))),
    ("3 seats", {"seats": 3}, ((0,), (1,), (2,))),
    ("4 seats", {}, ((0, 2), (1, 3))),
    ("5 seats", {"seats": 5}, ((0,), (1,), (2,), (3,), (4,))),
    ("6 seats in pairs", {"seats": 6}, ((0, 3), (1, 4), (2, 5))),
    ("6 seats in triples", {"seats": 6, "partnership": "triples"}, ((0, 2, 4), (1, 3, 5))),
]


@pytest.mark.parametrize(
    ("given", "sides"), [case[1:] for case in SIDES], ids=[case[0] for case in SIDES]
)
def test_sides(given: dict, sides: tuple) -> None:
    rules = rules_of(**given)
    assert rules.sides == sides
    assert rules.side_count == len(sides)
    for number, seats in enumerate(sides):
        for seat in seats:
            assert rules.side_of(seat) == number
            assert rules.partners(seat) == tuple(s for s in seats if s != seat)


KINDS = [
    ("standard", {}, ("trump", "no")),
    ("saskatchewan", {}, ("trump", "no", "low")),
    ("yarotsky", {}, ("trump", "no", "kaiser")),
    ("les-rois", {}, ("trump",)),
    ("joffre", {}, ("trump",)),
    ("standard", {"kaiser_40": True, "kaiser_bid": "team"}, ("trump", "no", "kaiser", "kaiser40")),
    ("saskatchewan", {"kaiser_40": True}, ("trump", "no", "low", "kaiser40")),
]


@pytest.mark.parametrize(
    ("preset", "given", "kinds"),
    KINDS,
    ids=[f"{preset}{'+' if given else ''}{'+'.join(given)}" for preset, given, _ in KINDS],
)
def test_kinds_allowed(preset: str, given: dict, kinds: tuple) -> None:
    assert rules_of(preset, **given).kinds_allowed() == kinds
    assert set(kinds) <= set(BID_KINDS)


def test_bid_order() -> None:
    rules = rules_of("saskatchewan", kaiser_bid="solo", kaiser_40=True)
    written = [(k, b) for b in range(7, 13) for k in ("trump", "no", "low")]
    written += [("kaiser", None), ("kaiser40", None)]
    ranks = [rules.bid_rank(kind, bid) for kind, bid in written]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)  # strictly increasing: 7 < 7 no < 7 low < 8 ...


BID_PAIRS = [
    ("7 no beats 7", ("no", 7), ("trump", 7), False, 1),
    ("7 low beats 7 no", ("low", 7), ("no", 7), False, 1),
    ("8 beats 7 low", ("trump", 8), ("low", 7), False, 1),
    ("kaiser beats 12 low", ("kaiser", None), ("low", 12), False, 1),
    ("kaiser 40 beats kaiser", ("kaiser40", None), ("kaiser", None), False, 1),
    ("7 low equals 7 no when ranked equal", ("low", 7), ("no", 7), True, 0),
    ("8 still beats 7 low when ranked equal", ("trump", 8), ("low", 7), True, 1),
    ("7 no still beats 7 when ranked equal", ("no", 7), ("trump", 7), True, 1),
]


@pytest.mark.parametrize(
    ("high", "low", "equal", "sign"),
    [case[1:] for case in BID_PAIRS],
    ids=[case[0] for case in BID_PAIRS],
)
def test_bid_pairs(high: tuple, low: tuple, equal: bool, sign: int) -> None:
    rules = rules_of("saskatchewan", low_ranks_equal=equal)
    a, b = rules.bid_rank(*high), rules.bid_rank(*low)
    assert (a > b) - (a < b) == sign
