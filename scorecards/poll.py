"""The sheet's "nothing changed" poll, answered without the database.

Every open sheet polls every few seconds; nearly every poll finds nothing new. Such a poll is
answered 204 from two things that need no query and no session: a signed poll token (a cookie
scoped to the game's poll URL, naming the game and the browser's session) that the full poll
gave this browser, and the game's sheet version kept in the shared cache. Everything else (no
token, a forged, expired or other browser's token, a cache miss, a different version) takes
the full poll with its access check: a member removed, or a table link revoked, loses the
sheet at its next change, and a 204 shows nothing.

The version is written to the cache by every write of the game row (`post_save`, and
`game_touch` for writes that only mark the row as changed), while the write holds the game's
lock, so two writes of one game publish in the order they commit; a deleted game's version is
forgotten. Nothing fills the cache from a read: a reader could put back a version a write has
just replaced. A cache each process keeps to itself cannot see the writes of other
processes (another web worker, a command, a Celery worker), so only a shared cache answers.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_cache_control
from django.utils.crypto import salted_hmac

from scorecards.models import Game
from scorecards.sheet import sheet_version

COOKIE = "kl_poll"
SALT = "kaiser.poll-token"
MAX_AGE = 15 * 60  # seconds a token answers for; the next full poll gives a new one
VERSION_TTL = 24 * 60 * 60  # a night's polling; after it, one full poll per sheet until a write


def _key(game_id: int) -> str:
    return f"kaiser:poll-version:{game_id}"


def _viewer(session_key: str) -> str:
    # The browser's session, never shown: a token copied to another browser, or kept after
    # signing out (a new session), answers nothing.
    return salted_hmac(SALT, session_key).hexdigest()[:20]


def cache_shared() -> bool:
    """Whether the default cache is one every process reads and writes (not kept in each
    process's own memory): only then is its version the version every writer published."""
    backend = settings.CACHES["default"].get("BACKEND", "")
    return backend not in settings.PER_PROCESS_CACHES


def version_publish(game: Game) -> None:
    """Keep `game`'s sheet version as the poll's truth (called by every write of the row)."""
    if cache_shared():
        cache.set(_key(game.pk), sheet_version(game), VERSION_TTL)


def version_forget(game_id: int) -> None:
    if cache_shared():
        cache.delete(_key(game_id))


def token_make(game_id: int, session_key: str) -> str:
    return signing.dumps({"g": game_id, "w": _viewer(session_key)}, salt=SALT, compress=False)


def token_valid(token: str, game_id: int, session_key: str) -> bool:
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # SignatureExpired included
        return False
    return (
        isinstance(data, dict)
        and data.get("g") == game_id
        and data.get("w") == _viewer(session_key)
    )


def poll_unchanged(request: HttpRequest, game_id: int) -> bool:
    """True when this poll may be answered 204 with no query: the browser's token for this
    game verifies and the version it shows (`v`) is the game's version in the shared cache.
    Reads neither `request.user` nor `request.session` (the session cookie's value only)."""
    version = request.GET.get("v")
    token = request.COOKIES.get(COOKIE)
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not version or not token or not session_key or not cache_shared():
        return False
    if not token_valid(token, game_id, session_key):
        return False
    return cache.get(_key(game_id)) == version


def unchanged_answer() -> HttpResponse:
    """The empty 204, never kept by a proxy (it is this browser's answer, true only now)."""
    response = HttpResponse(status=204)
    patch_cache_control(response, no_store=True, private=True)
    return response


def token_give(request: HttpRequest, response: HttpResponse, game_id: int) -> HttpResponse:
    """`response`, giving the browser (already let through the access check) a poll token for
    this game, sent back by its polls only (the cookie's path is the game's poll URL)."""
    session_key = getattr(request, "session", None) and request.session.session_key
    if not session_key or not cache_shared():
        return response
    response.set_cookie(
        COOKIE,
        token_make(game_id, session_key),
        max_age=MAX_AGE,
        path=reverse("game_poll", args=[game_id]),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def on_game_saved(sender: Any, instance: Game, **kwargs: Any) -> None:
    version_publish(instance)


def on_game_deleted(sender: Any, instance: Game, **kwargs: Any) -> None:
    version_forget(instance.pk)


def early_answer(request: HttpRequest) -> HttpResponse | None:
    """The "nothing changed" poll answered before the session, the account, CSRF and the rest
    of the chain (`kaiser_league.ops_middleware.early_answer_register`): as cheap as the health
    check plus one cache read. None for any other request, or a poll that must go the long way."""
    if request.method != "GET" or not request.path_info.endswith("/poll"):
        return None
    request.get_host()  # an unknown Host is refused (400) here as everywhere
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.url_name == "game_poll" and poll_unchanged(request, match.kwargs["game_id"]):
        return unchanged_answer()
    return None
