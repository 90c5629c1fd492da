"""Project-level views: the health check, the service worker and its offline page, robots.txt,
the error pages."""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from kaiser_league.celery import app as celery_app
from kaiser_league.tasks import heartbeat_age

log = logging.getLogger(__name__)


def broker_status() -> str:
    """ "eager" when tasks run in-process, else "ok" or "down" for the configured broker."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception:  # any transport error means the same thing to a health check
        log.warning("broker unreachable", exc_info=True)
        return "down"
    return "ok"


def cache_status() -> str:
    """ "ok" when the cache gives back what was just written to it, else "down"."""
    key = f"kaiser:healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, "ok", timeout=10)
        answered = cache.get(key)
        cache.delete(key)
    except Exception:  # a cache server down raises its own client's errors
        log.warning("cache unreachable", exc_info=True)
        return "down"
    return "ok" if answered == "ok" else "down"


def worker_status() -> str:
    """ "eager" when tasks run in-process; "ok" when a worker ran the heartbeat task (queued by
    beat every WORKER_HEARTBEAT_SECONDS) within WORKER_HEARTBEAT_MAX_AGE seconds; otherwise
    what is wrong."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    backends = {conf.get("BACKEND", "") for conf in settings.CACHES.values()}
    if backends & settings.PER_PROCESS_CACHES:
        # The worker's heartbeat would land in the worker's own memory, never seen here.
        return "unknown: no shared cache (CACHE_URL)"
    try:
        age = heartbeat_age()
    except Exception:
        log.warning("heartbeat unreadable", exc_info=True)
        return "unknown: cache down"
    if age is None:
        return "no heartbeat"
    if age > settings.WORKER_HEARTBEAT_MAX_AGE:
        return f"last heartbeat {int(age)} s ago"
    return "ok"


_HEALTHY = {"ok", "eager"}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with {"database": "ok", "broker": ...}; 503 when the database does not answer.
    A broker that is down is reported but is not fatal: hands are still saved without it.

    With `?deep=1`, also the cache and the worker ("cache", "worker"), and 503 naming in
    "failed" each check that is not ok: for a monitor, not for systemd's liveness probe."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database = "ok"
    except DatabaseError:
        log.exception("database unreachable")
        database = "down"
    body: dict[str, object] = {
        "database": database,
        "vendor": connection.vendor,
        "broker": broker_status(),
    }
    failed = [] if database == "ok" else ["database"]
    if request.GET.get("deep") == "1":
        body["cache"] = cache_status()
        body["worker"] = worker_status()
        failed += [name for name in ("broker", "cache", "worker") if body[name] not in _HEALTHY]
        body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it may keep the score sheet for a phone
    with no signal. Never cached by the browser's HTTP cache: a new version takes over at once."""
    response = render(request, "sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows for any page (home, a club) asked with no signal: it
    lists the score sheets this phone keeps (read by static/js/offline.js from the worker's
    cache, so only what really opens offline). Kept by the worker as its visitor saw it, in their
    language; served to anyone, it names nothing of a club."""
    return render(request, "offline.html")


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return redirect(static("icons/favicon-32.png"))


# Nothing of a club is for search engines (table and invitation links least of all): only the
# home page may be listed.
ROBOTS_TXT = "User-agent: *\nAllow: /$\nDisallow: /\n"


@require_GET
def robots_txt(request: HttpRequest) -> HttpResponse:
    """/robots.txt: the home page may be indexed, nothing else."""
    return HttpResponse(ROBOTS_TXT, content_type="text/plain; charset=utf-8")
