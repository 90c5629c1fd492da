"""Fault: the Celery worker process is killed in the middle of a standings rebuild. The task is
late-acked and rejected on worker loss, so it runs again, and the snapshot it writes is complete
(the same figures as eager mode). A real worker on Redis db 7 and the test PostgreSQL database."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from kaiser_league.celery import app as celery_app
from leagues import services
from leagues.models import PlayerStanding, RatingSnapshot, Season, StandingsSnapshot
from tests.leagues_helpers import two_games
from tests.load.conftest import test_database_url
from tests.test_celery_worker import ROOT, snapshot_values, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_mid_rebuild_runs_the_task_again(club, players, tmp_path):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    two_games(club, season, {p.name: p for p in players})  # eager: the expected snapshot
    eager = snapshot_values()
    for model in (PlayerStanding, StandingsSnapshot, RatingSnapshot):
        model.objects.all().delete()

    queue = f"kaiser-kill-{uuid.uuid4().hex[:8]}"
    pause = tmp_path / "paused.pid"
    log = tmp_path / "worker.log"
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "kaiser_league.settings",
        "DATABASE_URL": test_database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": "0",
        "KAISER_PAUSE_FILE": str(pause),
    }
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.paused_worker", "--pool", "prefork",
             "--concurrency", "1", "--queues", queue, "--hostname", f"{queue}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    try:
        wait_for(lambda: "ready." in log.read_text(), "the worker to start", log)
        celery_app.conf.update(task_always_eager=False, task_default_queue=queue)
        assert services.derived_data_send(season_ids=[season.pk], club_ids=[])
        wait_for(pause.exists, "the rebuild to start", log)
        time.sleep(0.2)
        child = int(pause.read_text())
        os.kill(child, signal.SIGKILL)  # the worker process dies mid-rebuild
        wait_for(StandingsSnapshot.objects.exists, "the rebuild to run again", log)
        runs = (tmp_path / "runs.log").read_text().split()
        assert runs.count("leagues.standings_rebuild") == 2, runs
        assert str(child) in runs  # the first run was in the killed child ...
        assert "WorkerLostError" in log.read_text() or "exited" in log.read_text()
        # ... and the second one wrote a complete snapshot: the same figures as eager mode.
        assert snapshot_values()[0] == eager[0]
        assert snapshot_values()[4] == eager[4]
    finally:
        celery_app.conf.update(task_always_eager=saved[0], task_default_queue=saved[1])
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=5)
