"""Access to one tournament: through its club's membership, like every object of a club."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from kaiser_league.middleware import SignInRequired
from leagues.clubs.access import club_actor, membership_of
from leagues.clubs.models import Membership
from leagues.clubs.policy import Actor, Decision, may
from leagues.clubs.policy.nights import EntryFacts, NightFacts, RoundFacts, facts_accept
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

    @property
    def actor(self) -> Actor:
        """The member who asks, for the policy (`leagues.clubs.policy.may`)."""
        return Actor(user_id=self.membership.user_id, role=self.membership.role)


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


def night_decide(
    by: User | None, club_id: int, action: str, facts: NightFacts | EntryFacts | RoundFacts
) -> Decision:
    """The policy's answer for `action` on a night, an entry or a round (`facts`, built from
    the locked rows by `night_state`). `by` None is a caller inside the server that acts for
    no one (the demo, set-up scripts): only what the night accepts now is asked."""
    if by is None:
        return facts_accept(action, facts)
    return may(club_actor(club_id, by), action, facts)
