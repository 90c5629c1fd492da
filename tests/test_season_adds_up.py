"""A season built the way a club builds one (table games, an imported game with its day and a
name typed without its accent, a tournament night whose tables end by the round, one of them
drawn) adds up: every finished game counts once, the page, the CSV and the XLSX give the same
figures, and a rebuild from nothing gives the same files. Runs on SQLite and on PostgreSQL (the
second pass of `make test`)."""

from __future__ import annotations

import datetime
import re
from collections import Counter

import pytest
from django.urls import reverse

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    StandingsSnapshot,
)
from scorecards.importing import game_import
from scorecards.models import Game, GameStatus, Seat
from scorecards.selectors import game_record
from tests.leagues_helpers import GAME_1, play
from tests.test_exports_readback import (
    LANGUAGES,
    VIEWS,
    _client,
    _exports,
    _night_played,
    assert_exports_show_the_page,
)

IMPORTED_DAY = datetime.date(2026, 9, 10)


@pytest.fixture
def season(club, players) -> Season:
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


def _season_built(club, season) -> dict[str, Player]:
    by_name = {p.name: p for p in Player.objects.filter(club=club)}
    jerome = Player.objects.create(club=club, name="Jérôme Pelletier")
    ann, cat, bob, dan = (by_name[n] for n in ("Ann", "Cat", "Bob", "Dan"))
    # Two table games, played on two days.
    first = play(club, season, [ann, cat, bob, dan], GAME_1)
    second = play(club, season, [jerome, cat, bob, dan], GAME_1)
    Game.objects.filter(pk=first.pk).update(played_on=datetime.date(2026, 9, 17))
    Game.objects.filter(pk=second.pk).update(played_on=datetime.date(2026, 9, 24))
    # A game played before both, typed on paper and imported later: its day comes with it, and
    # "Jerome" is Jérôme once the importer is told so.
    record = game_record(first)
    record["seats"] = ["Jerome Pelletier", "Cat", "Bob", "Dan"]
    record["played_on"] = IMPORTED_DAY.isoformat()
    imported = game_import(
        club=club, record=record, season=season, same={"Jerome Pelletier": str(jerome.pk)}
    )
    assert imported.played_on == IMPORTED_DAY
    assert imported.seats.get(seat=0).player_id == jerome.pk
    _night_played(club, season)
    return {**by_name, "Jérôme Pelletier": jerome}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_season_of_table_games_an_import_and_a_night_adds_up(
    season, club, bob, language, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        people = _season_built(club, season)
    finished = Game.objects.filter(season=season, status=GameStatus.FINISHED)
    # 2 table games + 1 import + 4 tables of the night (2 rounds of 2 tables).
    assert finished.count() == 7
    # The rebuilds were queued by the writes themselves (eager Celery): no manual rebuild.
    snapshot = StandingsSnapshot.objects.get(season=season)
    assert snapshot.games == 7
    assert Player.objects.filter(club=club, name__icontains="Pelletier").count() == 1
    # Each player's games are the finished games they sat at: the import's "Jerome" is Jérôme.
    seated = Counter(
        Seat.objects.filter(game__in=finished, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    assert seated[people["Jérôme Pelletier"].pk] >= 2
    standings = dict(PlayerStanding.objects.filter(season=season).values_list("player_id", "games"))
    assert standings == dict(seated)
    # Every player seated at a counted game (the night's walk-ins too) has a rating from them.
    assert dict(PlayerRating.objects.values_list("player_id", "games")) == dict(seated)
    assert sum(row.draws for row in PlayerStanding.objects.filter(season=season)) == 4

    client = _client(bob, language)
    urls = [reverse(view, args=[club.slug]) for view in VIEWS]
    page = client.get(urls[0])
    assert page.status_code == 200
    updated = re.search(r'id="standings-updated">(.*?)</p>', page.content.decode(), re.S)
    assert updated is not None and re.search(r"\b7\b", updated.group(1))
    for url in urls:
        assert assert_exports_show_the_page(client, url, language) > 0
    before = [_exports(client, url) for url in urls]
    stored = sorted(
        (row.player_id, tuple(row.figures().values()), row.nights, row.night_wins)
        for row in PlayerStanding.objects.filter(season=season)
    )
    points = sorted(RatingPoint.objects.values_list("player_id", "game_id", "seq", "ordinal"))

    # From nothing: no standings, no summaries, no ratings; the same rows and files come out.
    PlayerStanding.objects.all().delete()
    PartnershipStanding.objects.all().delete()
    GameSummary.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert (
        sorted(
            (row.player_id, tuple(row.figures().values()), row.nights, row.night_wins)
            for row in PlayerStanding.objects.filter(season=season)
        )
        == stored
    )
    assert sorted(RatingPoint.objects.values_list("player_id", "game_id", "seq", "ordinal")) == (
        points
    )
    assert [_exports(client, url) for url in urls] == before


def test_the_imported_game_is_rated_in_the_order_it_was_played(
    season, club, django_capture_on_commit_callbacks
) -> None:
    """The imported game was played first: it is the first game of the season's order, so it
    is the first point of every rating history it is in, although it was stored third."""
    with django_capture_on_commit_callbacks(execute=True):
        people = _season_built(club, season)
    imported = Game.objects.get(season=season, played_on=IMPORTED_DAY)
    seqs = dict(RatingPoint.objects.filter(player=people["Cat"]).values_list("game_id", "seq"))
    assert seqs[imported.pk] == min(seqs.values())
