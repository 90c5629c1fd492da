"""The statements of one game's update compiled once (`leagues.standings.statements`) give the
rows the ORM gives, whatever the number of ids (padded to a compiled size, or past the largest
run by the ORM) and with a time among their values, and write rows as the ORM writes them."""

from __future__ import annotations

import datetime

import pytest
from django.db.models import Q
from django.utils import timezone

from leagues.clubs.models import Season
from leagues.standings.models import PartnershipStanding, PlayerStanding
from leagues.standings.statements import TIMES, ids_rows, one_rows, rows_add, rows_set
from scorecards.models import Game, GameStatus
from scorecards.selectors import games_where
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db


def _changed(ids, season_id, since):
    matters = Q(status=GameStatus.FINISHED) | Q(standings_summary__isnull=False)
    games = games_where(season=season_id).filter(updated_at__gte=since).filter(matters)
    return games.exclude(pk__in=ids).order_by("pk").values_list("pk", "updated_at")


@pytest.fixture
def season_games(club, players):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    games = [
        play(club, season, players[i % 2 :] + players[: i % 2], GAME_1 if i % 2 else GAME_2)
        for i in range(3)
    ]
    return season, games


@pytest.mark.parametrize("count", [1, 2, 3, 5, 130])
def test_rows_of_ids_are_the_orm_rows(season_games, count):
    season, games = season_games
    ids = [game.pk for game in games][:count]
    ids += [10_000_000 + n for n in range(count - len(ids))]  # ids of no game
    for since in (games[0].updated_at, timezone.now(), TIMES[0]):
        read = ids_rows(
            "test_changed", _changed, ids, season_id=(season.pk, (1, 2)), since=(since, TIMES)
        )
        assert read == list(_changed(ids, season.pk, since))
    assert ids_rows("test_changed", _changed, [], season_id=(season.pk, (1, 2))) == []


def test_model_rows_are_the_orm_rows(season_games):
    _season, games = season_games
    found = one_rows(
        "test_game",
        lambda game_id: Game.objects.filter(pk=game_id).only("pk", "finished_at"),
        values=False,
        game_id=(games[1].pk, (1, 2)),
    )
    assert [(game.pk, game.finished_at) for game in found] == [(games[1].pk, games[1].finished_at)]


def test_rows_written_are_what_the_orm_writes(season_games, players):
    season, games = season_games
    figures = {
        "games": 2,
        "wins": 1,
        "win_pct": 50.0,
        "points_for": 70,
        "avg_points": 1.75,
        "streak": -1,
        "last_played": datetime.date(2026, 9, 3),
        "last_game": games[0].pk,
    }
    rows_add(
        PlayerStanding, [{"season_id": season.pk, "player_id": p.pk, **figures} for p in players]
    )
    first, second = sorted(p.pk for p in players[:2])
    rows_add(
        PartnershipStanding, [{"season_id": season.pk, "first_id": first, "second_id": second}]
    )
    stored = list(PlayerStanding.objects.filter(season=season).order_by("player_id"))
    assert [row.player_id for row in stored] == sorted(p.pk for p in players)
    for row in stored:
        assert {name: getattr(row, name) for name in figures} == figures
        assert (row.nights, row.night_wins, row.pot_balance, row.draws) == (0, 0, 0, 0)
    pair = PartnershipStanding.objects.get(season=season)
    assert (pair.first_id, pair.second_id, pair.games, pair.last_played) == (first, second, 0, None)
    names = ("games", "win_pct", "last_played", "last_game")
    rows_set(
        PlayerStanding,
        names,
        [(row.pk, 3 + n, 66.7, datetime.date(2026, 9, 9), None) for n, row in enumerate(stored)],
    )
    again = list(PlayerStanding.objects.filter(season=season).order_by("player_id"))
    assert [(row.games, row.win_pct, row.last_played, row.last_game) for row in again] == [
        (3 + n, 66.7, datetime.date(2026, 9, 9), None) for n in range(len(stored))
    ]
    assert [row.points_for for row in again] == [70] * len(stored)
