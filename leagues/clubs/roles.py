"""Who may do what in a club: the one place where roles are given their powers.

Views never compare role names; they ask `role_can(role, ACTION)` (through the access helpers in
`leagues.clubs.access`), so changing what a scorer may do is a one-line edit here.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    DIRECTOR = "director", _("Director")
    SCORER = "scorer", _("Scorer")
    MEMBER = "member", _("Member")


# Actions a member of a club may take, and the roles allowed each.
VIEW = "view"  # club pages, games, standings
GAME_START = "game_start"  # start a game at the club
# Enter, take back and confirm hands of a game in progress (a table link gives this one too).
HAND_ENTER = "hand_enter"
# Correct hands of any game of the club (with a reason once it is over); abandon or delete games.
HAND_CORRECT_ANY = "hand_correct_any"
PLAYERS_MANAGE = "players_manage"  # add, rename, link players; invite members
# Make two players of the club one (every seat, entry, account, rating and standing moves).
PLAYERS_MERGE = "players_merge"
SEASONS_MANAGE = "seasons_manage"  # create, edit, close and delete (an empty) season
SEASONS_REOPEN = "seasons_reopen"  # reopen a closed season: its games can change again
TOURNAMENTS_RUN = "tournaments_run"
CLUB_MANAGE = "club_manage"  # club settings, member roles, deleting the club's data
GAMES_IMPORT = "games_import"  # import kaiser-game/1 records as games of the club

_ALL = frozenset(Role)
_STAFF = frozenset({Role.OWNER, Role.DIRECTOR})

PERMISSIONS: dict[str, frozenset[Role]] = {
    VIEW: _ALL,
    GAME_START: _ALL,
    HAND_ENTER: _ALL,
    HAND_CORRECT_ANY: frozenset({Role.OWNER, Role.DIRECTOR, Role.SCORER}),
    PLAYERS_MANAGE: _STAFF,
    PLAYERS_MERGE: _STAFF,
    SEASONS_MANAGE: _STAFF,
    SEASONS_REOPEN: frozenset({Role.OWNER}),
    TOURNAMENTS_RUN: _STAFF,
    CLUB_MANAGE: frozenset({Role.OWNER}),
    GAMES_IMPORT: _STAFF,
}


def role_can(role: str | None, action: str) -> bool:
    """True if a member with `role` may take `action` (unknown actions are refused)."""
    return role is not None and role in PERMISSIONS.get(action, frozenset())
