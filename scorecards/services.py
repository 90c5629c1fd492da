"""Writes that touch games and hands. Each runs in one transaction, holds the game row locked, and
validates through the rules engine against the hands so far: a refused hand changes nothing.

Scores are never computed here: `game_score` from the engine is the only arithmetic.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Exists
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import HAND_CORRECT_ANY, role_can
from scorecards.hooks import game_result_changed, games_deleted, place_annotations
from scorecards.models import (
    FinishReason,
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandVersion,
    Seat,
    SeatClaim,
    SpentKey,
)
from scorecards.rules import (
    GameScore,
    HandError,
    HandInput,
    HandScore,
    RecordError,
    Rules,
    game_score,
)
from scorecards.rules.habits import game_habits_parse
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


class HandRefused(Exception):
    """A write the record refuses in its present state, or to this person. `status` is the
    machine word of the JSON answer, `http_status` its status code, `str()` the sentence shown
    to the player (what happened and what to do next)."""

    status = "refused"
    http_status = 409

    def __init__(self, message: str, **details: object) -> None:
        self.message = message
        self.details = details
        super().__init__(message)


class GameClosed(HandRefused):
    """The game is over (finished or abandoned), its round closed or its night ended: only a
    correction changes its hands."""

    status = "closed"


class RoundOver(GameClosed):
    """The table has played every hand of its tournament round: no more hands are entered."""

    status = "round_over"


class HandUndone(HandRefused):
    """The hand was taken back (its idempotency key stays spent)."""

    status = "undone"


class HandConfirmed(HandRefused):
    """The hand was confirmed by the other side: only a correction changes it now."""

    status = "confirmed"


class NotAllowed(HandRefused):
    """This person may not do this (no power, not seated on the right side)."""

    status = "forbidden"
    http_status = 403


class ReasonMissing(HandRefused):
    """A correction of a game that is over, or an abandon, needs a reason."""

    status = "invalid"
    http_status = 422


@dataclass(frozen=True)
class HandRecorded:
    hand: Hand
    created: bool  # False when the idempotency key had been seen: nothing was written
    score: GameScore
    # Every hand of the game after the call, in order (the sheet renders from these without
    # reading them again).
    hands: tuple[Hand, ...] = ()


def _locked_game(game_id: int, key: uuid.UUID | None = None) -> Game:
    # select_for_update serialises writers per game on PostgreSQL; on SQLite the IMMEDIATE
    # transaction already holds the database write lock. Where the game stands as a tournament
    # table (scorecards.hooks) and whether `key` is spent come in the same statement, so
    # finality costs no extra query.
    games = Game.objects.select_for_update(of=("self",)).annotate(**place_annotations())
    if key is not None:
        games = games.annotate(_key_spent=Exists(SpentKey.objects.filter(key=key)))
    return games.get(pk=game_id)


def _hand_inputs(game: Game) -> list[HandInput]:
    return [hand.as_input() for hand in game.hands.order_by("number")]


def _apply_score(game: Game, score: GameScore) -> None:
    """Copy the engine's result into the cached fields of the game row (and save it)."""
    was_finished = game.status == GameStatus.FINISHED
    game.scores = list(score.scores)
    game.target = score.target
    game.next_dealer = score.next_dealer
    game.hand_count = len(score.hands)
    if game.status == GameStatus.ABANDONED:
        # A correction of an abandoned game keeps it abandoned: only the totals move.
        pass
    elif game.finish_reason == FinishReason.ROUND and not score.finished:
        # Closed by its tournament round: the round, not the engine, ended it.
        top = max(score.scores)
        leaders = [side for side, total in enumerate(score.scores) if total == top]
        game.winner = leaders[0] if len(leaders) == 1 else None
    elif score.finished:
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
    if was_finished or score.finished or game.status != GameStatus.IN_PROGRESS:
        game_result_changed.send(sender=Game, game=game)


def _version_keep(
    game: Game,
    number: int,
    action: str,
    before: dict | None,
    after: dict | None,
    by: AbstractBaseUser | None,
    by_name: str,
    *,
    reason: str = "",
) -> None:
    """Keep the trace of one change to hand `number`: who, what, before and after (and why)."""
    HandVersion.objects.create(
        game=game,
        number=number,
        action=action,
        before=before,
        after=after,
        by=by,
        by_name=by_name[:80],
        reason=reason[:200],
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
        # The engine's reading: a side, or None when nobody took the card (or none was played).
        "five_hearts": None if scored.thrown_in else scored.five_hearts,
        "three_spades": None if scored.thrown_in else scored.three_spades,
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
    habits: Mapping | None = None,
) -> Game:
    """Start a game with `seats` (players of `club`, or plain names for a quick game) clockwise
    from seat 0, and its table `habits` as a record's top level writes them (`passing`, `kitty`,
    `pot`). Raises RecordError naming `seats`, `first_dealer` or the habit at fault."""
    habits = game_habits_parse(habits or {})
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
        passing=habits.get("passing", ""),
        kitty=habits.get("kitty", ""),
        pot_per_set=habits["pot"].per_set if "pot" in habits else None,
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
    entered_seat: int | None = None,
) -> HandRecorded:
    """Append `hand` to `game`.

    - A game that is over, a closed round or an ended night takes no hand (GameClosed); a
      tournament table that played its round's hands neither (RoundOver).
    - A key whose hand was taken back stays spent: HandUndone names who and when.

    - The same `idempotency_key` twice returns the hand stored the first time (created=False).
    - `number`, when given, is the hand number the phone believes comes next; if that number is
      taken already, HandConflict carries the stored hand.
    - A hand the engine refuses raises HandError and writes nothing.
    """
    key = idempotency_key or uuid.uuid4()
    try:
        with transaction.atomic():
            locked = _locked_game(game.pk, key)
            # One read gives both the hands to score against and a repeated key of this game;
            # a key used by another game is caught by its unique constraint below.
            rows = list(locked.hands.order_by("number"))
            inputs = [row.as_input() for row in rows]
            for row in rows:
                if row.idempotency_key == key:
                    score = game_score(locked.rules_value, inputs, locked.first_dealer)
                    return HandRecorded(row, False, score, tuple(rows))
            if locked._key_spent:
                raise _undone_error(_spent(key))
            next_number = len(inputs) + 1
            if number is not None and number != next_number:
                taken = next((row for row in rows if row.number == number), None)
                if taken is not None:
                    raise HandConflict(taken)
            so_far = game_score(locked.rules_value, inputs, locked.first_dealer)
            place = _place(locked, so_far)
            closed = _closed_message(locked, place)
            if closed:
                raise GameClosed(closed)
            if place is not None and place.round_over:
                raise RoundOver(place.over_message)
            if number is not None and number != next_number:
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
                entered_seat=entered_seat,
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


def _club_role(game: Game, user: AbstractBaseUser | None) -> str | None:
    if user is None or game.club_id is None:
        return None
    return (
        Membership.objects.filter(club_id=game.club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def game_can_correct(game: Game, user: AbstractBaseUser | None, *, over: bool = False) -> bool:
    """Whether `user` holds the correction power over `game`: a scorer, director or owner of its
    club; the account that started it while it is a member (and while the game is not over);
    the account that started a quick game (no club). Ex-members hold no power."""
    if user is None:
        return False
    if game.club_id is None:
        return game.created_by_id == user.pk
    role = _club_role(game, user)
    if role is None:
        return False
    return role_can(role, HAND_CORRECT_ANY) or (not over and game.created_by_id == user.pk)


def _closed_message(game: Game, place: object | None) -> str:
    """Why the hands of `game` are final (empty when they are not)."""
    if place is not None and place.night_over:
        return _("This night is over: ask the director to correct a hand.")
    if place is not None and place.round_closed:
        return _("This round is over: ask the director to correct a hand.")
    if game.status == GameStatus.ABANDONED:
        return _("This game was abandoned: ask a scorer to correct it.")
    if game.status == GameStatus.FINISHED:
        return _("This game is over: ask a scorer to correct it.")
    return ""


def _place(game: Game, score: GameScore | None = None) -> object | None:
    from scorecards.selectors import table_place

    return table_place(game, score)


def _spent(key: uuid.UUID) -> SpentKey | None:
    return SpentKey.objects.filter(key=key).first()


def _undone_error(spent: SpentKey) -> HandUndone:
    who = spent.by_name or _("another phone")
    at = timezone.localtime(spent.at)
    return HandUndone(
        _("Hand %(number)s was taken back by %(who)s at %(time)s: it was not entered again.")
        % {"number": spent.number, "who": who, "time": at.strftime("%H:%M")},
        number=spent.number,
        undone_by=spent.by_name,
        undone_at=spent.at.isoformat(),
    )


@transaction.atomic
def hand_correct(
    *,
    game: Game,
    number: int,
    hand: HandInput,
    by: AbstractBaseUser | None = None,
    by_name: str = "",
    reason: str = "",
) -> GameScore:
    """Replace hand `number` and re-score the game. Later hands are validated again; if the
    correction makes any of them impossible, HandError names it and nothing changes.

    `by` must hold the correction power (`game_can_correct`); `by=None` is a trusted caller
    (import, management commands) and may correct only a game that is not over. A game that is
    over (or whose round or night is) is corrected only by a scorer, director or owner, with a
    `reason` kept in the hand's history (NotAllowed, ReasonMissing)."""
    locked = _locked_game(game.pk)
    closed = _closed_message(locked, _place(locked))
    reason = " ".join(reason.split())[:200]
    if closed:
        if not game_can_correct(locked, by, over=True):
            raise NotAllowed(closed)
        if not reason:
            raise ReasonMissing(
                _("Say why this hand of a game that is over is corrected."), field="reason"
            )
    elif by is not None and not game_can_correct(locked, by):
        raise NotAllowed(_("Only a scorer of the club corrects hands: ask one."))
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
    _version_keep(
        locked, number, HandAction.CORRECT, before, target.record, by, by_name, reason=reason
    )
    _apply_score(locked, score)
    return score


@transaction.atomic
def hand_undo(*, game: Game, by: AbstractBaseUser | None = None, by_name: str = "") -> GameScore:
    """Remove the last hand of the game (kept in the version history; its idempotency key stays
    spent). Refused (GameClosed) once the game is over or its round or night closed, and
    (HandConfirmed) when the other side confirmed the hand: a correction changes those."""
    locked = _locked_game(game.pk)
    closed = _closed_message(locked, _place(locked))
    if closed:
        raise GameClosed(closed)
    last = locked.hands.order_by("-number").first()
    if last is None:
        raise HandError(1, "number", _("there is no hand to undo"))
    if last.confirmed_at is not None:
        raise HandConfirmed(
            _("Hand %(number)s was confirmed by %(who)s: ask a scorer to correct it.")
            % {"number": last.number, "who": last.confirmed_by_name or _("the other side")},
            number=last.number,
        )
    _version_keep(locked, last.number, HandAction.UNDO, last.record, None, by, by_name)
    SpentKey.objects.create(
        key=last.idempotency_key, game=locked, number=last.number, by_name=by_name[:80]
    )
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


def seat_of(
    game: Game, *, user: AbstractBaseUser | None = None, phone: str | None = None
) -> int | None:
    """The seat the server knows holds this person: the seat of the club player linked to the
    signed-in `user` (while a member), else the seat this `phone` claimed. Never a seat the
    request names."""
    if user is not None and game.club_id is not None:
        seat = (
            Seat.objects.filter(game=game, player__user_id=user.pk)
            .filter(player__club__memberships__user_id=user.pk)
            .values_list("seat", flat=True)
            .first()
        )
        if seat is not None:
            return seat
    if phone:
        return (
            SeatClaim.objects.filter(game=game, phone=phone).values_list("seat", flat=True).first()
        )
    return None


def seat_claim(
    *, game: Game, seat: int, phone: str, user: AbstractBaseUser | None = None
) -> SeatClaim | None:
    """This phone says `seat` holds it. Kept on the server: one seat per phone and one phone per
    seat for the whole game, so a phone cannot move to the other side to confirm its own hand.
    Returns the phone's claim (the earlier one if it had one), None if another phone holds
    `seat` or the seat does not exist; GameClosed once its tournament night is over."""
    if not phone or not 0 <= seat < game.rules_value.seats:
        return None
    # A seat is claimed to confirm hands, which is possible until the night is over (the last
    # hand of a game is confirmed after it finished the game).
    place = _place(game)
    if place is not None and place.night_over:
        raise GameClosed(_closed_message(game, place))
    mine = SeatClaim.objects.filter(game=game, phone=phone).first()
    if mine is not None:
        return mine
    try:
        with transaction.atomic():
            return SeatClaim.objects.create(game=game, seat=seat, phone=phone, user=user)
    except IntegrityError:
        # The seat is another phone's (or this phone raced itself): the first claim stands.
        return SeatClaim.objects.filter(game=game, phone=phone).first()


@transaction.atomic
def hand_confirm(
    *,
    game: Game,
    number: int,
    by: AbstractBaseUser | None = None,
    phone: str | None = None,
) -> Hand:
    """Mark hand `number` confirmed by a real person of the other side and keep a version of it.

    The confirmer is a signed-in member seated in the game (`by`), or a phone that claimed a
    seat earlier (`phone`, see `seat_claim`); the side that entered the hand (or, when nobody
    seated entered it, the bidder's side) cannot confirm it (NotAllowed). Confirming a confirmed
    hand again changes nothing. HandUndone when the hand was taken back, HandError if there
    never was such a hand, GameClosed once the night is over."""
    locked = _locked_game(game.pk)
    hand = locked.hands.filter(number=number).first()
    if hand is None:
        spent = SpentKey.objects.filter(game=locked, number=number).order_by("-at", "-pk").first()
        if spent is not None:
            raise _undone_error(spent)
        raise HandError(number, "number", _("there is no such hand in this game"))
    if hand.confirmed_at is not None:
        return hand
    place = _place(locked)
    if place is not None and place.night_over:
        raise GameClosed(_closed_message(locked, place))
    rules = locked.rules_value
    seat = seat_of(locked, user=by, phone=phone)
    if seat is None:
        raise NotAllowed(
            _(
                "Only a player of the other side confirms a hand: choose who holds this phone "
                "when you enter a hand, or sign in."
            )
        )
    against = hand.entered_seat if hand.entered_seat is not None else hand.bidder
    if against is not None and rules.side_of(seat) == rules.side_of(against):
        raise NotAllowed(_("Your side entered this hand: a player of the other side confirms it."))
    if by is not None and hand.entered_by_id == by.pk:
        raise NotAllowed(_("You entered this hand: a player of the other side confirms it."))
    name = Seat.objects.filter(game=locked, seat=seat).values_list("name", flat=True).first()
    hand.confirmed_at = timezone.now()
    hand.confirmed_by_name = (name or "")[:80]
    hand.save(update_fields=["confirmed_at", "confirmed_by_name"])
    _version_keep(
        locked, number, HandAction.CONFIRM, hand.record, hand.record, by, hand.confirmed_by_name
    )
    # Phones polling the sheet look at updated_at to know something changed.
    Game.objects.filter(pk=locked.pk).update(updated_at=timezone.now())
    if locked.is_finished:
        # Where the club requires confirmation, the last confirmation makes the game count.
        game_result_changed.send(sender=Game, game=locked)
    return hand


def _game_power(game: Game, by: AbstractBaseUser | None) -> bool:
    """Abandon or delete: a scorer, director or owner of the club; the starter of a quick game."""
    if by is None:
        return False
    if game.club_id is None:
        return game.created_by_id == by.pk
    return role_can(_club_role(game, by), HAND_CORRECT_ANY)


@transaction.atomic
def game_abandon(*, game: Game, by: AbstractBaseUser | None, reason: str) -> Game:
    """Stop a game that will not be finished, with a reason (kept, shown on the sheet). An
    abandoned game never counts for standings and takes no more hands. Only a game in progress;
    NotAllowed without the power, ReasonMissing without a reason."""
    locked = _locked_game(game.pk)
    if not _game_power(locked, by):
        raise NotAllowed(_("Only a scorer or a director abandons a game."))
    if locked.status != GameStatus.IN_PROGRESS:
        raise GameClosed(_closed_message(locked, None))
    reason = " ".join(reason.split())[:200]
    if not reason:
        raise ReasonMissing(_("Say why the game is abandoned."), field="reason")
    locked.status = GameStatus.ABANDONED
    locked.abandon_reason = reason
    locked.finished_at = timezone.now()
    locked.winner = None
    locked.finish_reason = ""
    locked.save(
        update_fields=[
            "status",
            "abandon_reason",
            "finished_at",
            "winner",
            "finish_reason",
            "updated_at",
        ]
    )
    return locked


@transaction.atomic
def game_delete(*, game: Game, by: AbstractBaseUser | None) -> None:
    """Delete a game that has no hand (started by mistake). A tournament table is the night's:
    the director closes its round instead. NotAllowed / GameClosed otherwise."""
    locked = _locked_game(game.pk)
    if not _game_power(locked, by):
        raise NotAllowed(_("Only a scorer or a director deletes a game."))
    if locked.hands.exists() or SpentKey.objects.filter(game=locked).exists():
        raise GameClosed(_("This game has hands: abandon it instead, with a reason."))
    if getattr(locked, "_place_table", None) is not None:
        raise GameClosed(_("A table of a tournament night is closed with its round."))
    HandVersion.objects.filter(game=locked).delete()
    locked.delete()


def games_delete(*, games: Iterable[Game]) -> int:
    """Delete games whatever they hold (the admin's delete) and announce it
    (`scorecards.hooks.games_deleted`), so the standings and ratings they counted in are
    rebuilt without them. Returns how many games were deleted."""
    ids = [game.pk for game in games]
    with transaction.atomic():
        rows = list(Game.objects.filter(pk__in=ids).values_list("season_id", "club_id"))
        Game.objects.filter(pk__in=ids).delete()
        games_deleted.send(
            sender=Game,
            season_ids=sorted({season for season, _club in rows if season is not None}),
            club_ids=sorted({club for _season, club in rows if club is not None}),
        )
    return len(rows)


@transaction.atomic
def game_close_by_round(*, game: Game) -> Game:
    """Its tournament round closed: a table game still in progress ends as it stands, finished
    by the round (the leading side wins, none on a tie), or abandoned when no hand was played.
    Idempotent; a game already over is left as it is."""
    locked = _locked_game(game.pk)
    if locked.status != GameStatus.IN_PROGRESS:
        return locked
    if not locked.hands.exists():
        locked.status = GameStatus.ABANDONED
        locked.abandon_reason = _("The round closed before any hand was played.")
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "abandon_reason", "finished_at", "updated_at"])
        return locked
    locked.status = GameStatus.FINISHED
    locked.finish_reason = FinishReason.ROUND
    locked.finished_at = timezone.now()
    _apply_score(locked, _score(locked))
    return locked
