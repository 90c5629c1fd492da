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

# The writes of the club, its seasons, players and nights as the policy names them
# (`leagues.clubs.policy`). Each needs the power it maps to in ACTION_POWER; the policy adds
# what the target's state allows now.
MEMBER_ROLE_SET = "member_role_set"  # give a member another role
MEMBER_REMOVE = "member_remove"  # remove a member (see REMOVABLE for whom)
PLAYER_ADD = "player_add"
PLAYER_EDIT = "player_edit"  # rename a player, link them to a member's account
SEASON_CREATE = "season_create"
SEASON_EDIT = "season_edit"
SEASON_CLOSE = "season_close"
SEASON_REOPEN = "season_reopen"
SEASON_DELETE = "season_delete"
CLUB_DELETE = "club_delete"
NIGHT_CREATE = "night_create"
NIGHT_REGISTER = "night_register"  # register a player (a late arrival once a round is drawn)
NIGHT_CHECK_IN = "night_check_in"  # mark a registered player here (or not here)
NIGHT_WITHDRAW = "night_withdraw"
NIGHT_DRAW = "night_draw"  # draw the next round
NIGHT_FINISH = "night_finish"  # end the night
NIGHT_CANCEL = "night_cancel"
NIGHT_DELETE = "night_delete"
ROUND_CLOSE = "round_close"

# The writes of a game as the policy names them (`leagues.clubs.policy.games`). What starting a
# game or holding its table link gives is the game policy's; a role's share is in ACTION_POWER.
HAND_UNDO = "hand_undo"  # take back the last hand
HAND_CONFIRM = "hand_confirm"  # confirm a hand of the other side
HAND_CORRECT = "hand_correct"  # correct one hand (with a reason once the game is over)
SEAT_CLAIM = "seat_claim"  # say which seat holds this phone
# Let a seat claim go: a phone gives its own back (the power to claim); a scorer or director
# releases anyone's (a lost phone, an impostor).
SEAT_RELEASE = "seat_release"
GAME_ABANDON = "game_abandon"
GAME_DELETE = "game_delete"  # a game with no hand, started by mistake
TABLE_LINK_MANAGE = "table_link_manage"  # make a new table link or revoke it
# Share a finished game's record by a public read-only link, or stop sharing it.
GAME_SHARE = "game_share"

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


ACTION_POWER: dict[str, str] = {
    MEMBER_ROLE_SET: CLUB_MANAGE,
    MEMBER_REMOVE: PLAYERS_MANAGE,
    PLAYER_ADD: PLAYERS_MANAGE,
    PLAYER_EDIT: PLAYERS_MANAGE,
    SEASON_CREATE: SEASONS_MANAGE,
    SEASON_EDIT: SEASONS_MANAGE,
    SEASON_CLOSE: SEASONS_MANAGE,
    SEASON_REOPEN: SEASONS_REOPEN,
    SEASON_DELETE: SEASONS_MANAGE,
    CLUB_DELETE: CLUB_MANAGE,
    NIGHT_CREATE: TOURNAMENTS_RUN,
    NIGHT_REGISTER: TOURNAMENTS_RUN,
    NIGHT_CHECK_IN: TOURNAMENTS_RUN,
    NIGHT_WITHDRAW: TOURNAMENTS_RUN,
    NIGHT_DRAW: TOURNAMENTS_RUN,
    NIGHT_FINISH: TOURNAMENTS_RUN,
    NIGHT_CANCEL: TOURNAMENTS_RUN,
    NIGHT_DELETE: TOURNAMENTS_RUN,
    ROUND_CLOSE: TOURNAMENTS_RUN,
    HAND_UNDO: HAND_ENTER,
    HAND_CONFIRM: HAND_ENTER,
    SEAT_CLAIM: HAND_ENTER,
    SEAT_RELEASE: HAND_CORRECT_ANY,
    HAND_CORRECT: HAND_CORRECT_ANY,
    GAME_ABANDON: HAND_CORRECT_ANY,
    GAME_DELETE: HAND_CORRECT_ANY,
    TABLE_LINK_MANAGE: HAND_CORRECT_ANY,
    GAME_SHARE: HAND_ENTER,
}

# Whom a member may remove, by the remover's role: an owner anyone, a director anyone but an
# owner (the club's last owner stays whoever asks: the policy checks that).
REMOVABLE: dict[str, frozenset[Role]] = {
    Role.OWNER: _ALL,
    Role.DIRECTOR: frozenset({Role.DIRECTOR, Role.SCORER, Role.MEMBER}),
}


def role_can(role: str | None, action: str) -> bool:
    """True if a member with `role` may take `action`, a power of PERMISSIONS or an action of
    ACTION_POWER (unknown actions are refused)."""
    power = ACTION_POWER.get(action, action)
    return role is not None and role in PERMISSIONS.get(power, frozenset())


def role_removes(role: str | None, target_role: str | None) -> bool:
    """True if a member with `role` may remove a member whose role is `target_role`."""
    return role is not None and target_role in REMOVABLE.get(role, frozenset())


def role_is_owner(role: str | None) -> bool:
    """Whether `role` owns the club (the club always keeps one)."""
    return role == Role.OWNER


def role_invitable(role: str) -> bool:
    """Whether an invitation may bring someone in as `role` (owners are made, not invited)."""
    return role in Role.values and role != Role.OWNER
