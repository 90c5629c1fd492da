"""Periodic housekeeping run by Celery beat: the worker's heartbeat (read by /healthz?deep=1)
and the purge of expired sessions and old login attempts. Imported by the worker through
CELERY_IMPORTS (kaiser_league is not an app, so autodiscovery does not find it)."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from kaiser_league.celery import app

HEARTBEAT_KEY = "kaiser:worker-heartbeat"


def heartbeat_age(now: float | None = None) -> float | None:
    """Seconds since a worker last ran the heartbeat task, None when none ever did (as far
    as the shared cache remembers)."""
    beat = cache.get(HEARTBEAT_KEY)
    if not isinstance(beat, int | float):
        return None
    return max(0.0, (time.time() if now is None else now) - float(beat))


@app.task(name="kaiser_league.worker_heartbeat", ignore_result=True, expires=60)
def worker_heartbeat() -> None:
    """Write the time now into the shared cache: proof that beat queues and a worker consumes."""
    cache.set(HEARTBEAT_KEY, time.time(), timeout=24 * 3600)


@app.task(name="kaiser_league.sessions_purge", ignore_result=True)
def sessions_purge() -> int:
    """Delete the expired sessions (what `manage.py clearsessions` does); returns how many."""
    from django.contrib.sessions.models import Session

    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@app.task(name="kaiser_league.login_attempts_purge", ignore_result=True)
def login_attempts_purge() -> int:
    """Delete login attempts and login records older than LOGIN_RECORDS_KEEP_DAYS (a lockout
    lasts 15 minutes, so nothing still in force goes); returns how many rows went."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    cutoff = timezone.now() - timedelta(days=settings.LOGIN_RECORDS_KEEP_DAYS)
    deleted = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()[0]
    deleted += AccessFailureLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    deleted += AccessLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    return deleted
