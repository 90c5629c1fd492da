"""Celery tasks of the derived data: thin (ids in, a service call), idempotent, late-acked.
This module imports the services, never the other way round: they queue the tasks by their
fixed names (`services.STANDINGS_TASK`, `services.RATINGS_TASK`).

A worker that dies mid-rebuild leaves the message unacknowledged (acks_late with
reject_on_worker_lost), so another worker runs it again: safe, since a rebuild is idempotent.
"""

from __future__ import annotations

from celery import shared_task
from kombu.exceptions import OperationalError as BrokerError

from leagues.standings import rebuild, services

# Transient failures worth another try (a database away or busy, a broker down). Anything else
# a rebuild meets is recorded by the service as a RebuildFailure (never retried in a loop:
# the same data would fail the same way, and a data error such as an integer overflow is a
# DatabaseError too).
RETRY_ON = (*rebuild.TRANSIENT_ERRORS, BrokerError)
# Time limits: CELERY_TASK_TIME_LIMIT / CELERY_TASK_SOFT_TIME_LIMIT in the settings, for every task.
OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": RETRY_ON,
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 6,
}


@shared_task(name=services.STANDINGS_TASK, **OPTIONS)
def standings_rebuild(season_id: int, game_ids: list[int] | None = None) -> None:
    """`game_ids`: the games that changed; the standings are updated by them alone when they
    can be (`leagues.standings.delta`), else rebuilt from nothing."""
    rebuild.standings_rebuild(season_id=season_id, game_ids=game_ids)


@shared_task(name=services.RATINGS_TASK, **OPTIONS)
def ratings_rebuild(club_id: int, game_id: int | None = None) -> None:
    rebuild.ratings_rebuild(club_id=club_id, game_id=game_id)


@shared_task(name="leagues.derived_data_reconcile", **(OPTIONS | {"max_retries": 1}))
def derived_data_reconcile() -> None:
    """Periodic (celery beat, CELERY_BEAT_SCHEDULE): queue rebuilds of stale snapshots."""
    services.derived_data_reconcile()
