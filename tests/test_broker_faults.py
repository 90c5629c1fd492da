"""Fault: Redis (the Celery broker) stops during a run of hand submits. Hands are still saved,
each submit costs well under a second whether the broker refuses connections (killed) or
accepts and never answers (SIGSTOP: hung), and the standings catch up once it is back
(`manage.py standings_rebuild --all`; the beat reconciliation finds the same stale seasons).

Uses a throw-away `redis-server` of its own on a free 127.0.0.1 port (db 7), never the shared
one on 6379, and stops only that one."""

from __future__ import annotations

import datetime
import shutil
import signal
import subprocess
import time
import uuid

import pytest
import redis
from django.core.management import call_command
from django.urls import reverse

from bench.harness import free_port
from kaiser_league.celery import app as celery_app
from leagues.clubs.models import Season
from leagues.standings import services
from leagues.standings.models import PlayerStanding, StandingsSnapshot
from scorecards.models import Game, Hand
from scorecards.services import game_start
from tests.conftest import client_for
from tests.leagues_helpers import GAME_1

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

BUDGET = 1.0  # seconds a submit may take with the broker down (BROKER_PUBLISH_TIMEOUT is 0.5)


class ThrowAwayRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/7"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port, db=7, socket_timeout=1)
        for _ in range(100):
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("throw-away redis did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)  # a stopped process must wake to die
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def broker():
    server = ThrowAwayRedis()
    server.start()
    queue = f"kaiser-fault-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    saved = (
        conf.task_always_eager,
        conf.broker_url,
        conf.broker_write_url,
        conf.task_default_queue,
    )
    conf.update(
        task_always_eager=False,
        broker_url=server.url,
        broker_write_url=server.url,
        task_default_queue=queue,
    )
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    try:
        yield server, queue
    finally:
        conf.update(
            task_always_eager=saved[0],
            broker_url=saved[1],
            broker_write_url=saved[2],
            task_default_queue=saved[3],
        )
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        server.kill()


def form_of(hand, number: int) -> dict[str, str]:
    if hand.thrown_in:
        return {"idempotency_key": str(uuid.uuid4()), "number": str(number), "thrown_in": "1"}
    return {
        "idempotency_key": str(uuid.uuid4()),
        "number": str(number),
        "bidder": str(hand.bidder),
        "bid": str(hand.bid),
        "kind": hand.kind,
        "tricks_0": str(hand.tricks[0]),
        "tricks_1": str(hand.tricks[1]),
        "five_hearts": str(hand.five_hearts),
        "three_spades": str(hand.three_spades),
    }


def test_hands_are_saved_fast_while_the_broker_is_down_and_standings_catch_up(
    broker, club, players, alice, standard_rules
):
    server, queue = broker
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    phone = client_for(alice)
    timings: dict[str, list[float]] = {}

    def play_game(phase: str) -> Game:
        game = game_start(seats=players, rules=standard_rules, club=club, season=season)
        for number, hand in enumerate(GAME_1, 1):
            started = time.monotonic()
            response = phone.post(
                reverse("hand_submit", args=[game.pk]),
                form_of(hand, number),
                headers={"Accept": "application/json"},
            )
            timings.setdefault(phase, []).append(time.monotonic() - started)
            assert response.status_code == 201, (phase, number, response.content)
        game.refresh_from_db()
        assert game.status == "finished"
        return game

    play_game("up")
    queued = redis.Redis(port=server.port, db=7).llen(queue)
    assert queued == 2  # the finished game queued the season's standings and the club's ratings

    server.process.send_signal(signal.SIGSTOP)  # hung: accepts connections, never answers
    play_game("hung")
    server.kill()  # gone: connections refused
    play_game("down")

    assert Hand.objects.count() == 3 * len(GAME_1)
    for phase, seconds in timings.items():
        assert max(seconds) < BUDGET, f"{phase}: slowest submit {max(seconds):.2f} s"
    # Nothing ran the rebuilds (no worker; the broker was down): the season is stale.
    assert not StandingsSnapshot.objects.exists()
    assert services.derived_data_stale() == ([season.pk], [club.pk])

    server.start()  # back (empty: this Redis keeps nothing on disk)
    call_command("standings_rebuild", "--all")
    assert services.derived_data_stale() == ([], [])
    snapshot = StandingsSnapshot.objects.get(season=season)
    assert snapshot.games == 3 and snapshot.hands == 3 * len(GAME_1)
    assert PlayerStanding.objects.filter(season=season).count() == 4
    print({phase: f"max {max(s) * 1000:.0f} ms" for phase, s in timings.items()})
