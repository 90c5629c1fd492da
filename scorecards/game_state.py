"""What a game accepts now: the one reading of its state (status, its tournament round and night,
its season), read by the services under their lock and by the sheet, the preview and the hand
page, all through the policy (`leagues.clubs.policy.may`). Pure over values: no query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from leagues.clubs.policy.games import (
    ABANDONED,
    FINISHED,
    GameFacts,
    GameNow,
    HandFacts,
)
from scorecards.hooks import TablePlace
from scorecards.rules import Rules


def closed_why(status: str, place: TablePlace | None, *, season_closed: bool = False) -> str:
    """Why the hands of a game are final (empty while they are not): the sentence shown where
    the entry form was and answered by a refused write."""
    if season_closed:
        return _(
            "The season of this game is closed: its games stay as they are until an owner "
            "reopens it."
        )
    if place is not None and (place.night_over or place.round_closed):
        # The table context words it: the night and its director are not scorecards' words.
        return place.closed_message or _("The hands of this table are final.")
    if status == ABANDONED:
        return _("This game was abandoned: ask a scorer to correct it.")
    if status == FINISHED:
        return _("This game is over: ask a scorer to correct it.")
    return ""


def game_now(
    *,
    status: str,
    place: TablePlace | None,
    season_closed: bool = False,
    hands: int = 0,
    had_hands: bool | None = None,
    last_confirmed_by: str | None = None,
    confirm_asked: bool = False,
) -> GameNow:
    """What a game in `status` (at tournament `place`, None for no table) accepts now."""
    closed = closed_why(status, place, season_closed=season_closed)
    round_over = ""
    if place is not None and place.round_over:
        # The table context words it; a place without its words still takes no more hands.
        round_over = place.over_message or _("Every hand of this round is in: no more hands.")
    return GameNow(
        status=status,
        closed=closed,
        round_over="" if closed else round_over,
        night_over=place is not None and place.night_over,
        season_closed=season_closed,
        is_table=place is not None,
        hands=hands,
        had_hands=bool(hands) if had_hands is None else had_hands,
        last_confirmed_by=last_confirmed_by,
        confirm_asked=confirm_asked,
    )


def game_now_of(
    game: Any,
    place: TablePlace | None,
    hands: Sequence[Any] | None = None,
    *,
    confirm_asked: bool = False,
    had_hands: bool | None = None,
) -> GameNow:
    """`game_now` read from a game row (its season read with it) and its `hands` in order
    (None: only the count on the row is known, the last hand taken as unconfirmed)."""
    if hasattr(game, "_season_closed_at"):
        # Read with the game (a write's locked read): the season row is not needed.
        season_closed = game._season_closed_at is not None
    else:
        season = game.season if game.season_id is not None else None
        season_closed = season is not None and season.closed_at is not None
    last = hands[-1] if hands else None
    confirmed_by = None
    if last is not None and last.confirmed_at is not None:
        confirmed_by = last.confirmed_by_name
    return game_now(
        status=game.status,
        place=place,
        season_closed=season_closed,
        hands=game.hand_count if hands is None else len(hands),
        had_hands=had_hands,
        last_confirmed_by=confirmed_by,
        confirm_asked=confirm_asked,
    )


def game_facts(
    game: Any,
    now: GameNow,
    rules: Rules | None = None,
    *,
    hand: Any = None,
    seat: int | None = None,
    person_seats: frozenset[int] = frozenset(),
    person_entered: frozenset[int] = frozenset(),
) -> GameFacts:
    """The policy's picture of `game` (a Game row) in state `now`, about `hand` (a Hand row) or
    a claim of `seat` when the action is about one."""
    sides: tuple[int, ...] = ()
    if hand is not None or seat is not None:  # the sides matter only to a hand or a seat
        rules = rules or game.rules_value
        sides = tuple(rules.side_of(s) for s in range(rules.seats))
    return GameFacts(
        club_id=game.club_id,
        started_by=game.created_by_id,
        now=now,
        sides=sides,
        hand=None
        if hand is None
        else HandFacts(
            number=hand.number,
            entered_by=hand.entered_by_id,
            entered_seat=hand.entered_seat,
            confirmed=hand.confirmed_at is not None,
            entered_phone=getattr(hand, "entered_phone", "") or "",
        ),
        seat=seat,
        person_seats=person_seats,
        person_entered=person_entered,
    )
