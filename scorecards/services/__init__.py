"""The writes of scorecards: games, hands, confirmations and seat claims, each in one
transaction that checks who may do it and whether the game is still open.

`state` holds what they share (the refusals, the locked read, the engine's result on the game
row), `hands` the writes of a hand, `games` the writes about a game and its table's phones.
Callers import from `scorecards.services`.
"""

from scorecards.services.games import (
    game_abandon,
    game_close_by_round,
    game_delete,
    game_token_issue,
    game_token_revoke,
    games_delete,
    hand_confirm,
    seat_claim,
    seat_of,
)
from scorecards.services.hands import (
    game_rescore,
    game_start,
    hand_correct,
    hand_record,
    hand_undo,
)
from scorecards.services.state import (
    GameClosed,
    HandConfirmed,
    HandConflict,
    HandRecorded,
    HandRefused,
    HandUndone,
    NotAllowed,
    ReasonMissing,
    RoundOver,
    closed_message,
    club_role,
    game_can_correct,
    game_locked,
    game_power,
    game_rescored,
    hand_fields,
    hand_inputs,
    key_spent,
    place_of,
    score_apply,
    undone_error,
    version_keep,
)

__all__ = [
    "GameClosed",
    "HandConfirmed",
    "HandConflict",
    "HandRecorded",
    "HandRefused",
    "HandUndone",
    "NotAllowed",
    "ReasonMissing",
    "RoundOver",
    "closed_message",
    "club_role",
    "game_abandon",
    "game_can_correct",
    "game_close_by_round",
    "game_delete",
    "game_locked",
    "game_power",
    "game_rescore",
    "game_rescored",
    "game_start",
    "game_token_issue",
    "game_token_revoke",
    "games_delete",
    "hand_confirm",
    "hand_correct",
    "hand_fields",
    "hand_inputs",
    "hand_record",
    "hand_undo",
    "key_spent",
    "place_of",
    "score_apply",
    "seat_claim",
    "seat_of",
    "undone_error",
    "version_keep",
]
