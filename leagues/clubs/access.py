"""Access checks: one helper per object kind. Every view reaches a club or a game through these.

A signed-out visitor is sent to the login page (`SignInRequired`), whether the club exists or
not; a signed-in outsider gets 404 (we do not confirm that another club's object exists); a
member whose role lacks the power gets 403.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest

from kaiser_league.middleware import SignInRequired
from kaiser_league.query_memo import compiled_once
from leagues.clubs.models import Club, Membership, Player
from leagues.clubs.policy import Actor
from leagues.clubs.roles import PERMISSIONS, VIEW, role_can


def club_actor(club_id: int, user: User | None) -> Actor:
    """Who asks, for the policy: `user` with their role in club `club_id` read now (so a role
    taken away a moment ago no longer counts; None for an ex-member or an outsider). Every
    service of the club builds its actor here."""
    if user is None:
        return Actor()
    role = (
        Membership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )
    return Actor(user_id=user.pk, role=role)


@dataclass(frozen=True)
class ClubAccess:
    club: Club
    membership: Membership | None

    @property
    def role(self) -> str | None:
        return self.membership.role if self.membership else None

    @property
    def actor(self) -> Actor:
        """The member who asks, for the policy (`leagues.clubs.policy.may`)."""
        if self.membership is None:
            return Actor()
        return Actor(user_id=self.membership.user_id, role=self.membership.role)

    def can(self, action: str) -> bool:
        return role_can(self.role, action)

    @property
    def powers(self) -> dict[str, bool]:
        """Each power of `roles.PERMISSIONS` by name, for templates: `access.powers.club_manage`."""
        return {power: role_can(self.role, power) for power in PERMISSIONS}


def membership_of(request: HttpRequest, club: Club) -> Membership | None:
    if not request.user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=request.user).first()


def _clubs_query(slug: str, user_id: int | None = None) -> QuerySet[Club]:
    clubs = Club.objects.filter(slug=slug)
    if user_id is None:
        return clubs
    mine = Membership.objects.filter(club_id=OuterRef("pk"), user_id=user_id)
    return clubs.annotate(
        _membership_id=Subquery(mine.values("pk")[:1]),
        _role=Subquery(mine.values("role")[:1]),
    )


def _club_and_membership(request: HttpRequest, slug: str) -> tuple[Club | None, Membership | None]:
    """The club `slug` and the signed-in user's membership of it, read in one query (the
    membership's id and role as subqueries) compiled once per process: building and compiling
    a query costs more than running it, on every page of the club."""
    user = request.user
    if not user.is_authenticated:
        statement = compiled_once("club_by_slug", _clubs_query, slug=("a", "b"))
        found = statement.rows(slug=slug)
        return (found[0] if found else None), None
    statement = compiled_once(
        "club_by_slug_for_user", _clubs_query, slug=("a", "b"), user_id=(1, 2)
    )
    found = statement.rows(slug=slug, user_id=user.pk)
    if not found:
        return None, None
    club = found[0]
    if club._membership_id is None:
        return club, None
    membership = Membership(
        pk=club._membership_id,
        club=club,
        user=user,
        role=club._role,
    )
    return club, membership


def club_for_member(request: HttpRequest, slug: str, action: str = VIEW) -> ClubAccess:
    """The club `slug` if the signed-in user is a member whose role allows `action`.

    Raises Http404 for outsiders and unknown clubs, PermissionDenied for members without the
    power."""
    if not request.user.is_authenticated:
        raise SignInRequired
    club, membership = _club_and_membership(request, slug)
    if club is None or membership is None:
        raise Http404("No such club")
    if not role_can(membership.role, action):
        raise PermissionDenied
    return ClubAccess(club, membership)


def club_for_viewer(request: HttpRequest, slug: str) -> ClubAccess:
    """The club `slug` for its standings pages (standings, ratings, a player's record): members
    always; anyone, signed in or not, when the club made its standings public. Http404 else."""
    club, membership = _club_and_membership(request, slug)
    if club is None:
        if not request.user.is_authenticated:
            raise SignInRequired
        raise Http404("No such club")
    if membership is None and not club.standings_public:
        if not request.user.is_authenticated:
            raise SignInRequired
        raise Http404("No such club")
    return ClubAccess(club, membership)


def player_for_viewer(request: HttpRequest, slug: str, player_id: int) -> tuple[ClubAccess, Player]:
    """A player of the club `slug`, under the same rule as club_for_viewer (Http404 else)."""
    access = club_for_viewer(request, slug)
    player = Player.objects.filter(club=access.club, pk=player_id).select_related("user").first()
    if player is None:
        raise Http404("No such player")
    return access, player


def player_for_member(
    request: HttpRequest, slug: str, player_id: int, action: str
) -> tuple[ClubAccess, Player]:
    """A player of the club `slug` for a member allowed `action` (Http404 / PermissionDenied)."""
    access = club_for_member(request, slug, action)
    player = Player.objects.filter(club=access.club, pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    return access, player
