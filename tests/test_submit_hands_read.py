"""The hands so far read in the hand submit's locked read of the game (on PostgreSQL one
statement, `scorecards.services.state._hands_columns`): the same values as their own read, and,
when the read waited for another writer's lock, what that writer left, not what stood before."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorecards.models import Game, Hand
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_record, hand_undo
from scorecards.services.state import games_locked, hands_so_far, key_spent_of

MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
SET = HandInput(bidder=1, bid=8, tricks=(3, 5), five_hearts=1, three_spades=0)


@pytest.fixture
def game(club, players, standard_rules) -> Game:
    game = game_start(seats=players, rules=standard_rules, club=club)
    hand_record(game=game, hand=MADE)
    hand_record(game=game, hand=SET)
    return game


def _locked(game: Game, key: uuid.UUID) -> Game:
    """The game as the hand submit's access check reads it for a JSON answer."""
    locked = games_locked(key, hands=True).get(pk=game.pk)
    locked._key_asked = key  # type: ignore[attr-defined]
    return locked


@pytest.mark.django_db
def test_the_hands_read_with_the_lock_are_the_hands_read_alone(game) -> None:
    Hand.objects.filter(game=game, number=1).update(
        confirmed_at=timezone.now(), confirmed_by_name="Dana"
    )
    alone = list(hands_so_far(game, rows=False))
    with transaction.atomic():
        locked = _locked(game, uuid.uuid4())
        with CaptureQueriesContext(connection) as queries:
            together = list(hands_so_far(locked, rows=False))
    assert together == alone and [h.number for h in alone] == [1, 2]
    assert alone[0].confirmed_at is not None and alone[0].confirmed_by_name == "Dana"
    assert len(queries) == (0 if connection.vendor == "postgresql" else 1)
    # Read once: a second ask (after the caller's write) reads the table.
    with CaptureQueriesContext(connection) as queries:
        assert list(hands_so_far(locked, rows=False)) == alone
    assert len(queries) == 1


def _while_locked(game: Game, write, read) -> dict:
    """`read(game)` in its own transaction while another holds the game locked after
    `write(game)`; that one commits once the read waits for the lock. What `read` answered."""
    holding, release = threading.Event(), threading.Event()
    seen: dict = {}

    def writer() -> None:
        try:
            with transaction.atomic():
                write(game)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    def reader() -> None:
        try:
            holding.wait(10)
            with transaction.atomic():
                seen.update(read(game))
        finally:
            connection.close()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    waited = False
    for _ in range(100):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            waited = cursor.fetchone()[0] > 0
        if waited:
            break
        time.sleep(0.05)
    release.set()
    for thread in threads:
        thread.join(20)
    assert waited, "the read never waited for the lock"
    return seen


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_read_that_waited_for_the_lock_has_the_hand_written_meanwhile(game) -> None:
    def read(game: Game) -> dict:
        locked = _locked(game, uuid.uuid4())
        return {"hands": [h.number for h in hands_so_far(locked, rows=False)]}

    seen = _while_locked(game, lambda game: hand_record(game=game, hand=MADE), read)
    assert seen == {"hands": [1, 2, 3]}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_read_that_waited_for_an_undo_finds_its_key_spent(game) -> None:
    key = Hand.objects.get(game=game, number=2).idempotency_key

    def read(game: Game) -> dict:
        locked = _locked(game, key)
        hands = [h.number for h in hands_so_far(locked, rows=False)]
        return {"hands": hands, "spent": key_spent_of(locked, key) is not None}

    seen = _while_locked(game, lambda game: hand_undo(game=game), read)
    assert seen == {"hands": [1], "spent": True}
