"""End to end with the real servers: a hand correction queues the rebuilds through Redis, a real
`celery worker` process (reading the test PostgreSQL database) runs them, and the snapshot it
writes is the same as the one eager mode wrote."""

from __future__ import annotations

import datetime

import pytest

from leagues.clubs.models import Season
from leagues.standings.models import (
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    StandingsSnapshot,
)
from scorecards.services import hand_correct
from tests.leagues_helpers import GAME_2, two_games
from tests.workers import celery_worker, snapshot_values, wait_for


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_writes_the_same_snapshot_as_eager_mode(club, players, alice, tmp_path):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    # Eager (this process): every committed game end already rebuilt the snapshots.
    _first, second = two_games(club, season, {p.name: p for p in players})
    eager = snapshot_values()
    assert eager[0] and eager[2]
    for model in (PlayerStanding, PartnershipStanding, PlayerRating, RatingPoint):
        model.objects.all().delete()
    StandingsSnapshot.objects.all().delete()
    RatingSnapshot.objects.all().delete()

    with celery_worker(
        ["celery", "-A", "kaiser_league", "worker", "--pool", "solo"], tmp_path
    ) as worker:
        # A correction of a finished game (to the same hand) queues both rebuilds on commit.
        hand_correct(game=second, number=1, hand=GAME_2[0], by=alice, reason="recount")
        wait_for(
            lambda: StandingsSnapshot.objects.exists() and RatingSnapshot.objects.exists(),
            "the worker's snapshot",
            worker.log,
        )
        assert snapshot_values() == eager
        assert "leagues.standings_rebuild" in worker.log.read_text()
