"""A database restart in the middle of a burst of hands answers "try again", never 500: while
8 phones send their hands, every connection of the web side is cut by the server
(pg_terminate_backend, what a restart does to them) again and again. Every answer is 201, 200
(a hand resent after a cut between its commit and its answer) or 503 with Retry-After; each
phone resends a 503'd hand with the same key, as the outbox does, until it is answered, and in the
end every game holds every hand exactly once: the hands answered 201/200, no other. Real
PostgreSQL: the lead runs it with -m postgres."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import pytest
from django.db import close_old_connections, connection, connections
from django.test import Client
from django.urls import reverse

from kaiser_league.ops_middleware import RETRY_AFTER_SECONDS
from scorecards.models import Hand
from scorecards.rules import rules_build
from scorecards.services import game_start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PHONES = 8
HANDS = 12
ENDLESS = {"preset": "standard", "lose_at": None, "target": 500, "nt_target": None}
JSON = {"Accept": "application/json"}
# The restart lasts this long at most (cuts every 100 ms), then the database stays up: a phone
# whose hand was cut again and again then gets through. A phone still answered 503 a while
# after that is stuck (a broken connection state), not unlucky.
CUTS_SECONDS = 60
STUCK_SECONDS = CUTS_SECONDS + 30


def _hand(number: int) -> dict[str, str]:
    # Bid 7 made with 7 tricks: +7 a hand, far from the target of 500 in 12 hands.
    return {
        "idempotency_key": str(uuid.uuid4()),
        "number": str(number),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
    }


def _cut_every_connection() -> int:
    """What a restart does to the web side: every other backend of this database ended."""
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            )
            return int(cursor.fetchone()[0])
    finally:
        killer.close()


def test_a_restart_mid_burst_answers_only_201_200_or_503(club, players, alice) -> None:
    assert connection.vendor == "postgresql"
    rules = rules_build(ENDLESS)
    games = [
        game_start(seats=players, rules=rules, club=club, created_by=alice) for _ in range(PHONES)
    ]
    phones = []
    for _ in range(PHONES):
        phone = Client(raise_request_exception=False)
        phone.force_login(alice)
        phones.append(phone)
    connection.close()  # the phones' threads open their own connections

    statuses: Counter[int] = Counter()
    retry_after: set[str] = set()
    # Per game, the keys of the hands the server acknowledged (201 or 200), and the hands a
    # phone could not get through or got another answer for (which stop that phone).
    acknowledged: dict[int, list[str]] = {game.pk: [] for game in games}
    stuck: list[tuple[int, int, int]] = []
    lock = threading.Lock()
    start = threading.Barrier(PHONES + 1)
    began = time.monotonic()

    def phone_sends(phone: Client, game_id: int) -> None:
        url = reverse("hand_submit", args=[game_id])
        try:
            start.wait()
            for number in range(1, HANDS + 1):
                data = _hand(number)
                # As the outbox: the same hand, same key, until it is answered. Giving up
                # after a count of tries instead would send the next hand over a missing one
                # (a 422 "the next hand is hand N" that looks like a lost hand but is not).
                while True:
                    answer = phone.post(url, data, headers=JSON)
                    # What the WSGI server does after each request (the test client does
                    # not): a connection the server cut is dropped, the next one reconnects.
                    close_old_connections()
                    with lock:
                        statuses[answer.status_code] += 1
                        if answer.status_code == 503:
                            retry_after.add(answer.get("Retry-After", ""))
                    if answer.status_code != 503 or time.monotonic() - began > STUCK_SECONDS:
                        break
                    time.sleep(0.05)  # the outbox waits Retry-After; a test waits less
                if answer.status_code not in (200, 201):
                    with lock:
                        stuck.append((game_id, number, answer.status_code))
                    return
                with lock:
                    acknowledged[game_id].append(data["idempotency_key"])
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=phone_sends, args=(phone, game.pk))
        for phone, game in zip(phones, games, strict=True)
    ]
    for thread in threads:
        thread.start()
    start.wait()
    cut = 0
    deadline = began + CUTS_SECONDS
    # A server going down and up again, every 100 ms until the burst is over.
    while any(thread.is_alive() for thread in threads) and time.monotonic() < deadline:
        time.sleep(0.1)
        cut += _cut_every_connection()
    for thread in threads:
        thread.join(timeout=max(1.0, STUCK_SECONDS + 30 - (time.monotonic() - began)))
    assert not any(thread.is_alive() for thread in threads)
    assert not stuck, ("(game, hand, answer) a phone could not get through", stuck, statuses)

    assert cut > 0 and statuses[503] > 0, ("the cuts never reached a request", cut, statuses)
    assert set(statuses) <= {200, 201, 503}, statuses
    assert statuses[201] + statuses[200] == PHONES * HANDS, statuses
    assert retry_after <= {str(RETRY_AFTER_SECONDS)}, retry_after
    # Nothing acknowledged is lost, nothing is stored twice, nothing unacknowledged is
    # stored: each game holds exactly the hands answered 201/200, numbered 1 to HANDS.
    for game in games:
        stored = list(
            Hand.objects.filter(game=game)
            .order_by("number")
            .values_list("number", "idempotency_key")
        )
        assert len(acknowledged[game.pk]) == HANDS, (game.pk, acknowledged[game.pk])
        assert len(stored) == len(acknowledged[game.pk]), (game.pk, stored)
        assert [number for number, _key in stored] == list(range(1, HANDS + 1)), (game.pk, stored)
        assert [str(key) for _number, key in stored] == acknowledged[game.pk], (game.pk, stored)
