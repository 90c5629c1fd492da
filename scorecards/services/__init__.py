"""The writes of scorecards: games, hands, confirmations and seat claims, each in one
transaction that checks who may do it and whether the game is still open.

`state` holds what they share (the refusals, the locked read, the engine's result on the game
row), `hands` the writes of a hand, `games` the writes about a game as a whole, `seats` the seat
claims of its table's phones.
Callers import from `scorecards.services`.
"""

from scorecards.services.games import (
    game_abandon,
    game_abandon_by_night,
    game_close_by_round,
    game_delete,
    game_token_issue,
    game_token_revoke,
    games_delete,
    hand_confirm,
)
from scorecards.services.hands import (
    game_rescore,
    game_start,
    hand_correct,
    hand_record,
    hand_undo,
)
from scorecards.services.refusals import (
    GameClosed,
    HandConfirmed,
    HandConflict,
    HandRecorded,
    HandRefused,
    HandUndone,
    NotAllowed,
    ReasonMissing,
    RoundOver,
    SeasonClosed,
)
from scorecards.services.seats import (
    SeatRefused,
    seat_claim,
    seat_of,
    seat_release,
)
from scorecards.services.state import (
    actor_locked,
    club_role,
    confirm_asked_of,
    game_locked,
    game_rescored,
    hand_fields,
    hand_inputs,
    key_spent,
    place_of,
    policy_check,
    refusal_of,
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
    "SeasonClosed",
    "SeatRefused",
    "actor_locked",
    "club_role",
    "confirm_asked_of",
    "game_abandon",
    "game_abandon_by_night",
    "game_close_by_round",
    "game_delete",
    "game_locked",
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
    "policy_check",
    "refusal_of",
    "score_apply",
    "seat_claim",
    "seat_of",
    "seat_release",
    "undone_error",
    "version_keep",
]
