"""Access to one tournament: through its club's membership, like every object of a club."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from kaiser_league.middleware import SignInRequired
from leagues.clubs.access import membership_of
from leagues.clubs.models import Membership
from leagues.clubs.roles import TOURNAMENTS_RUN, VIEW, role_can
from leagues.tournaments.models import Tournament


@dataclass(frozen=True)
class TournamentAccess:
    tournament: Tournament
    membership: Membership

    def can(self, action: str) -> bool:
        return role_can(self.membership.role, action)

    @property
    def can_run(self) -> bool:
        return self.can(TOURNAMENTS_RUN)


def tournament_for_member(
    request: HttpRequest, tournament_id: int, action: str = VIEW
) -> TournamentAccess:
    """The tournament if the signed-in user is a member of its club whose role allows `action`.

    The login page for signed-out visitors (`SignInRequired`), Http404 for outsiders and unknown
    tournaments, PermissionDenied for members without the power."""
    if not request.user.is_authenticated:
        raise SignInRequired
    tournament = (
        Tournament.objects.select_related("club", "season").filter(pk=tournament_id).first()
    )
    if tournament is None:
        raise Http404("No such tournament")
    membership = membership_of(request, tournament.club)
    if membership is None:
        raise Http404("No such tournament")
    if not role_can(membership.role, action):
        raise PermissionDenied
    return TournamentAccess(tournament, membership)
