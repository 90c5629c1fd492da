"""The Kaiser rules engine: settings and presets, hand validation and scoring, game records.

Pure Python, no Django and no I/O: plain data in, frozen dataclasses and dicts out. The rulebook
is ../shared/spec/rules.md and the record formats ../shared/spec/game-record.md.

    rules = rules_build({"preset": "standard", "min_bid": 6})
    game = game_score(rules, [HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0,
                                        three_spades=1)], first_dealer=3)
    record_score({"seats": [...], "hands": [...]})   # kaiser-game/1 in, kaiser-result/1 out

Every error is a KaiserError (a ValueError) whose message names the hand or the field at fault.

Readings of the rulebook where it leaves room (each has a test in tests/rules/):
- A kaiser is made when the bidding side takes at least 12 points (solo: and the partner takes
  no trick); its delta is zero even under a Joffre insult (game-record.md says so).
- A kaiser 40 needs no `no_trump`, never raises the target, scores +/-40 undoubled; every
  partner seat sits out. A null special card is allowed only on a kaiser 40 with a partner.
- Partnerships are strict: 4 seats play pairs; 2, 3 and 5 seats play individual.
- Yarotsky's `bid_out` is a fixed 46: "(52 - min bid)" explains the number, it does not follow a
  `min_bid` override. Only `partnership`, `tricks_per_hand`, `nt_bid_out` and `lose_at` are
  derived from other settings, so standard with only `target: 69` is refused (nt_target 62 is
  no longer above it).
- The target raise counts for the end-of-game check of the hand that made it; non-bidders of
  that hand are still limited by the old bid-out.
- A non-bidder already above `nonbidder_cap` gains nothing; the insult is a fixed 5 on any side,
  provided both special cards are in one side's tricks.
- An auction of all passes is refused (with `dealer_may_pass`, the message says to record the
  hand as thrown in). A throw-in (misdeal) is allowed whatever `dealer_may_pass` says.
- A record's `hands` is required, `format` and `rules` optional; a hand with a field of the wrong
  type is reported only after the hands before it are scored, so the first bad hand is named.
"""

from scorecards.rules.catalogue import (
    Preset,
    Setting,
    card_names,
    presets_catalogue,
    rules_changes,
    rules_describe,
    settings_catalogue,
)
from scorecards.rules.errors import HandError, KaiserError, RecordError, RulesError
from scorecards.rules.habits import (
    ANNOUNCED,
    KITTY,
    MISDEALS,
    PASSING,
    Pot,
    PotAccount,
    pot_account,
)
from scorecards.rules.presets import (
    BID_KINDS,
    BOUNDS,
    PRESET_CHANGES,
    PRESETS,
    SETTINGS,
    Rules,
    max_bid_limit,
    rules_build,
)
from scorecards.rules.record import GameRecord, record_parse, record_score
from scorecards.rules.scoring import (
    NOBODY,
    GameScore,
    HandInput,
    HandScore,
    call_parse,
    call_text,
    game_play,
    game_score,
)

__all__ = [
    "ANNOUNCED",
    "BID_KINDS",
    "BOUNDS",
    "KITTY",
    "MISDEALS",
    "NOBODY",
    "PASSING",
    "PRESETS",
    "PRESET_CHANGES",
    "SETTINGS",
    "GameRecord",
    "GameScore",
    "HandError",
    "HandInput",
    "HandScore",
    "KaiserError",
    "Pot",
    "PotAccount",
    "Preset",
    "RecordError",
    "Rules",
    "RulesError",
    "Setting",
    "call_parse",
    "call_text",
    "card_names",
    "game_play",
    "game_score",
    "max_bid_limit",
    "pot_account",
    "presets_catalogue",
    "record_parse",
    "record_score",
    "rules_build",
    "rules_changes",
    "rules_describe",
    "settings_catalogue",
]
