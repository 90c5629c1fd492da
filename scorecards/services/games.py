"""Writes about a game as a whole and the phones at its table: table links, confirmations,
abandoning, deleting, and closing a tournament table with its round (seat claims: `seats`)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.policy import Actor
from leagues.clubs.roles import (
    GAME_ABANDON,
    GAME_DELETE,
    HAND_CONFIRM,
    TABLE_LINK_MANAGE,
)
from scorecards.game_state import game_facts, game_now_of
from scorecards.hooks import game_result_changed, games_deleted
from scorecards.models import (
    FinishReason,
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandVersion,
    Seat,
    SpentKey,
)
from scorecards.rules import (
    HandError,
)
from scorecards.services.refusals import (
    ReasonMissing,
)
from scorecards.services.seats import seat_of
from scorecards.services.state import (
    actor_locked,
    confirm_asked_of,
    game_locked,
    game_rescored,
    game_touch,
    place_of,
    policy_check,
    score_apply,
    undone_error,
    version_keep,
)


def _link_check(game: Game, by: User | None) -> None:
    if by is not None:
        with transaction.atomic():
            locked = game_locked(game.pk, by=by)
            now = game_now_of(locked, None)
            policy_check(actor_locked(locked, by), TABLE_LINK_MANAGE, game_facts(locked, now))


def game_token_issue(*, game: Game, by: User | None = None) -> str:
    """Give the game a new table token (the old link stops working) and return it; `by`, when
    given, must be allowed to manage the link (NotAllowed)."""
    _link_check(game, by)
    token = secrets.token_urlsafe(24)
    Game.objects.filter(pk=game.pk).update(table_token=token)
    game.table_token = token
    return token


def game_token_revoke(*, game: Game, by: User | None = None) -> None:
    """Stop the table link from working; phones that joined with it lose access too."""
    _link_check(game, by)
    Game.objects.filter(pk=game.pk).update(table_token=None)
    game.table_token = None


@transaction.atomic
def hand_confirm(
    *,
    game: Game,
    number: int,
    by: User | None = None,
    phone: str | None = None,
    table_link: bool = False,
) -> Hand:
    """Mark hand `number` confirmed by a real person of the other side and keep a version of it.

    The confirmer is a signed-in member seated in the game (`by`), or a phone that claimed a
    seat earlier (`phone`, see `seat_claim`); who may confirm is the policy's to say (the other
    side from the one that entered the hand; either side when nobody seated entered it; never
    on an abandoned game, after the night or in a closed season), NotAllowed / GameClosed
    otherwise. Confirming a confirmed hand again changes nothing. HandUndone when the hand was
    taken back, HandError if there never was such a hand."""
    locked = game_locked(game.pk, by=by)
    hand = locked.hands.filter(number=number).first()
    if hand is None:
        spent = SpentKey.objects.filter(game=locked, number=number).order_by("-at", "-pk").first()
        if spent is not None:
            raise undone_error(spent)
        raise HandError(number, "number", _("there is no such hand in this game"))
    if hand.confirmed_at is not None:
        return hand
    seat = seat_of(locked, user=by, phone=phone)
    now = game_now_of(locked, place_of(locked), confirm_asked=confirm_asked_of(locked))
    # A confirmation always comes from a person: a trusted caller names one too.
    actor = actor_locked(locked, by, phone=phone, table_link=table_link, seat=seat)
    policy_check(actor or Actor(seat=seat), HAND_CONFIRM, game_facts(locked, now, hand=hand))
    assert seat is not None  # the policy refuses a confirmation from no seat
    name = Seat.objects.filter(game=locked, seat=seat).values_list("name", flat=True).first()
    hand.confirmed_at = timezone.now()
    hand.confirmed_by_name = (name or "")[:80]
    # The seat behind the confirmation: the hand's history shows the claim (or the account's
    # own seat) it came from.
    hand.confirmed_seat = seat
    hand.save(update_fields=["confirmed_at", "confirmed_by_name", "confirmed_seat"])
    version_keep(
        locked, number, HandAction.CONFIRM, hand.record, hand.record, by, hand.confirmed_by_name
    )
    # Phones polling the sheet look at updated_at (and its cached copy) to see a change.
    game_touch(locked)
    if locked.is_finished:
        # Where the club requires confirmation, the last confirmation makes the game count.
        game_result_changed.send(sender=Game, game=locked)
    return hand


@transaction.atomic
def game_abandon(*, game: Game, by: User | None, reason: str) -> Game:
    """Stop a game that will not be finished, with a reason (kept, shown on the sheet). An
    abandoned game never counts for standings and takes no more hands. Only a game in progress;
    NotAllowed without the power, ReasonMissing without a reason."""
    locked = game_locked(game.pk, by=by)
    now = game_now_of(locked, place_of(locked))
    policy_check(actor_locked(locked, by) or Actor(), GAME_ABANDON, game_facts(locked, now))
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
    locked = game_locked(game.pk, by=by)
    had = locked.hands.exists() or SpentKey.objects.filter(game=locked).exists()
    now = game_now_of(locked, place_of(locked), had_hands=had)
    policy_check(actor_locked(locked, by) or Actor(), GAME_DELETE, game_facts(locked, now))
    HandVersion.objects.filter(game=locked).delete()
    locked.delete()


def games_delete(*, games: Iterable[Game]) -> int:
    """Delete games whatever they hold (the admin's delete) and announce it
    (`scorecards.hooks.games_deleted`, just before they go), so the standings and ratings they
    counted in are updated without them. Returns how many games were deleted."""
    ids = [game.pk for game in games]
    with transaction.atomic():
        # Not locked: a receiver first locks what it keeps of them (the standings' snapshot,
        # which their writers lock before the games), and only then do the games go.
        rows = list(
            Game.objects.filter(pk__in=ids).order_by("pk").values_list("pk", "season_id", "club_id")
        )
        season_games: dict[int, list[int]] = {}
        club_games: dict[int, list[int]] = {}
        for pk, season, club in rows:
            if season is not None:
                season_games.setdefault(season, []).append(pk)
            if club is not None:
                club_games.setdefault(club, []).append(pk)
        games_deleted.send(sender=Game, season_games=season_games, club_games=club_games)
        Game.objects.filter(pk__in=ids).delete()
    return len(rows)


@transaction.atomic
def game_abandon_by_night(*, game: Game, reason: str) -> Game:
    """Its tournament night was called off: a table game still in progress is abandoned with
    `reason`. The night's own write (the tournaments room checked who asks and whether the
    night may be cancelled); a game already over is left as it is."""
    locked = game_locked(game.pk)
    if locked.status != GameStatus.IN_PROGRESS:
        return locked
    locked.status = GameStatus.ABANDONED
    locked.abandon_reason = " ".join(reason.split())[:200]
    locked.finished_at = timezone.now()
    locked.winner = None
    locked.finish_reason = ""
    fields = ["status", "abandon_reason", "finished_at", "winner", "finish_reason", "updated_at"]
    locked.save(update_fields=fields)
    return locked


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
