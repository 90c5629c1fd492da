"""Writes that touch games and hands. Each runs in one transaction, holds the game row locked, and
validates through the rules engine against the hands so far: a refused hand changes nothing.

Scores are never computed here: `game_score` from the engine is the only arithmetic.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.models import Club, Player, Season
from scorecards.models import Game, GameStatus, Hand, HandAction, HandVersion, Seat
from scorecards.rules import (
    GameScore,
    HandError,
    HandInput,
    HandScore,
    RecordError,
    Rules,
    game_score,
)
from scorecards.rules.scoring import first_dealer_check


class HandConflict(Exception):
    """Another phone entered this hand number first. Carries the hand that is already there."""

    def __init__(self, existing: Hand) -> None:
        self.existing = existing
        who = existing.entered_by_name or _("another phone")
        super().__init__(
            _("hand %(number)s was already entered by %(who)s")
            % {"number": existing.number, "who": who}
        )


@dataclass(frozen=True)
class HandRecorded:
    hand: Hand
    created: bool  # False when the idempotency key had been seen: nothing was written
    score: GameScore
    # Every hand of the game after the call, in order (the sheet renders from these without
    # reading them again).
    hands: tuple[Hand, ...] = ()


def _locked_game(game_id: int) -> Game:
    # select_for_update serialises writers per game on PostgreSQL; on SQLite the IMMEDIATE
    # transaction already holds the database write lock.
    return Game.objects.select_for_update().get(pk=game_id)


def _hand_inputs(game: Game) -> list[HandInput]:
    return [hand.as_input() for hand in game.hands.order_by("number")]


def _apply_score(game: Game, score: GameScore) -> None:
    """Copy the engine's result into the cached fields of the game row (and save it)."""
    was_finished = game.status == GameStatus.FINISHED
    game.scores = list(score.scores)
    game.target = score.target
    game.next_dealer = score.next_dealer
    game.hand_count = len(score.hands)
    if score.finished:
        if game.status != GameStatus.FINISHED:
            game.finished_at = timezone.now()
        game.status = GameStatus.FINISHED
        game.winner = score.winner
        game.finish_reason = score.reason or ""
    else:
        game.status = GameStatus.IN_PROGRESS
        game.winner = None
        game.finish_reason = ""
        game.finished_at = None
    game.save(
        update_fields=[
            "scores",
            "target",
            "next_dealer",
            "hand_count",
            "status",
            "winner",
            "finish_reason",
            "finished_at",
            "updated_at",
        ]
    )
    # Standings and ratings: a game that finishes, or a finished game that changes (a hand
    # corrected or undone), queues their rebuild once this transaction commits.
    if was_finished or score.finished:
        from leagues.services import derived_data_queue

        derived_data_queue(game=game)


def _version_keep(
    game: Game,
    number: int,
    action: str,
    before: dict | None,
    after: dict | None,
    by: AbstractBaseUser | None,
    by_name: str,
) -> None:
    """Keep the trace of one change to hand `number`: who, what, before and after."""
    HandVersion.objects.create(
        game=game,
        number=number,
        action=action,
        before=before,
        after=after,
        by=by,
        by_name=by_name[:80],
    )


def _hand_fields(hand: HandInput, scored: HandScore) -> dict:
    """Columns of a Hand row: the record as entered plus the engine's reading of it."""
    return {
        "record": hand.to_dict(),
        "dealer": scored.dealer,
        "thrown_in": scored.thrown_in,
        "bidder": None if scored.thrown_in else scored.bidder,
        "bid": None if scored.thrown_in else scored.bid,
        "kind": "" if scored.thrown_in else scored.kind,
        "tricks": None if scored.thrown_in else list(scored.tricks),
        "five_hearts": hand.five_hearts,
        "three_spades": hand.three_spades,
    }


def game_rescore(*, game: Game) -> GameScore:
    """Re-derive a game's cached totals from its stored hands (idempotent)."""
    with transaction.atomic():
        game = _locked_game(game.pk)
        score = game_score(game.rules_value, _hand_inputs(game), game.first_dealer)
        _apply_score(game, score)
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
    created_by: AbstractBaseUser | None = None,
) -> Game:
    """Start a game with `seats` (players of `club`, or plain names for a quick game) clockwise
    from seat 0. Raises RecordError naming `seats` or `first_dealer` on a bad table."""
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
    names = [(seat.name if isinstance(seat, Player) else str(seat)).strip() for seat in seats]
    if any(not name for name in names):
        raise RecordError("seats", _("every seat needs a name"))
    game = Game.objects.create(
        club=club,
        season=season,
        table_label=table_label,
        rules=rules.as_dict(),
        first_dealer=first_dealer,
        created_by=created_by,
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
    _apply_score(game, game_score(rules, [], first_dealer))
    return game


def hand_record(
    *,
    game: Game,
    hand: HandInput,
    idempotency_key: uuid.UUID | None = None,
    number: int | None = None,
    entered_by: AbstractBaseUser | None = None,
    entered_by_name: str = "",
) -> HandRecorded:
    """Append `hand` to `game`.

    - The same `idempotency_key` twice returns the hand stored the first time (created=False).
    - `number`, when given, is the hand number the phone believes comes next; if that number is
      taken already, HandConflict carries the stored hand.
    - A hand the engine refuses raises HandError and writes nothing.
    """
    key = idempotency_key or uuid.uuid4()
    try:
        with transaction.atomic():
            locked = _locked_game(game.pk)
            # One read gives both the hands to score against and a repeated key of this game;
            # a key used by another game is caught by its unique constraint below.
            rows = list(locked.hands.order_by("number"))
            inputs = [row.as_input() for row in rows]
            for row in rows:
                if row.idempotency_key == key:
                    score = game_score(locked.rules_value, inputs, locked.first_dealer)
                    return HandRecorded(row, False, score, tuple(rows))
            next_number = len(inputs) + 1
            if number is not None and number != next_number:
                taken = next((row for row in rows if row.number == number), None)
                if taken is not None:
                    raise HandConflict(taken)
                raise HandError(
                    number, "number", _("the next hand is hand %(next)s") % {"next": next_number}
                )
            score = game_score(locked.rules_value, [*inputs, hand], locked.first_dealer)
            scored = score.hands[-1]
            stored = Hand.objects.create(
                game=locked,
                number=next_number,
                idempotency_key=key,
                entered_by=entered_by,
                entered_by_name=entered_by_name[:80],
                **_hand_fields(hand, scored),
            )
            _version_keep(
                locked,
                next_number,
                HandAction.ENTER,
                None,
                stored.record,
                entered_by,
                entered_by_name,
            )
            _apply_score(locked, score)
    except IntegrityError:
        # The key was used already: by another game, or by a request that raced past the read
        # above (possible only without a game lock). The first one won; hand its row back.
        existing = Hand.objects.filter(idempotency_key=key).first()
        if existing is None:
            raise
        if existing.game_id != game.pk:
            raise HandError(
                existing.number, "idempotency_key", _("this key belongs to another game")
            ) from None
        return HandRecorded(existing, False, _score(existing.game))
    return HandRecorded(stored, True, score, (*rows, stored))


def _score(game: Game) -> GameScore:
    return game_score(game.rules_value, _hand_inputs(game), game.first_dealer)


@transaction.atomic
def hand_correct(
    *,
    game: Game,
    number: int,
    hand: HandInput,
    by: AbstractBaseUser | None = None,
    by_name: str = "",
) -> GameScore:
    """Replace hand `number` and re-score the game. Later hands are validated again; if the
    correction makes any of them impossible, HandError names it and nothing changes."""
    locked = _locked_game(game.pk)
    stored = list(locked.hands.order_by("number"))
    if not 1 <= number <= len(stored):
        raise HandError(number, "number", _("there is no such hand in this game"))
    inputs = [h.as_input() for h in stored]
    inputs[number - 1] = hand
    score = game_score(locked.rules_value, inputs, locked.first_dealer)
    target = stored[number - 1]
    before = target.record
    for field, value in _hand_fields(hand, score.hands[number - 1]).items():
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
    _version_keep(locked, number, HandAction.CORRECT, before, target.record, by, by_name)
    _apply_score(locked, score)
    return score


@transaction.atomic
def hand_undo(*, game: Game, by: AbstractBaseUser | None = None, by_name: str = "") -> GameScore:
    """Remove the last hand of the game (kept in the version history)."""
    locked = _locked_game(game.pk)
    last = locked.hands.order_by("-number").first()
    if last is None:
        raise HandError(1, "number", _("there is no hand to undo"))
    _version_keep(locked, last.number, HandAction.UNDO, last.record, None, by, by_name)
    last.delete()
    score = _score(locked)
    _apply_score(locked, score)
    return score


def game_token_issue(*, game: Game) -> str:
    """Give the game a new table token (the old link stops working) and return it."""
    token = secrets.token_urlsafe(24)
    Game.objects.filter(pk=game.pk).update(table_token=token)
    game.table_token = token
    return token


def game_token_revoke(*, game: Game) -> None:
    """Stop the table link from working; phones that joined with it lose access too."""
    Game.objects.filter(pk=game.pk).update(table_token=None)
    game.table_token = None


@transaction.atomic
def hand_confirm(
    *, game: Game, number: int, by: AbstractBaseUser | None = None, by_name: str = ""
) -> Hand:
    """Mark hand `number` confirmed (by a player of the other side, named `by_name`) and keep a
    version of it. Confirming a confirmed hand again changes nothing. HandError if no such
    hand."""
    locked = _locked_game(game.pk)
    hand = locked.hands.filter(number=number).first()
    if hand is None:
        raise HandError(number, "number", _("there is no such hand in this game"))
    if hand.confirmed_at is not None:
        return hand
    hand.confirmed_at = timezone.now()
    hand.confirmed_by_name = by_name[:80]
    hand.save(update_fields=["confirmed_at", "confirmed_by_name"])
    _version_keep(locked, number, HandAction.CONFIRM, hand.record, hand.record, by, by_name)
    # Phones polling the sheet look at updated_at to know something changed.
    Game.objects.filter(pk=locked.pk).update(updated_at=timezone.now())
    if locked.is_finished:
        # Where the club requires confirmation, the last confirmation makes the game count.
        from leagues.services import derived_data_queue

        derived_data_queue(game=locked)
    return hand
