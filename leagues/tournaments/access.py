"""Access to one tournament: through its club's membership, like every object of a club."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest

from kaiser_league.middleware import SignInRequired
from kaiser_league.query_memo import compiled_once
from leagues.clubs.access import club_actor
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
    # The night with its club and season, and the member's role, in one query compiled once
    # per process (the projector asks it of every screen every few seconds).
    statement = compiled_once(
        "tournament_for_member", _tournaments_query, tournament_id=(1, 2), user_id=(1, 2)
    )
    found = statement.rows(tournament_id=tournament_id, user_id=request.user.pk)
    tournament = found[0] if found else None
    if tournament is None or tournament._membership_id is None:
        raise Http404("No such tournament")
    membership = Membership(
        pk=tournament._membership_id,
        club=tournament.club,
        user=request.user,
        role=tournament._role,
    )
    if not role_can(membership.role, action):
        raise PermissionDenied
    return TournamentAccess(tournament, membership)


def _tournaments_query(tournament_id: int, user_id: int) -> QuerySet[Tournament]:
    mine = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id)
    return (
        Tournament.objects.select_related("club", "season")
        .filter(pk=tournament_id)
        .annotate(
            _membership_id=Subquery(mine.values("pk")[:1]),
            _role=Subquery(mine.values("role")[:1]),
        )
    )


def night_decide(
    by: User | None, club_id: int, action: str, facts: NightFacts | EntryFacts | RoundFacts
) -> Decision:
    """The policy's answer for `action` on a night, an entry or a round (`facts`, built from
    the locked rows by `night_state`). `by` None is a caller inside the server that acts for
    no one (the demo, set-up scripts): only what the night accepts now is asked."""
    if by is None:
        return facts_accept(action, facts)
    return may(club_actor(club_id, by), action, facts)
