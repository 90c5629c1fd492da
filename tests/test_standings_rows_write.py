"""A season's standings rows and game summaries are the same whether PostgreSQL is sent them
by COPY (many rows at once: a season rebuilt from nothing) or by a statement a row (a few: one
game's update), and a summary written again by COPY replaces the one stored. On SQLite both
ways are the statement a row: the same rows all the same."""

from __future__ import annotations

import datetime
import itertools
import json

import pytest
from django.db import connection

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild, rows
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerStanding,
    StandingsSnapshot,
)
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club, players) -> Season:
    season = Season.objects.create(
        club=club, name="2026", starts_on=datetime.date(2026, 9, 1), rules={}
    )
    everyone = [*players, *(Player.objects.create(club=club, name=n) for n in ("Eve", "Fay"))]
    for number, seats in enumerate(itertools.islice(itertools.permutations(everyone, 4), 0, 60, 9)):
        play(club, season, list(seats), GAME_1 if number % 2 else GAME_2)
    return season


def _stored(season: Season) -> tuple:
    return (
        sorted(
            (row.player_id, row.figures(), row.last_game, row.pot_balance)
            for row in PlayerStanding.objects.filter(season=season)
        ),
        sorted(
            (row.first_id, row.second_id, row.figures(), row.last_game)
            for row in PartnershipStanding.objects.filter(season=season)
        ),
        sorted(
            GameSummary.objects.filter(game__season=season).values_list(
                "game_id",
                "version",
                "players",
                "sides",
                "winner",
                "scores",
                "hands",
                "seat_counts",
                "side_counts",
            )
        ),
    )


def _from_nothing(season: Season) -> tuple:
    GameSummary.objects.filter(game__season=season).delete()
    PlayerStanding.objects.filter(season=season).delete()
    PartnershipStanding.objects.filter(season=season).delete()
    StandingsSnapshot.objects.filter(season=season).delete()
    assert rebuild.standings_rebuild(season_id=season.pk) is not None
    return _stored(season)


def test_rows_sent_by_copy_are_the_rows_sent_one_by_one(season, monkeypatch):
    monkeypatch.setattr(rows, "COPY_FROM", 10**9)
    one_by_one = _from_nothing(season)
    players, pairs, summaries = one_by_one
    # Every kind of value a row holds: counts, percentages, days, JSON, no game yet...
    assert len(players) == 6 and len(pairs) > 6 and len(summaries) == 7
    assert all(row[2]["last_played"] for row in pairs)
    monkeypatch.setattr(rows, "COPY_FROM", 1)
    assert _from_nothing(season) == one_by_one


def test_a_summary_written_again_by_copy_replaces_the_stored_one(season, monkeypatch):
    expected = _from_nothing(season)
    monkeypatch.setattr(rows, "COPY_FROM", 1)
    # Summaries of an older format: every one is computed again and written over the old.
    GameSummary.objects.filter(game__season=season).update(version="v0/old", scores=[0, 0])
    PlayerStanding.objects.filter(season=season).update(games=99)
    assert rebuild.standings_rebuild(season_id=season.pk) is not None
    assert _stored(season) == expected


@pytest.mark.postgres
def test_summaries_that_meet_one_written_meanwhile_are_written_over_it(season):
    """Summaries sent straight by COPY (none of their games had one) that meet one written
    since that was looked at are not written, nothing half written: `rows_write` then sends
    them the other way, over it."""
    expected = _from_nothing(season)
    stored = list(GameSummary.objects.filter(game__season=season).order_by("game_id"))
    names = ["game_id", "version", "players", "sides", "winner", "scores", "hands"]
    names += ["seat_counts", "side_counts"]
    written = [
        [getattr(summary, name) for name in names[:2]]
        + [json.dumps(getattr(summary, name)) for name in names[2:4]]
        + [summary.winner, json.dumps(summary.scores), summary.hands]
        + [json.dumps(summary.seat_counts), json.dumps(summary.side_counts)]
        for summary in stored
    ]
    GameSummary.objects.filter(game__season=season).delete()
    # The same game twice: the second meets the first as one written meanwhile would.
    table = GameSummary._meta.db_table
    with connection.cursor() as cursor:
        twice = [*written, written[0]]
        assert not rows._copied_if_new(cursor, table, names, twice, "game_id")
        assert not GameSummary.objects.filter(game__season=season).exists()
        assert rows._copied_if_new(cursor, table, names, written, "game_id")
        # Now that they are stored: not sent straight again.
        assert not rows._copied_if_new(cursor, table, names, written, "game_id")
    assert _stored(season) == expected
