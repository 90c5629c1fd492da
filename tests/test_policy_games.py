"""The game policy as a table: every action of a game x every identity x every state, answered
by `may` (the decision the services check and the sheet offers), with the state read by
`scorecards.game_state.game_now` as the services and pages read it. Pure: no database."""

from __future__ import annotations

import pytest

from leagues.clubs.policy import Actor, may
from leagues.clubs.policy.games import GameFacts, GameNow, HandFacts, state_decide
from leagues.clubs.roles import (
    GAME_ABANDON,
    GAME_DELETE,
    HAND_CONFIRM,
    HAND_CORRECT,
    HAND_ENTER,
    HAND_UNDO,
    SEAT_CLAIM,
    TABLE_LINK_MANAGE,
    VIEW,
)
from leagues.tournaments.table_context import place_worded
from scorecards.game_state import game_now
from scorecards.hooks import TablePlace

CLUB, STARTER = 1, 3
SIDES = (0, 1, 0, 1)  # four seats, partners across

ACTORS = {
    "owner": Actor(user_id=1, role="owner"),
    "scorer": Actor(user_id=2, role="scorer"),
    "member-starter": Actor(user_id=STARTER, role="member", starter=True),
    "member": Actor(user_id=4, role="member"),
    # The account that started the game, removed from the club since: it keeps nothing.
    "ex-member": Actor(user_id=STARTER, role=None),
    "outsider": Actor(user_id=6),
    "table-link phone": Actor(table_link=True),
    "phone seated on side 0": Actor(table_link=True, seat=0),
    "phone seated on side 1": Actor(table_link=True, seat=1),
}


def _place(*, played: int = 2, round_closed: bool = False, night_over: bool = False) -> TablePlace:
    # In the tournament room's words, as its table context gives a place to the sheet.
    return place_worded(
        TablePlace(
            round_number=1,
            hands_per_round=4,
            needed=4,
            played=played,
            round_closed=round_closed,
            night_over=night_over,
        )
    )


def _now(state: str) -> GameNow:
    """A game of three hands (none confirmed) in `state`, read by the one state function."""
    status, place, season_closed = {
        "in progress": ("in_progress", None, False),
        "finished": ("finished", None, False),
        "abandoned": ("abandoned", None, False),
        "round played": ("in_progress", _place(played=4), False),
        "round closed": ("finished", _place(played=3, round_closed=True), False),
        "night over": ("finished", _place(played=3, round_closed=True, night_over=True), False),
        "season closed": ("in_progress", None, True),
    }[state]
    return game_now(
        status=status, place=place, season_closed=season_closed, hands=3, confirm_asked=True
    )


STATES = (
    "in progress",
    "finished",
    "abandoned",
    "round played",
    "round closed",
    "night over",
    "season closed",
)
AT_TABLE = {
    "owner",
    "scorer",
    "member-starter",
    "member",
    "table-link phone",
    "phone seated on side 0",
    "phone seated on side 1",
}
SCORERS = {"owner", "scorer"}
OPEN = {"in progress", "round played"}  # states whose hands may still be taken back
CONFIRMING = {"in progress", "finished", "round played", "round closed"}

# action -> state -> who is allowed. Hand 3 was entered by the phone seated on side 0.
EXPECTED: dict[str, dict[str, set[str]]] = {
    VIEW: dict.fromkeys(STATES, AT_TABLE),
    HAND_ENTER: {s: AT_TABLE if s == "in progress" else set() for s in STATES},
    HAND_UNDO: {s: AT_TABLE if s in OPEN else set() for s in STATES},
    HAND_CORRECT: {
        s: set() if s == "season closed" else SCORERS | {"member-starter"} if s in OPEN else SCORERS
        for s in STATES
    },
    HAND_CONFIRM: {s: {"phone seated on side 1"} if s in CONFIRMING else set() for s in STATES},
    SEAT_CLAIM: {s: AT_TABLE if s in CONFIRMING else set() for s in STATES},
    GAME_ABANDON: {s: SCORERS if s == "in progress" else set() for s in STATES},
    GAME_DELETE: {s: set() for s in STATES},  # the game has hands
    TABLE_LINK_MANAGE: {
        s: set() if s == "season closed" else SCORERS | {"member-starter"} for s in STATES
    },
}


def _facts(state: str, **about) -> GameFacts:
    return GameFacts(club_id=CLUB, started_by=STARTER, now=_now(state), sides=SIDES, **about)


@pytest.mark.parametrize("action", list(EXPECTED))
@pytest.mark.parametrize("state", STATES)
def test_every_action_x_identity_x_state(action: str, state: str) -> None:
    about = {}
    if action == HAND_CONFIRM:
        about["hand"] = HandFacts(number=3, entered_seat=0)
    if action == SEAT_CLAIM:
        about["seat"] = 1
    facts = _facts(state, **about)
    allowed = {name for name, actor in ACTORS.items() if may(actor, action, facts)}
    assert allowed == EXPECTED[action][state], (action, state)
    for name, actor in ACTORS.items():
        decision = may(actor, action, facts)
        # Every refusal says why, in a sentence, with a machine word.
        assert decision.allowed or (decision.reason and decision.status), (name, action, state)


def test_the_state_function_says_why_a_game_is_closed() -> None:
    assert _now("in progress").takes_hands and not _now("in progress").reason_needed
    assert _now("finished").closed == "This game is over: ask a scorer to correct it."
    assert _now("abandoned").closed == "This game was abandoned: ask a scorer to correct it."
    assert _now("round closed").closed.startswith("This round is over")
    assert _now("night over").closed.startswith("This night is over")
    assert _now("season closed").closed.startswith("The season of this game is closed")
    played = _now("round played")
    assert not played.closed and played.round_over.startswith("Round over")
    assert not played.takes_hands and not played.reason_needed
    decision = may(ACTORS["member"], HAND_ENTER, _facts("round played"))
    assert decision.status == "round_over"


def test_a_member_who_started_a_finished_game_may_not_correct_it() -> None:
    decision = may(ACTORS["member-starter"], HAND_CORRECT, _facts("finished"))
    assert not decision and decision.reason == "This game is over: ask a scorer to correct it."
    assert may(ACTORS["member-starter"], HAND_CORRECT, _facts("in progress"))
    assert may(ACTORS["scorer"], HAND_CORRECT, _facts("finished"))
    assert _now("finished").reason_needed


def test_the_starter_of_a_quick_game_holds_every_power_and_a_table_link_only_its_share() -> None:
    quick = GameFacts(club_id=None, started_by=9, now=_now("finished"), sides=SIDES)
    starter = Actor(user_id=9, starter=True)
    for action in (VIEW, HAND_CORRECT, TABLE_LINK_MANAGE):
        assert may(starter, action, quick), action
    open_quick = GameFacts(
        club_id=None, started_by=9, now=game_now(status="in_progress", place=None)
    )
    assert may(starter, GAME_DELETE, open_quick) and may(starter, GAME_ABANDON, open_quick)
    phone = Actor(table_link=True)
    assert may(phone, HAND_ENTER, open_quick) and may(phone, HAND_UNDO, open_quick) is not None
    for action in (HAND_CORRECT, GAME_ABANDON, GAME_DELETE, TABLE_LINK_MANAGE):
        assert not may(phone, action, open_quick), action
    assert not may(Actor(user_id=10), VIEW, open_quick)


def test_undo_is_refused_with_nothing_to_take_back_and_after_a_confirmation() -> None:
    member = ACTORS["member"]
    empty = GameFacts(CLUB, STARTER, game_now(status="in_progress", place=None, hands=0))
    assert may(member, HAND_UNDO, empty).status == "nothing"
    confirmed = GameFacts(
        CLUB,
        STARTER,
        game_now(status="in_progress", place=None, hands=2, last_confirmed_by="Cat"),
    )
    decision = may(member, HAND_UNDO, confirmed)
    assert decision.status == "confirmed" and "confirmed by Cat" in decision.reason


def test_who_confirms_a_hand() -> None:
    def confirm(actor: Actor, hand: HandFacts, state: str = "in progress") -> str:
        decision = may(actor, HAND_CONFIRM, _facts(state, hand=hand))
        return "ok" if decision else decision.reason

    by_side_0 = HandFacts(number=1, entered_seat=0, entered_by=4)
    assert confirm(Actor(table_link=True, seat=1), by_side_0) == "ok"
    assert confirm(Actor(table_link=True, seat=2), by_side_0).startswith("Your side entered")
    # The account that entered it, whatever seat it holds now.
    assert confirm(Actor(user_id=4, role="member", seat=1), by_side_0).startswith(
        "You entered this hand"
    )
    assert confirm(Actor(table_link=True), by_side_0).startswith("Only a player of the other")
    nobody = HandFacts(number=1)  # nobody seated entered it: either side confirms
    assert confirm(Actor(table_link=True, seat=0), nobody) == "ok"
    assert confirm(Actor(table_link=True, seat=1), nobody) == "ok"
    # A phone with no account that entered it naming no seat: never that phone, any seat.
    by_phone = HandFacts(number=1, entered_phone="p-1")
    assert confirm(Actor(table_link=True, seat=1, phone="p-1"), by_phone).startswith(
        "This phone entered"
    )
    assert confirm(Actor(table_link=True, seat=1, phone="p-2"), by_phone) == "ok"
    assert "abandoned" in confirm(Actor(table_link=True, seat=1), by_side_0, "abandoned")
    not_asked = GameFacts(
        CLUB, STARTER, game_now(status="in_progress", place=None), SIDES, hand=by_side_0
    )
    assert not may(Actor(table_link=True, seat=1), HAND_CONFIRM, not_asked)


def test_a_person_holds_one_seat_and_never_one_of_the_other_side_from_its_hands() -> None:
    phone = Actor(user_id=4, role="member")

    def claim(seat: int, **person) -> str:
        decision = may(phone, SEAT_CLAIM, _facts("in progress", seat=seat, **person))
        return "ok" if decision else decision.status

    assert claim(1) == "ok"
    assert claim(1, person_seats=frozenset({1})) == "ok"  # the seat it holds already
    assert claim(1, person_seats=frozenset({0})) == "claimed"
    assert claim(3, person_entered=frozenset({0})) == "forbidden"
    assert claim(2, person_entered=frozenset({0})) == "ok"
    assert claim(7) == "taken"


def test_delete_is_for_a_game_that_never_had_a_hand_and_is_no_table() -> None:
    owner = ACTORS["owner"]
    fresh = game_now(status="in_progress", place=None)
    assert may(owner, GAME_DELETE, GameFacts(CLUB, STARTER, fresh))
    undone = game_now(status="in_progress", place=None, had_hands=True)
    assert may(owner, GAME_DELETE, GameFacts(CLUB, STARTER, undone)).status == "closed"
    table = game_now(status="in_progress", place=_place(played=0))
    assert not may(owner, GAME_DELETE, GameFacts(CLUB, STARTER, table))
    assert not may(ACTORS["member-starter"], GAME_DELETE, GameFacts(CLUB, STARTER, fresh))


def test_a_trusted_caller_meets_only_the_state() -> None:
    assert state_decide(HAND_ENTER, _facts("in progress"))
    assert state_decide(HAND_ENTER, _facts("finished")).status == "closed"
    assert state_decide(HAND_CORRECT, _facts("in progress"))
    assert not state_decide(HAND_CORRECT, _facts("finished"))
