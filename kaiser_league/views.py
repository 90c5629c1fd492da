"""Project-level views: the health check."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
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
