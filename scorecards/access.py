"""Access to one game: through its club's membership, or for a quick game (no club) through the
account that started it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest

from kaiser_league.query_memo import compiled_once
from leagues.clubs.models import Membership
from leagues.clubs.policy import Actor, Decision, may
from leagues.clubs.policy.games import GameFacts, GameNow, has_power
from leagues.clubs.roles import HAND_CORRECT, HAND_ENTER, VIEW
from scorecards.game_state import game_facts
from scorecards.hooks import place_annotations
from scorecards.models import Game, Seat, SeatClaim
from scorecards.services.state import games_locked

SESSION_TABLE_TOKENS = "table_tokens"  # {str(game_id): token} of table links this browser opened


def table_token_remember(request: HttpRequest, game: Game) -> None:
    """Let this browser use the game's table token from now on (until the token is revoked)."""
    tokens = dict(request.session.get(SESSION_TABLE_TOKENS, {}))
    tokens[str(game.pk)] = game.table_token
    request.session[SESSION_TABLE_TOKENS] = tokens


def _holds_table_token(request: HttpRequest, game: Game) -> bool:
    held = request.session.get(SESSION_TABLE_TOKENS, {}).get(str(game.pk))
    return bool(game.table_token) and held == game.table_token


@dataclass(frozen=True)
class GameAccess:
    game: Game
    membership: Membership | None
    is_starter: bool  # the account that started the game
    via_table_token: bool = False  # a phone at the table, with no account or club role
    user_seat: int | None = None  # the member's own player's seat, when asked for
    user_id: int | None = None  # the signed-in account
    user_claim: int | None = None  # the seat this account claimed (a member's), if any

    def actor(self, seat: int | None = None, phone: str = "") -> Actor:
        """Who asks, for the policy (`seat`: the seat the server knows holds them; `phone`:
        this browser's phone id)."""
        return Actor(
            user_id=self.user_id,
            role=None if self.membership is None else self.membership.role,
            starter=self.is_starter,
            table_link=self.via_table_token,
            seat=seat,
            phone=phone,
        )

    def facts(self, now: GameNow | None = None, **about: Any) -> GameFacts:
        return game_facts(self.game, now or GameNow(), **about)

    def can(self, action: str) -> bool:
        """Whether this person holds the power of `action` over the game, whatever its state
        (the policy's `has_power`: the gate of a page; the state answers with its reason)."""
        return has_power(self.actor(), action, self.facts())

    def may(
        self, action: str, now: GameNow, seat: int | None = None, phone: str = "", **about: Any
    ) -> Decision:
        """The policy's answer for `action` now: what a page offers is what the service takes."""
        return may(self.actor(seat, phone), action, self.facts(now, **about))

    @property
    def can_enter(self) -> bool:
        return self.can(HAND_ENTER)

    @property
    def can_correct(self) -> bool:
        return self.can(HAND_CORRECT)


@dataclass(frozen=True)
class Locking:
    """Read the game for a write, locked in the caller's transaction (`games_locked`), asking
    whether `key` is spent, and with `hands` its hands as values in the same statement (for a
    service called with `rows=False`)."""

    key: uuid.UUID | None = None
    hands: bool = False


def _games_query(
    game_id: int,
    user_id: int | None,
    key: uuid.UUID | None,
    *,
    place: bool,
    user_seat: bool,
    related: bool,
    locking: bool,
    hands: bool = False,
) -> QuerySet[Game]:
    """The query of `_game_with_membership` (the seats left out)."""
    if locking:
        # The write's read of the game, locked, with the role of this same account: the
        # service reads nothing of the game again.
        games = games_locked(key, by_id=user_id, related=related, hands=hands)
    else:
        games = Game.objects.select_related("club", "season") if related else Game.objects.all()
    if place and not locking:
        # Where a tournament table stands and whether its night asks every hand to be
        # confirmed (scorecards.selectors.table_place, game_needs_confirmation), in the same
        # query.
        games = games.annotate(**place_annotations())
    if user_id is not None:
        # The seat this account claimed from any of its phones (one person, one seat).
        claim = SeatClaim.objects.filter(game_id=OuterRef("pk"), user_id=user_id)
        games = games.annotate(_claim=Subquery(claim.order_by("at", "pk").values("seat")[:1]))
        if not locking:
            roles = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id)
            games = games.annotate(_role=Subquery(roles.values("role")[:1]))
        if user_seat:
            # order_by(): a seat's default order joins its game, which one game never needs.
            seat = Seat.objects.filter(game_id=OuterRef("pk"), player__user_id=user_id)
            games = games.annotate(_seat=Subquery(seat.order_by().values("seat")[:1]))
    return games.filter(pk=game_id).order_by()


# Two values of each argument the statement is compiled with (`query_memo.compiled_once`).
_SAMPLES = {
    "game_id": (1, 2),
    "user_id": (1, 2),
    "key": (uuid.UUID(int=1), uuid.UUID(int=2)),
}


def _game_with_membership(
    request: HttpRequest,
    game_id: int,
    seats: bool,
    place: bool,
    user_seat: bool,
    related: bool,
    lock: Locking | None = None,
) -> tuple[Game, tuple[str, int | None, int | None] | None]:
    """The game (with its club, and its season unless `lock`, when `related`), and the
    signed-in user's standing in its club in the same query: the role (None: not a member),
    the seat this account claimed and, with `user_seat`, the seat of the user's player. One
    query (plus one for the seats), compiled once per process (`compiled_once`): each query
    costs its compilation on every request, and this one's cost three times its run. With
    `lock`, that query is the write's own locked read (`games_locked`), place included."""
    if not _id_in_range(game_id):
        raise Game.DoesNotExist  # as the ORM finds no row for an id no column can hold
    user_id: int | None = request.user.pk if request.user.is_authenticated else None
    key = lock.key if lock is not None else None
    samples = {"game_id": _SAMPLES["game_id"]}
    if user_id is not None:
        samples["user_id"] = _SAMPLES["user_id"]
    if key is not None:
        samples["key"] = _SAMPLES["key"]

    def build(
        game_id: int, user_id: int | None = None, key: uuid.UUID | None = None
    ) -> QuerySet[Game]:
        return _games_query(
            game_id,
            user_id,
            key,
            place=place,
            user_seat=user_seat,
            related=related,
            locking=lock is not None,
            hands=lock is not None and lock.hands,
        )

    hands = lock is not None and lock.hands
    shape = (place, user_seat, related, lock is not None, hands, tuple(samples), _place_shape())
    statement = compiled_once(("game_access", *shape), build, **samples)
    found = statement.rows(game_id=game_id, user_id=user_id, key=key)
    if not found:
        raise Game.DoesNotExist
    game = found[0]
    if seats:
        _seats_keep(game)
    if lock is not None:
        game._key_asked = lock.key
    member_role = getattr(game, "_by_role" if lock is not None else "_role", None)
    if user_id is None or game.club_id is None or member_role is None:
        return game, None
    return game, (member_role, getattr(game, "_seat", None), game._claim)


def _id_in_range(game_id: int) -> bool:
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    return (low is None or game_id >= low) and (high is None or game_id <= high)


def _place_shape() -> tuple[tuple[str, str], ...]:
    """What the table context adds to a game's query, as a key (registered once, at start)."""
    return tuple((name, repr(value)) for name, value in place_annotations().items())


def _seats_query(game_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(game_id=game_id).select_related("player").order_by("seat")


def _seats_keep(game: Game) -> None:
    """Keep the game's seats with their players for `game.seats.all()`, as
    `prefetch_related("seats")` keeps them, read by a statement compiled once per process."""
    seats = compiled_once("game_seats", _seats_query, game_id=(1, 2)).rows(game_id=game.pk)
    to_game = Seat._meta.get_field("game")
    for seat in seats:
        to_game.set_cached_value(seat, game)
    kept = game.seats.get_queryset()  # the manager's own filter, should anyone refine it
    kept._result_cache = seats
    kept._prefetch_done = True  # type: ignore[attr-defined]
    if not hasattr(game, "_prefetched_objects_cache"):
        game._prefetched_objects_cache = {}  # type: ignore[attr-defined]
    game._prefetched_objects_cache["seats"] = kept  # type: ignore[attr-defined]


def game_for_member(
    request: HttpRequest,
    game_id: int,
    action: str = VIEW,
    *,
    seats: bool = True,
    place: bool = True,
    user_seat: bool = False,
    related: bool = True,
    lock: Locking | None = None,
) -> GameAccess:
    """The game if the signed-in user (or a browser holding the game's table token) may take
    `action` on it; Http404 for outsiders, PermissionDenied for a role without the power.
    `seats=False` skips loading the seats (for views that do not show them); `place=False`
    skips reading where a tournament table stands (for views whose service reads it again
    under its lock); `user_seat=True` reads the seat of a member's own player
    (`GameAccess.user_seat`) in the same query as the membership; `related=False` skips the
    club and season rows (for answers that show neither); `lock` reads the game as a write
    does, locked, inside the caller's transaction (it then calls the service with `locked`),
    so that one read serves both (the service refuses a closed season itself)."""
    if lock is not None and not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("a locked read needs its transaction")
    try:
        game, member = _game_with_membership(
            request, game_id, seats, place, user_seat, related, lock
        )
    except Game.DoesNotExist as exc:
        raise Http404("No such game") from exc
    user = request.user
    membership = None
    if member is not None and user.pk is not None and game.club_id is not None:
        # Built from the role read with the game: no row of its own is read.
        membership = Membership(club_id=game.club_id, user_id=user.pk, role=member[0])
        if related and game.club is not None:
            membership.club = game.club
    # Starting a club game gives power over it only while a member: every power over the
    # club's games ends with the membership.
    is_starter = (
        user.is_authenticated
        and game.created_by_id == user.pk
        and (game.club_id is None or membership is not None)
    )
    via_token = _holds_table_token(request, game)
    if not is_starter and membership is None and not via_token:
        raise Http404("No such game")
    access = GameAccess(
        game,
        membership,
        is_starter,
        via_token,
        user_seat=member[1] if member else None,
        user_id=user.pk if user.is_authenticated else None,
        user_claim=member[2] if member else None,
    )
    if not access.can(action):
        raise PermissionDenied
    return access


def game_for_table_token(token: str) -> Game:
    """The game whose table link carries `token`; Http404 if none (or revoked)."""
    game = Game.objects.filter(table_token=token).first() if token else None
    if game is None:
        raise Http404("No such table link")
    return game
