"""Access to one game: through its club's membership, or for a quick game (no club) through the
account that started it."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from leagues.access import membership_of
from leagues.models import Membership
from leagues.roles import GAME_START, HAND_CORRECT_ANY, VIEW, role_can
from scorecards.models import Game
from scorecards.selectors import game_with_seats


@dataclass(frozen=True)
class GameAccess:
    game: Game
    membership: Membership | None
    is_starter: bool  # the account that started the game

    def can(self, action: str) -> bool:
        if self.is_starter:
            return True
        return self.membership is not None and role_can(self.membership.role, action)

    @property
    def can_enter(self) -> bool:
        return self.can(GAME_START)

    @property
    def can_correct(self) -> bool:
        return self.is_starter or self.can(HAND_CORRECT_ANY)


def game_for_member(request: HttpRequest, game_id: int, action: str = VIEW) -> GameAccess:
    """The game if the signed-in user may take `action` on it; Http404 for outsiders."""
    try:
        game = game_with_seats(game_id)
    except Game.DoesNotExist as exc:
        raise Http404("No such game") from exc
    user = request.user
    is_starter = user.is_authenticated and game.created_by_id == user.pk
    membership = membership_of(request, game.club) if game.club_id else None
    if not is_starter and membership is None:
        raise Http404("No such game")
    access = GameAccess(game, membership, is_starter)
    if not access.can(action):
        raise PermissionDenied
    return access
