"""The Kaiser rules engine: settings and presets, hand validation and scoring, game records.

Pure Python, no Django and no I/O: plain data in, frozen dataclasses and dicts out. The rules it
implements, every setting with its range and default, the presets and the engine's readings where
the rulebook leaves room are in docs/rules.md; the record formats (`kaiser-game/1`,
`kaiser-result/1`, the table habits) in docs/game-record.md.

    rules = rules_build({"preset": "standard", "min_bid": 6})
    game = game_score(rules, [HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0,
                                        three_spades=1)], first_dealer=3)
    record_score({"seats": [...], "hands": [...]})   # kaiser-game/1 in, kaiser-result/1 out
    settings_catalogue(), presets_catalogue()         # every setting and preset, for a form
    rules_describe(rules)                             # "Standard · Minimum bid: 6"
    pot_account(game, Pot(per_set=25))                # who fed the pot, who collects it

Every error is a KaiserError (a ValueError) whose message names the hand or the field at fault.
A special card no side took (a kaiser 40 partner's unplayed card, a card cancelled by a blank)
is NOBODY on a HandInput and `null` in a record; None means "not told", which is refused.
"""

from scorecards.rules.calls import MAX_HANDS, NO_TRUMP_KINDS, NOBODY, Card, call_parse, call_text
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
from scorecards.rules.hands import GameScore, HandInput, HandScore
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
from scorecards.rules.record import (
    PLAYED_ON_FIRST,
    PLAYED_ON_LAST,
    GameRecord,
    played_on_check,
    played_on_parse,
    record_parse,
    record_score,
)
from scorecards.rules.scoring import game_play, game_score, points_leader

__all__ = [
    "ANNOUNCED",
    "BID_KINDS",
    "BOUNDS",
    "KITTY",
    "MAX_HANDS",
    "MISDEALS",
    "NOBODY",
    "NO_TRUMP_KINDS",
    "PASSING",
    "PLAYED_ON_FIRST",
    "PLAYED_ON_LAST",
    "PRESETS",
    "PRESET_CHANGES",
    "SETTINGS",
    "Card",
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
    "played_on_check",
    "played_on_parse",
    "points_leader",
    "pot_account",
    "presets_catalogue",
    "record_parse",
    "record_score",
    "rules_build",
    "rules_changes",
    "rules_describe",
    "settings_catalogue",
]
