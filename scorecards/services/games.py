"""Writes about a game as a whole and the phones at its table: table links, seat claims,
confirmations, abandoning, deleting, and closing a tournament table with its round."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorecards.hooks import game_result_changed, games_deleted
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
    HandError,
)
from scorecards.services.state import (
    GameClosed,
    NotAllowed,
    ReasonMissing,
    closed_message,
    game_locked,
    game_power,
    game_rescored,
    hand_confirm_refusal,
    place_of,
    score_apply,
    undone_error,
    version_keep,
)


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
    game: Game,
    *,
    user: User | None = None,
    phone: str | None = None,
    member: bool | None = None,
) -> int | None:
    """The seat the server knows holds this person: the seat of the club player linked to the
    signed-in `user` (while a member), else the seat this `phone` claimed. Never a seat the
    request names. `member` says whether `user` is known to be a member of the game's club
    (None: the database is asked); when known and the game's seats were read with their
    players, the user's seat costs no query (a game's players are its club's)."""
    if user is not None and game.club_id is not None and member is not False:
        seat: int | None
        if member and "seats" in getattr(game, "_prefetched_objects_cache", {}):
            seat = next(
                (
                    row.seat
                    for row in game.seats.all()
                    if row.player is not None and row.player.user_id == user.pk
                ),
                None,
            )
        else:
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


def seat_claim(*, game: Game, seat: int, phone: str, user: User | None = None) -> SeatClaim | None:
    """This phone says `seat` holds it. Kept on the server: one seat per phone and one phone per
    seat for the whole game, so a phone cannot move to the other side to confirm its own hand.
    Returns the phone's claim (the earlier one if it had one), None if another phone holds
    `seat` or the seat does not exist; GameClosed once its tournament night is over."""
    if not phone or not 0 <= seat < game.rules_value.seats:
        return None
    # A seat is claimed to confirm hands, which is possible until the night is over (the last
    # hand of a game is confirmed after it finished the game).
    place = place_of(game)
    if place is not None and place.night_over:
        raise GameClosed(closed_message(game, place))
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
    by: User | None = None,
    phone: str | None = None,
) -> Hand:
    """Mark hand `number` confirmed by a real person of the other side and keep a version of it.

    The confirmer is a signed-in member seated in the game (`by`), or a phone that claimed a
    seat earlier (`phone`, see `seat_claim`); who may confirm is `hand_confirm_refusal`'s to say
    (the other side from the one that entered the hand; either side when nobody seated entered
    it), NotAllowed otherwise. Confirming a confirmed hand again changes nothing. HandUndone
    when the hand was taken back, HandError if there never was such a hand, GameClosed once
    the night is over."""
    locked = game_locked(game.pk)
    hand = locked.hands.filter(number=number).first()
    if hand is None:
        spent = SpentKey.objects.filter(game=locked, number=number).order_by("-at", "-pk").first()
        if spent is not None:
            raise undone_error(spent)
        raise HandError(number, "number", _("there is no such hand in this game"))
    if hand.confirmed_at is not None:
        return hand
    place = place_of(locked)
    if place is not None and place.night_over:
        raise GameClosed(closed_message(locked, place))
    seat = seat_of(locked, user=by, phone=phone)
    refusal = hand_confirm_refusal(
        hand, locked.rules_value, seat=seat, user_id=None if by is None else by.pk
    )
    if refusal or seat is None:  # no seat is always refused
        raise NotAllowed(refusal)
    name = Seat.objects.filter(game=locked, seat=seat).values_list("name", flat=True).first()
    hand.confirmed_at = timezone.now()
    hand.confirmed_by_name = (name or "")[:80]
    hand.save(update_fields=["confirmed_at", "confirmed_by_name"])
    version_keep(
        locked, number, HandAction.CONFIRM, hand.record, hand.record, by, hand.confirmed_by_name
    )
    # Phones polling the sheet look at updated_at to know something changed.
    Game.objects.filter(pk=locked.pk).update(updated_at=timezone.now())
    if locked.is_finished:
        # Where the club requires confirmation, the last confirmation makes the game count.
        game_result_changed.send(sender=Game, game=locked)
    return hand


@transaction.atomic
def game_abandon(*, game: Game, by: User | None, reason: str) -> Game:
    """Stop a game that will not be finished, with a reason (kept, shown on the sheet). An
    abandoned game never counts for standings and takes no more hands. Only a game in progress;
    NotAllowed without the power, ReasonMissing without a reason."""
    locked = game_locked(game.pk)
    if not game_power(locked, by):
        raise NotAllowed(_("Only a scorer or a director abandons a game."))
    if locked.status != GameStatus.IN_PROGRESS:
        raise GameClosed(closed_message(locked, None))
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
def game_delete(*, game: Game, by: User | None) -> None:
    """Delete a game that has no hand (started by mistake). A tournament table is the night's:
    the director closes its round instead. NotAllowed / GameClosed otherwise."""
    locked = game_locked(game.pk)
    if not game_power(locked, by):
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
    locked = game_locked(game.pk)
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
    score_apply(locked, game_rescored(locked))
    return locked
