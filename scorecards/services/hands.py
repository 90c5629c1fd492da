"""Writes that touch games and hands. Each runs in one transaction, holds the game row locked, and
validates through the rules engine against the hands so far: a refused hand changes nothing.

Scores are never computed here: `game_score` from the engine is the only arithmetic.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import uuid
from collections.abc import Mapping, Sequence
from typing import Literal

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kaiser_league.query_memo import rows_insert_then_update
from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.roles import HAND_CORRECT, HAND_ENTER, HAND_UNDO
from scorecards.game_state import game_facts, game_now_of
from scorecards.hooks import game_result_changed
from scorecards.models import (
    Game,
    Hand,
    HandAction,
    Seat,
    SpentKey,
    hand_input,
)
from scorecards.rules import (
    GameScore,
    HandError,
    HandInput,
    RecordError,
    Rules,
    game_play,
    game_score,
    played_on_check,
)
from scorecards.rules.habits import game_habits_parse
from scorecards.rules.scoring import first_dealer_check
from scorecards.services.refusals import (
    HandConflict,
    HandRecorded,
    ReasonMissing,
)
from scorecards.services.state import (
    SCORE_FIELDS,
    actor_locked,
    game_locked,
    game_rescored,
    hand_fields,
    hand_inputs,
    hand_row,
    hands_so_far,
    key_spent_of,
    locked_check,
    place_of,
    policy_check,
    score_apply,
    undone_error,
    version_keep,
)


def game_rescore(*, game: Game) -> GameScore:
    """Re-derive a game's cached totals from its stored hands (idempotent)."""
    with transaction.atomic():
        game = game_locked(game.pk)
        score = game_score(game.rules_value, hand_inputs(game), game.first_dealer)
        score_apply(game, score)
    return score


@transaction.atomic
def game_start(
    *,
    seats: Sequence[Player | str],
    rules: Rules,
    club: Club | None = None,
    season: Season | None = None,
    first_dealer: int = 0,
    table_label: str = "",
    created_by: User | None = None,
    habits: Mapping | None = None,
    played_on: datetime.date | Literal["today"] | None = "today",
) -> Game:
    """Start a game with `seats` (players of `club`, or plain names for a quick game) clockwise
    from seat 0, and its table `habits` as a record's top level writes them (`passing`, `kitty`,
    `pot`). `played_on` is the day it is played: today in the server's time zone unless given;
    None when not known (an imported record without a date). Raises RecordError naming
    `seats`, `first_dealer`, `played_on` (a year out of the engine's bounds) or the habit at
    fault."""
    habits = game_habits_parse(habits or {})
    day = timezone.localdate() if isinstance(played_on, str) else played_on
    if day is not None:
        played_on_check(day)
    if len(seats) != rules.seats:
        raise RecordError(
            "seats",
            _("expected %(seats)s names (got %(count)s)")
            % {"seats": rules.seats, "count": len(seats)},
        )
    first_dealer_check(rules, first_dealer)
    players = [seat for seat in seats if isinstance(seat, Player)]
    if len({p.pk for p in players}) != len(players):
        raise RecordError("seats", _("a player can sit in only one seat"))
    if club is None and players:
        raise RecordError("seats", _("club players need the game to belong to their club"))
    if any(p.club_id != club.pk for p in players if club is not None):
        raise RecordError("seats", _("every player must belong to the game's club"))
    if season is not None and (club is None or season.club_id != club.pk):
        raise RecordError("season", _("the season belongs to another club"))
    if season is not None and season.closed_at is not None:
        # A closed season is an archive: no new game starts in it.
        raise RecordError("season", _("the season %(name)s is closed") % {"name": season.name})
    names = [(seat.name if isinstance(seat, Player) else str(seat)).strip() for seat in seats]
    if any(not name for name in names):
        raise RecordError("seats", _("every seat needs a name"))
    # One person, one seat: the same player twice, or two names the club tells apart no more.
    if len({name_key(name) for name in names}) != len(names):
        raise RecordError("seats", _("a player can sit in only one seat"))
    game = Game.objects.create(
        club=club,
        season=season,
        table_label=table_label,
        rules=rules.as_dict(),
        first_dealer=first_dealer,
        created_by=created_by,
        passing=habits.get("passing", ""),
        kitty=habits.get("kitty", ""),
        pot_per_set=habits["pot"].per_set if "pot" in habits else None,
        played_on=day,
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            seat=number,
            name=name[:80],
            player=seat if isinstance(seat, Player) else None,
        )
        for number, (seat, name) in enumerate(zip(seats, names, strict=True))
    )
    score_apply(game, game_score(rules, [], first_dealer))
    return game


def hand_record(
    *,
    game: Game,
    hand: HandInput,
    idempotency_key: uuid.UUID | None = None,
    number: int | None = None,
    entered_by: User | None = None,
    entered_by_name: str = "",
    entered_seat: int | None = None,
    table_link: bool = False,
    entered_phone: str = "",
    rows: bool = True,
    locked: bool = False,
) -> HandRecorded:
    """Append `hand` to `game`, entered by the account `entered_by` or a phone holding the
    table link (`table_link`), as the policy allows (NotAllowed); neither: a trusted caller.

    - A game that is over, a closed round or an ended night takes no hand (GameClosed); a
      tournament table that played its round's hands neither (RoundOver).
    - A key whose hand was taken back stays spent: HandUndone names who and when.

    - The same `idempotency_key` twice returns the hand stored the first time (created=False).
    - `number`, when given, is the hand number the phone believes comes next; if that number is
      taken already, HandConflict carries the stored hand.
    - A hand the engine refuses raises HandError and writes nothing.

    `rows=False`: the hands so far are read as values, not Hand rows, and the answer's
    `hands` is left empty (for a caller that shows none of them).

    `locked=True`: `game` is the row the caller read with `games_locked` (and `locked_check`)
    in the transaction it holds open; the hand is written in that transaction, and a key used
    already raises IntegrityError (the caller's transaction is broken: it calls again without
    `locked` once it has rolled back, and the first hand with that key is answered).
    """
    key = idempotency_key or uuid.uuid4()
    append = functools.partial(
        _hand_append,
        hand=hand,
        key=key,
        number=number,
        entered_by=entered_by,
        entered_by_name=entered_by_name,
        entered_seat=entered_seat,
        table_link=table_link,
        entered_phone=entered_phone,
        rows=rows,
    )
    if locked:
        if not transaction.get_connection().in_atomic_block or not hasattr(game, "_key_asked"):
            # Only a read by `games_locked` carries the season's closing and the lock.
            raise transaction.TransactionManagementError("a locked game is read and locked first")
        locked_check(game)
        return append(game)
    try:
        with transaction.atomic():
            return append(game_locked(game.pk, key, by=entered_by))
    except IntegrityError:
        # The key was used already: by another game, or by a request that raced past the read
        # of the hands (possible only without a game lock). The first one won; hand its row
        # back.
        existing = Hand.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        if existing.game_id != game.pk:
            raise HandError(
                existing.number, "idempotency_key", _("this key belongs to another game")
            ) from None
        return HandRecorded(existing, False, game_rescored(existing.game))


def _hand_append(
    locked: Game,
    *,
    hand: HandInput,
    key: uuid.UUID,
    number: int | None,
    entered_by: User | None,
    entered_by_name: str,
    entered_seat: int | None,
    table_link: bool,
    entered_phone: str,
    rows: bool,
) -> HandRecorded:
    """`hand_record` on the locked game, in the transaction around it."""
    # One read gives both the hands to score against and a repeated key of this game; a key
    # used by another game is caught by its unique constraint below.
    so_far_rows = hands_so_far(locked, rows=rows)
    inputs = [hand_input(row.number, row.record) for row in so_far_rows]
    rules = locked.rules_value
    for row in so_far_rows:
        if row.idempotency_key == key:
            score = game_score(rules, inputs, locked.first_dealer)
            stored = hand_row(locked, row)
            return HandRecorded(stored, False, score, tuple(so_far_rows) if rows else ())
    spent = key_spent_of(locked, key)
    if spent is not None:
        raise undone_error(spent)
    next_number = len(inputs) + 1
    if number is not None and number != next_number:
        taken = next((row for row in so_far_rows if row.number == number), None)
        if taken is not None:
            raise HandConflict(hand_row(locked, taken))
    so_far = game_score(rules, inputs, locked.first_dealer)
    now = game_now_of(locked, place_of(locked, so_far), so_far_rows)
    actor = actor_locked(locked, entered_by, table_link=table_link)
    policy_check(actor, HAND_ENTER, game_facts(locked, now))
    if number is not None and number != next_number:
        raise HandError(
            number, "number", _("the next hand is hand %(next)s") % {"next": next_number}
        )
    # The game so far plus this hand: the engine scores only the new hand.
    score = game_play(so_far, hand)
    scored = score.hands[-1]
    stored = Hand(
        game=locked,
        number=next_number,
        idempotency_key=key,
        entered_by=entered_by,
        entered_by_name=entered_by_name[:80],
        entered_seat=entered_seat,
        entered_phone=entered_phone[:43],
        **hand_fields(hand, scored),
    )
    trace = version_keep(
        locked,
        next_number,
        HandAction.ENTER,
        None,
        stored.record,
        entered_by,
        entered_by_name,
        save=False,
    )
    changed = score_apply(locked, score, save=False)
    # The hand, its trace and the game's totals: one statement on PostgreSQL, each compiled
    # once per process (a submit's hottest writes).
    rows_insert_then_update((stored, trace), locked, SCORE_FIELDS)
    if changed:
        game_result_changed.send(sender=Game, game=locked)
    return HandRecorded(stored, True, score, (*so_far_rows, stored) if rows else ())


@transaction.atomic
def hand_correct(
    *,
    game: Game,
    number: int,
    hand: HandInput,
    by: User | None = None,
    by_name: str = "",
    reason: str = "",
) -> GameScore:
    """Replace hand `number` and re-score the game. Later hands are validated again; if the
    correction makes any of them impossible, HandError names it and nothing changes.

    `by` must hold the correction power (the policy's HAND_CORRECT); `by=None` is a trusted
    caller (import, management commands) and may correct only a game that is not over. A game
    that is over (or whose round or night is) is corrected only by a scorer, director or owner,
    with a `reason` kept in the hand's history (NotAllowed, ReasonMissing)."""
    locked = game_locked(game.pk, by=by)
    now = game_now_of(locked, place_of(locked))
    policy_check(actor_locked(locked, by), HAND_CORRECT, game_facts(locked, now))
    reason = " ".join(reason.split())[:200]
    if now.reason_needed and not reason:
        raise ReasonMissing(
            _("Say why this hand of a game that is over is corrected."), field="reason"
        )
    stored = list(locked.hands.order_by("number"))
    if not 1 <= number <= len(stored):
        raise HandError(number, "number", _("there is no such hand in this game"))
    inputs = [h.as_input() for h in stored]
    inputs[number - 1] = hand
    score = game_score(locked.rules_value, inputs, locked.first_dealer)
    target = stored[number - 1]
    before = target.record
    for field, value in hand_fields(hand, score.hands[number - 1]).items():
        setattr(target, field, value)
    # A corrected hand must be confirmed again.
    target.confirmed_at = None
    target.confirmed_by_name = ""
    target.save()
    # Dealers of later hands may move when a hand becomes (or stops being) a throw-in.
    for later, scored in zip(stored[number:], score.hands[number:], strict=True):
        if later.dealer != scored.dealer:
            later.dealer = scored.dealer
            if "dealer" in later.record:
                later.record = {**later.record, "dealer": scored.dealer}
            later.save(update_fields=["dealer", "record"])
    version_keep(
        locked, number, HandAction.CORRECT, before, target.record, by, by_name, reason=reason
    )
    score_apply(locked, score)
    return score


@transaction.atomic
def hand_undo(
    *, game: Game, by: User | None = None, by_name: str = "", table_link: bool = False
) -> GameScore:
    """Remove the last hand of the game (kept in the version history; its idempotency key stays
    spent), by the account `by` or a phone holding the table link, as the policy allows.
    Refused (GameClosed) once the game is over or its round or night closed, and
    (HandConfirmed) when the other side confirmed the hand: a correction changes those."""
    locked = game_locked(game.pk, by=by)
    last = locked.hands.order_by("-number").first()
    now = game_now_of(locked, place_of(locked), [last] if last else [])
    if last is not None:
        now = dataclasses.replace(now, hands=last.number)
    actor = actor_locked(locked, by, table_link=table_link)
    policy_check(actor, HAND_UNDO, game_facts(locked, now))
    assert last is not None  # the policy refuses an undo with no hand ("nothing")
    version_keep(locked, last.number, HandAction.UNDO, last.record, None, by, by_name)
    SpentKey.objects.create(
        key=last.idempotency_key, game=locked, number=last.number, by_name=by_name[:80]
    )
    last.delete()
    score = game_rescored(locked)
    score_apply(locked, score)
    return score
