"""The policy for a club, its members, seasons and players: the actor's power (the role table of
`leagues.clubs.roles`) and what the target allows now, from plain facts built by the service or
page that asks (on its locked picture, for a service)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from leagues.clubs.policy import decider_register
from leagues.clubs.policy.base import ALLOWED, Actor, Decision, refused
from leagues.clubs.roles import (
    MEMBER_REMOVE,
    MEMBER_ROLE_SET,
    PLAYERS_MERGE,
    SEASON_CLOSE,
    SEASON_DELETE,
    SEASON_EDIT,
    SEASON_REOPEN,
    role_can,
    role_is_owner,
    role_removes,
)

# The refusal's machine word when the target is already as asked (closing a closed season):
# a service takes it as "nothing to do", a page offers no button.
UNCHANGED = "unchanged"


@dataclass(frozen=True)
class ClubFacts:
    """A club, for the writes that need only its identity (settings, invitations, adding a
    player, a season or a night, importing games, deleting the club)."""

    club_id: int


@dataclass(frozen=True)
class MemberFacts:
    """A member acted on: their role now (None: no longer a member), how many other owners the
    club has, and for a role change the role asked for."""

    club_id: int
    role: str | None
    other_owners: int
    new_role: str | None = None


@dataclass(frozen=True)
class SeasonFacts:
    """A season: whether it is closed, and why it cannot be closed or deleted now (empty when
    it can: what it holds, read by the assembly's `leagues.seasons`)."""

    club_id: int
    closed: bool
    close_refusal: str = ""
    delete_refusal: str = ""


@dataclass(frozen=True)
class PlayerFacts:
    """A player of a club; `merge_refusal` why it cannot be merged into the other (empty: it
    can; read by `leagues.players.merge`)."""

    club_id: int
    merge_refusal: str = ""


def _power(actor: Actor, action: str) -> Decision:
    if actor.role is None:
        return refused(_("Only a member of the club does this."))
    if not role_can(actor.role, action):
        return refused(_("Your role in the club does not allow this."))
    return ALLOWED


def club_decide(actor: Actor, action: str, facts: ClubFacts) -> Decision:
    """Actions that depend only on the actor's role in the club."""
    return _power(actor, action)


def member_decide(actor: Actor, action: str, facts: MemberFacts) -> Decision:
    if action not in (MEMBER_ROLE_SET, MEMBER_REMOVE):
        return refused(_("Unknown action."))
    power = _power(actor, action)
    if not power:
        return power
    if facts.role is None:
        return refused(_("This person is no longer a member."), "gone")
    if action == MEMBER_REMOVE and not role_removes(actor.role, facts.role):
        return refused(_("Only an owner removes an owner."))
    losing_owner = role_is_owner(facts.role) and (
        action == MEMBER_REMOVE or not role_is_owner(facts.new_role)
    )
    if losing_owner and facts.other_owners == 0:
        return refused(_("The club must keep at least one owner."), "last_owner")
    if action == MEMBER_ROLE_SET and facts.new_role == facts.role:
        return refused(_("This member has this role already."), UNCHANGED)
    return ALLOWED


def season_decide(actor: Actor, action: str, facts: SeasonFacts) -> Decision:
    if action not in (SEASON_EDIT, SEASON_CLOSE, SEASON_REOPEN, SEASON_DELETE):
        return refused(_("Unknown action."))
    power = _power(actor, action)
    if not power:
        return power
    if action == SEASON_EDIT and facts.closed:
        return refused(_("This season is closed: an owner reopens it before it changes."), "closed")
    if action == SEASON_CLOSE:
        if facts.closed:
            return refused(_("This season is closed already."), UNCHANGED)
        if facts.close_refusal:
            return refused(facts.close_refusal, "busy")
    if action == SEASON_REOPEN and not facts.closed:
        return refused(_("This season is open."), UNCHANGED)
    if action == SEASON_DELETE and facts.delete_refusal:
        return refused(facts.delete_refusal, "busy")
    return ALLOWED


def player_decide(actor: Actor, action: str, facts: PlayerFacts) -> Decision:
    """Renaming, linking (PLAYER_EDIT or the power itself) and merging a player."""
    power = _power(actor, action)
    if not power:
        return power
    if action == PLAYERS_MERGE and facts.merge_refusal:
        return refused(facts.merge_refusal, "busy")
    return ALLOWED


decider_register(ClubFacts, club_decide)
decider_register(MemberFacts, member_decide)
decider_register(SeasonFacts, season_decide)
decider_register(PlayerFacts, player_decide)
