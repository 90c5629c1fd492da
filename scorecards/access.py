"""Access to one game: through its club's membership, or for a quick game (no club) through the
account that started it."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Prefetch, Subquery
from django.http import Http404, HttpRequest

from leagues.clubs.models import Membership
from leagues.clubs.roles import HAND_CORRECT_ANY, HAND_ENTER, VIEW, role_can
from scorecards.hooks import place_annotations
from scorecards.models import Game, Seat

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

    def can(self, action: str) -> bool:
        if self.is_starter:
            return True
        if self.membership is not None and role_can(self.membership.role, action):
            return True
        # The table link lets a phone see the sheet and enter hands of this one game.
        return self.via_table_token and action in (VIEW, HAND_ENTER)

    @property
    def can_enter(self) -> bool:
        return self.can(HAND_ENTER)

    @property
    def can_correct(self) -> bool:
        return self.is_starter or self.can(HAND_CORRECT_ANY)


def _game_with_membership(request: HttpRequest, game_id: int, seats: bool) -> Game:
    """The game, its club and season, and the user's membership of the club read in the same
    query (annotated), so an access check costs one query (plus one for the seats)."""
    games = Game.objects.select_related("club", "season")
    # Where a tournament table stands and whether its night asks every hand to be confirmed
    # (scorecards.selectors.table_place, game_needs_confirmation), in the same query.
    games = games.annotate(**place_annotations())
    if seats:
        games = games.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))
        )
    user = request.user
    if user.is_authenticated:
        mine = Membership.objects.filter(club=OuterRef("club_id"), user=user.pk)
        games = games.annotate(
            _membership_id=Subquery(mine.values("pk")[:1]),
            _membership_role=Subquery(mine.values("role")[:1]),
            # The seat of the player linked to this account (scorecards.services.seat_of).
            _user_seat=Subquery(
                Seat.objects.filter(game=OuterRef("pk"), player__user=user.pk).values("seat")[:1]
            ),
        )
    return games.get(pk=game_id)


def game_for_member(
    request: HttpRequest, game_id: int, action: str = VIEW, *, seats: bool = True
) -> GameAccess:
    """The game if the signed-in user (or a browser holding the game's table token) may take
    `action` on it; Http404 for outsiders, PermissionDenied for a role without the power.
    `seats=False` skips loading the seats (for views that do not show them)."""
    try:
        game = _game_with_membership(request, game_id, seats)
    except Game.DoesNotExist as exc:
        raise Http404("No such game") from exc
    user = request.user
    membership = None
    membership_id = getattr(game, "_membership_id", None)
    if game.club_id and membership_id is not None and user.pk is not None:
        membership = Membership(
            pk=membership_id,
            club=game.club,
            user_id=user.pk,
            role=getattr(game, "_membership_role", ""),
        )
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
    access = GameAccess(game, membership, is_starter, via_token)
    if not access.can(action):
        raise PermissionDenied
    return access


def game_for_table_token(token: str) -> Game:
    """The game whose table link carries `token`; Http404 if none (or revoked)."""
    game = Game.objects.filter(table_token=token).first() if token else None
    if game is None:
        raise Http404("No such table link")
    return game
