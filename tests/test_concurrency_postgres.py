"""Two phones sending the same hand at the same moment: exactly one row, on real PostgreSQL."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from scorecards.models import Hand
from scorecards.rules import HandInput
from scorecards.services import HandConflict, game_start
from tests.races import hand_race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HAND = HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1)


def test_database_is_postgres() -> None:
    assert connection.vendor == "postgresql"


@pytest.mark.parametrize("round_", range(5))
def test_same_key_at_once_gives_one_row(club, players, standard_rules, round_) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    key = uuid.uuid4()
    results, _ = hand_race(game, HAND, [key, key])
    assert Hand.objects.filter(game=game).count() == 1
    created = [r.created for r in results]
    assert sorted(created) == [False, True]


@pytest.mark.parametrize("round_", range(5))
def test_same_number_different_keys_gives_one_row_and_a_conflict(
    club, players, standard_rules, round_
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    results, _ = hand_race(game, HAND, [uuid.uuid4(), uuid.uuid4()])
    assert Hand.objects.filter(game=game).count() == 1
    assert sum(isinstance(r, HandConflict) for r in results) == 1
