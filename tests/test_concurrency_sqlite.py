"""Two phones sending the same hand at the same moment: exactly one row, on a SQLite file in WAL
mode (the embedded default), with each thread on its own connection."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from scorecards.models import Hand, HandVersion
from scorecards.rules import HandInput
from scorecards.services import HandConflict, game_start
from tests.races import hand_race

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

HAND = HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1)


def test_database_is_a_sqlite_file_in_wal_mode() -> None:
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA database_list")
        files = [row[2] for row in cursor.fetchall() if row[1] == "main"]
    assert files and files[0], "the test database must be a file, not :memory:"
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.parametrize("round_", range(10))
def test_same_key_at_once_gives_one_row(club, players, standard_rules, round_) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    key = uuid.uuid4()
    results, connection_ids = hand_race(game, HAND, [key, key])
    assert len(connection_ids) == 2, "each thread must use its own connection"
    assert not [r for r in results if isinstance(r, Exception)]
    assert sorted(r.created for r in results) == [False, True]
    assert Hand.objects.filter(game=game).count() == 1
    assert HandVersion.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.hand_count == 1


@pytest.mark.parametrize("round_", range(10))
def test_same_number_different_keys_gives_one_row_and_a_conflict(
    club, players, standard_rules, round_
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    results, _ = hand_race(game, HAND, [uuid.uuid4(), uuid.uuid4()])
    assert Hand.objects.filter(game=game).count() == 1
    assert sum(isinstance(r, HandConflict) for r in results) == 1
    assert sum(getattr(r, "created", False) for r in results) == 1


def test_many_phones_one_table_same_hand(club, players, standard_rules) -> None:
    """Eight phones, four retrying one key and four with keys of their own, for hand 1."""
    game = game_start(seats=players, rules=standard_rules, club=club)
    shared = uuid.uuid4()
    results, _ = hand_race(game, HAND, [shared] * 4 + [uuid.uuid4() for _ in range(4)])
    assert Hand.objects.filter(game=game).count() == 1
    assert sum(getattr(r, "created", False) for r in results) == 1
    errors = [r for r in results if isinstance(r, Exception)]
    assert all(isinstance(e, HandConflict) for e in errors)
