"""A real Celery worker process for tests that prove the broker path end to end."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from kaiser_league.celery import app as celery_app
from leagues.standings.models import (
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    StandingsSnapshot,
)
from tests.load.conftest import test_database_url

ROOT = Path(__file__).resolve().parents[1]
QUIET = ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"]
WAIT = 60  # seconds, at most, for the worker to start and for the snapshot to appear


def snapshot_values():
    """Every derived figure, without row ids or computed-at times."""
    return (
        sorted(
            (r.season_id, r.player_id, *r.figures().values()) for r in PlayerStanding.objects.all()
        ),
        sorted(
            (r.first_id, r.second_id, *r.figures().values())
            for r in PartnershipStanding.objects.all()
        ),
        sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "ordinal", "games")),
        sorted(RatingPoint.objects.values_list("player_id", "game_id", "seq", "mu", "sigma")),
        sorted(StandingsSnapshot.objects.values_list("season_id", "games", "hands")),
        sorted(RatingSnapshot.objects.values_list("club_id", "games")),
    )


def wait_for(predicate, what: str, log: Path) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{log.read_text()[-3000:]}")


@dataclass
class Worker:
    process: subprocess.Popen
    queue: str
    log: Path


@contextmanager
def celery_worker(
    command: list[str], tmp_path: Path, *, extra_env: dict[str, str] | None = None
) -> Iterator[Worker]:
    """Start `python -m <command...>` as a worker on a queue of its own (nobody else's worker
    takes its tasks), reading the test database; while inside, this process publishes its tasks
    to that queue instead of running them eagerly. The worker is stopped on the way out."""
    queue = f"kaiser-test-{uuid.uuid4().hex[:8]}"
    log = tmp_path / "worker.log"
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "kaiser_league.settings",
        "DATABASE_URL": test_database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": "0",
        **(extra_env or {}),
    }
    args = [*command, "--queues", queue, "--hostname", f"{queue}@%h", *QUIET]
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", *args], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    try:
        wait_for(lambda: "ready." in log.read_text(), "the worker to start", log)
        celery_app.conf.update(task_always_eager=False, task_default_queue=queue)
        yield Worker(process, queue, log)
    finally:
        celery_app.conf.update(task_always_eager=saved[0], task_default_queue=saved[1])
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
