"""End to end with the real servers: a hand correction queues the rebuilds through Redis, a real
`celery worker` process (reading the test PostgreSQL database) runs them, and the snapshot it
writes is the same as the one eager mode wrote."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from kaiser_league.celery import app as celery_app
from leagues.models import (
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    Season,
    StandingsSnapshot,
)
from scorecards.services import hand_correct
from tests.leagues_helpers import GAME_2, two_games

ROOT = Path(__file__).resolve().parent.parent
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


def database_url() -> str:
    """DATABASE_URL pointing at the test database (the one this test run created)."""
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    return f"{base}/{connection.settings_dict['NAME']}"


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_writes_the_same_snapshot_as_eager_mode(club, players, tmp_path):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    # Eager (this process): every committed game end already rebuilt the snapshots.
    _first, second = two_games(club, season, {p.name: p for p in players})
    eager = snapshot_values()
    assert eager[0] and eager[2]
    for model in (PlayerStanding, PartnershipStanding, PlayerRating, RatingPoint):
        model.objects.all().delete()
    StandingsSnapshot.objects.all().delete()
    RatingSnapshot.objects.all().delete()

    queue = f"kaiser-test-{uuid.uuid4().hex[:8]}"  # nobody else's worker takes these
    log = tmp_path / "worker.log"
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "kaiser_league.settings",
        "DATABASE_URL": database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CONN_MAX_AGE": "0",
    }
    with log.open("w") as out:
        worker = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "kaiser_league", "worker",
                "--pool", "solo", "--queues", queue, "--hostname", f"{queue}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
                "--loglevel", "INFO",
            ],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    try:
        wait_for(lambda: "ready." in log.read_text(), "the worker to start", log)
        # This process now publishes to Redis instead of running tasks itself.
        celery_app.conf.update(task_always_eager=False, task_default_queue=queue)
        # A correction of a finished game (to the same hand) queues both rebuilds on commit.
        hand_correct(game=second, number=1, hand=GAME_2[0])
        wait_for(
            lambda: StandingsSnapshot.objects.exists() and RatingSnapshot.objects.exists(),
            "the worker's snapshot",
            log,
        )
        assert snapshot_values() == eager
        assert "leagues.standings_rebuild" in log.read_text()
    finally:
        celery_app.conf.update(task_always_eager=saved[0], task_default_queue=saved[1])
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=5)
