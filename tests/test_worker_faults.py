"""Fault: the Celery worker process is killed in the middle of a standings rebuild. The task is
late-acked and rejected on worker loss, so it runs again, and the snapshot it writes is complete
(the same figures as eager mode). A real worker on Redis db 7 and the test PostgreSQL database."""

from __future__ import annotations

import datetime
import os
import signal
import time

import pytest

from leagues.clubs.models import Season
from leagues.standings import services
from leagues.standings.models import PlayerStanding, RatingSnapshot, StandingsSnapshot
from tests.leagues_helpers import two_games
from tests.workers import celery_worker, snapshot_values, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_mid_rebuild_runs_the_task_again(club, players, tmp_path):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    two_games(club, season, {p.name: p for p in players})  # eager: the expected snapshot
    eager = snapshot_values()
    for model in (PlayerStanding, StandingsSnapshot, RatingSnapshot):
        model.objects.all().delete()

    pause = tmp_path / "paused.pid"
    command = ["tests.paused_worker", "--pool", "prefork", "--concurrency", "1"]
    with celery_worker(command, tmp_path, extra_env={"KAISER_PAUSE_FILE": str(pause)}) as worker:
        log = worker.log
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
