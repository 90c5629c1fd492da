"""What a removed member of a club loses at the club's tables: the table links their browsers
remember and the seats they claimed.

A table link is a game's table token remembered in a browser's session (`access.
SESSION_TABLE_TOKENS`); a seat claim is a `SeatClaim` row plus its mirror in the session
(`table_phone.SESSION_SEATS`). The rule: when a member is removed, every session signed in as
that account forgets the club's games (their table tokens and seat claims), and the claims in
the club's games made by that account or by one of those sessions' phones are deleted. The
token itself is not changed, so the other phones at those tables keep playing; a link copied
out of the session (a photo of a table card) is a bearer link like any other, and a director
issues a new one from the game's page. Listens to `leagues.clubs.services.member_removed`
(wired in `ScorecardsConfig.ready`), so the clubs room never imports this one."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db.models import Q
from django.utils import timezone

from scorecards.access import SESSION_TABLE_TOKENS
from scorecards.models import Game, SeatClaim
from scorecards.table_phone import SESSION_PHONE, SESSION_SEATS

log = logging.getLogger(__name__)

# The session engines whose sessions are rows of `Session` (the server can find and edit them).
_DB_ENGINES = (
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
    "kaiser_league.sessions",
)
_AUTH_USER = "_auth_user_id"  # where django.contrib.auth keeps the signed-in account


def _held_games(data: dict[str, Any]) -> set[str]:
    held: set[str] = set()
    for key in (SESSION_TABLE_TOKENS, SESSION_SEATS):
        value = data.get(key)
        if isinstance(value, dict):
            held.update(str(game_id) for game_id in value)
    return held


def member_links_revoke(*, club_id: int, user_id: int) -> int:
    """Make the account `user_id` forget the table links and seat claims it holds in the games
    of club `club_id` (see the module docstring). Returns how many seat claims went."""
    phones: set[str] = set()
    if settings.SESSION_ENGINE in _DB_ENGINES:
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
            data = session.get_decoded()
            if str(data.get(_AUTH_USER)) != str(user_id):
                continue
            if isinstance(data.get(SESSION_PHONE), str):
                phones.add(data[SESSION_PHONE])
            held = _held_games(data)
            ids = [int(game_id) for game_id in held if game_id.isascii() and game_id.isdigit()]
            of_club = {
                str(pk)
                for pk in Game.objects.filter(club_id=club_id, pk__in=ids).values_list(
                    "pk", flat=True
                )
            }
            if not of_club:
                continue
            for key in (SESSION_TABLE_TOKENS, SESSION_SEATS):
                if isinstance(data.get(key), dict):
                    data[key] = {g: v for g, v in data[key].items() if str(g) not in of_club}
            session.session_data = Session.objects.encode(data)
            session.save(update_fields=["session_data"])
            if settings.SESSION_ENGINE.endswith("cached_db"):
                caches[settings.SESSION_CACHE_ALIAS].delete(
                    "django.contrib.sessions.cached_db" + session.session_key
                )
    else:  # sessions the server cannot list: the account's claims go, its links stay
        log.warning(
            "sessions of user %s not searched (engine %s)", user_id, settings.SESSION_ENGINE
        )
    claims = SeatClaim.objects.filter(game__club_id=club_id).filter(
        Q(user_id=user_id) | Q(phone__in=phones)
    )
    return claims.delete()[0]


def member_removed_receiver(sender: Any, *, club_id: int, user_id: int, **kwargs: Any) -> None:
    """`member_removed` listener: revoke inside the removal's transaction."""
    member_links_revoke(club_id=club_id, user_id=user_id)
