"""The Kaiser rules engine: settings and presets, hand validation and scoring, game records.

Pure Python, no Django and no I/O: plain data in, frozen dataclasses and dicts out. The rulebook
is ../shared/spec/rules.md and the record formats ../shared/spec/game-record.md.

    rules = rules_build({"preset": "standard", "min_bid": 6})
    game = game_score(rules, [HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0,
                                        three_spades=1)], first_dealer=3)
    record_score({"seats": [...], "hands": [...]})   # kaiser-game/1 in, kaiser-result/1 out

Every error is a KaiserError (a ValueError) whose message names the hand or the field at fault.
"""

from scorecards.rules.errors import HandError, KaiserError, RecordError, RulesError
from scorecards.rules.presets import (
    BID_KINDS,
    PRESET_CHANGES,
    PRESETS,
    SETTINGS,
    Rules,
    rules_build,
)
from scorecards.rules.record import GameRecord, record_parse, record_score
from scorecards.rules.scoring import (
    GameScore,
    HandInput,
    HandScore,
    call_parse,
    call_text,
    game_play,
    game_score,
)

__all__ = [
    "BID_KINDS",
    "PRESETS",
    "PRESET_CHANGES",
    "SETTINGS",
    "GameRecord",
    "GameScore",
    "HandError",
    "HandInput",
    "HandScore",
    "KaiserError",
    "RecordError",
    "Rules",
    "RulesError",
    "call_parse",
    "call_text",
    "game_play",
    "game_score",
    "record_parse",
    "record_score",
    "rules_build",
]
