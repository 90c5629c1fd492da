"""Project-level views: the health check."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from kaiser_league.celery import app as celery_app

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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with {"database": "ok", "broker": ...}; 503 when the database does not answer.

    A broker that is down is reported but is not fatal: hands are still saved without it."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database = "ok"
    except DatabaseError:
        log.exception("database unreachable")
        database = "down"
    body = {"database": database, "vendor": connection.vendor, "broker": broker_status()}
    return JsonResponse(body, status=200 if database == "ok" else 503)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the site's root so that it may keep the score sheet for a phone
    with no signal. Never cached by the browser's HTTP cache: a new version takes over at once."""
    response = render(request, "sw.js", content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return redirect(static("icons/favicon-32.png"))
