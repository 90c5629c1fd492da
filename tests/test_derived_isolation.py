"""Derived data cannot be frozen: a season whose data makes the engine (or the write) raise is
isolated and recorded, every other season and club goes on, `standings_rebuild --all` finishes
and lists what failed, directors see it on the standings page; a game deleted in the admin
leaves the standings and ratings."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import DataError, IntegrityError, OperationalError
from django.urls import reverse

from leagues.clubs import services as club_services
from leagues.clubs.models import Season
from leagues.standings import rebuild, tasks
from leagues.standings import services as standings_services
from leagues.standings.models import (
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RebuildFailure,
    RebuildKind,
    StandingsSnapshot,
)
from scorecards.models import Game
from scorecards.services import games_delete
from tests.conftest import client_for
from tests.leagues_helpers import GAME_1, play, two_games


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


@pytest.fixture
def seasons(club):
    return [
        Season.objects.create(club=club, name=name, starts_on=datetime.date(2026, 9, 1))
        for name in ("Autumn", "Winter")
    ]


def _break_rules(game: Game) -> None:
    """Stored rules the engine refuses: as a game started before a bound existed would be."""
    Game.objects.filter(pk=game.pk).update(rules={"preset": "standard", "seats": 99})


def _wins(season: Season) -> dict[str, int]:
    return {
        row.player.name: row.wins
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }


def test_a_game_the_engine_raises_on_is_left_out_and_reported(club, seasons, by_name):
    autumn, winter = seasons
    first, _second = two_games(club, autumn, by_name)
    play(club, winter, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    _break_rules(first)
    rebuild.standings_rebuild(season_id=autumn.pk)
    rebuild.standings_rebuild(season_id=winter.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    # The autumn standings count the game that can be scored (Bob and Dan won it) ...
    assert _wins(autumn) == {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 1}
    assert StandingsSnapshot.objects.get(season=autumn).games == 1
    failure = RebuildFailure.objects.get(kind=RebuildKind.STANDINGS, season=autumn)
    assert [item["game"] for item in failure.games_left_out] == [first.pk]
    assert "seats" in failure.games_left_out[0]["error"]
    # ... the winter season is untouched by it, the club's ratings count the two good games.
    assert _wins(winter) == {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0}
    assert not RebuildFailure.objects.filter(season=winter).exists()
    assert RebuildFailure.objects.filter(kind=RebuildKind.RATINGS, club=club).exists()
    assert PlayerRating.objects.get(player=by_name["Ann"]).games == 2
    # Once the game is mended, the next rebuild counts it and the notes go.
    Game.objects.filter(pk=first.pk).update(rules={"preset": "standard"})
    rebuild.standings_rebuild(season_id=autumn.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert _wins(autumn) == {"Ann": 1, "Bob": 2, "Cat": 0, "Dan": 1}
    assert not RebuildFailure.objects.exists()


def test_a_season_whose_rebuild_raises_keeps_its_last_standings(
    club, seasons, by_name, monkeypatch
):
    autumn, winter = seasons
    two_games(club, autumn, by_name)
    play(club, winter, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    rebuild.standings_rebuild(season_id=autumn.pk)
    before = _wins(autumn)
    real = rebuild.standings_compute

    def overflowing(games):
        players, pairs, count, hands = real(games)
        if count == 2:  # the autumn season (two games); winter has one
            raise DataError("integer out of range")
        return players, pairs, count, hands

    monkeypatch.setattr(rebuild, "standings_compute", overflowing)
    assert rebuild.standings_rebuild(season_id=autumn.pk) is None
    assert _wins(autumn) == before  # the last good standings stay
    failure = RebuildFailure.objects.get(season=autumn)
    assert failure.error == "DataError: integer out of range"
    assert rebuild.standings_rebuild(season_id=winter.pk) is not None
    # A failed season is not retried by reconciliation until one of its games changes.
    stale_seasons, _clubs = standings_services.derived_data_stale()
    assert autumn.pk not in stale_seasons


def test_rebuild_all_finishes_and_lists_what_failed(club, seasons, by_name, monkeypatch):
    autumn, winter = seasons
    two_games(club, autumn, by_name)
    play(club, winter, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    other_owner = get_user_model().objects.create_user("olga")
    other = club_services.club_create(name="Saskatoon", owner=other_owner)
    later = Season.objects.create(club=other, name="Later", starts_on=datetime.date(2026, 9, 1))
    real = rebuild._standings_write

    def failing(season_id, left_out):
        if season_id == autumn.pk:
            raise ZeroDivisionError("degenerate rules")
        if season_id == winter.pk:
            raise OperationalError("database is locked")
        return real(season_id, left_out)

    monkeypatch.setattr(rebuild, "_standings_write", failing)
    with pytest.raises(CommandError, match="2 rebuild"):
        call_command("standings_rebuild", "--all", stdout=(out := _Out()))
    text = out.text
    assert "rebuilt standings of 3 season(s) and ratings of 2 club(s)" in text
    assert f"season {autumn.pk} “Autumn” of club regina: ZeroDivisionError: degenerate" in text
    assert "OperationalError: database is locked" in text
    # Everything after the failing seasons was rebuilt.
    assert StandingsSnapshot.objects.filter(season=later).exists()
    assert PlayerRating.objects.filter(club=club).count() == 4
    assert set(RebuildFailure.objects.values_list("season_id", flat=True)) == {
        autumn.pk,
        winter.pk,
    }


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_directors_see_a_failed_rebuild_on_the_standings_page(
    club, seasons, by_name, alice, as_bob, django_assert_max_num_queries
):
    autumn, _winter = seasons
    first, _second = two_games(club, autumn, by_name)
    _break_rules(first)
    rebuild.standings_rebuild(season_id=autumn.pk)
    url = reverse("standings", args=[club.slug])
    director = client_for(alice)
    with django_assert_max_num_queries(11):
        page = director.get(url, {"season": autumn.pk}).content.decode()
    assert "standings could not be fully rebuilt" in page
    assert reverse("game_sheet", args=[first.pk]) in page
    # A member who runs nothing is not bothered with it.
    assert "could not be fully rebuilt" not in as_bob.get(url).content.decode()


def test_transient_errors_are_retried_and_data_errors_are_not():
    assert OperationalError in tasks.RETRY_ON
    assert DataError not in tasks.RETRY_ON and IntegrityError not in tasks.RETRY_ON
    assert not any(issubclass(DataError, kind) for kind in tasks.RETRY_ON)


def test_deleting_a_finished_game_in_the_admin_leaves_the_standings_and_ratings(
    club, seasons, by_name, django_capture_on_commit_callbacks
):
    autumn, _winter = seasons
    first, second = two_games(club, autumn, by_name)
    rebuild.standings_rebuild(season_id=autumn.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    admin = get_user_model().objects.create_superuser("root", password="x" * 12)
    client = client_for(admin)
    url = reverse("admin:scorecards_game_delete", args=[second.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert _wins(autumn) == {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0}
    assert PlayerRating.objects.get(player=by_name["Ann"]).games == 1
    assert not RatingPoint.objects.filter(game_id=second.pk).exists()
    # The bulk action too, down to a season with no game left.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("admin:scorecards_game_changelist"),
            {"action": "delete_selected", "_selected_action": [first.pk], "post": "yes"},
        )
    assert not Game.objects.exists()
    assert PlayerStanding.objects.filter(season=autumn).count() == 0
    assert PlayerRating.objects.filter(club=club).count() == 0
    assert standings_services.derived_data_stale() == ([], [])


def test_a_deletion_missed_by_the_broker_is_caught_by_reconciliation(club, seasons, by_name):
    autumn, _winter = seasons
    first, second = two_games(club, autumn, by_name)
    rebuild.standings_rebuild(season_id=autumn.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert standings_services.derived_data_stale() == ([], [])
    # The rebuild queued on commit never runs (the test transaction never commits): as with a
    # broker that is down, reconciliation must still see the season and club stale.
    games_delete(games=[first, second])
    assert standings_services.derived_data_stale() == ([autumn.pk], [club.pk])
    rebuild.derived_data_rebuild_all()
    assert PlayerStanding.objects.filter(season=autumn).count() == 0
    assert standings_services.derived_data_stale() == ([], [])


def test_a_failed_update_by_one_game_names_its_season_and_records_its_club(
    club, seasons, by_name, monkeypatch, caplog
):
    autumn, _winter = seasons
    two_games(club, autumn, by_name)
    game = Game.objects.filter(season=autumn).order_by("pk").last()

    def broken(season_id, game_ids):
        raise DataError("integer out of range")

    monkeypatch.setattr(rebuild, "standings_update", broken)
    # Then the whole season is counted again, which works: only the update is reported.
    monkeypatch.setattr(rebuild, "_standings_write", lambda season, left_out: None)
    with caplog.at_level("ERROR", logger=rebuild.log.name):
        rebuild.standings_rebuild(season_id=autumn.pk, game_ids=[game.pk])
    assert f"the standings rebuild of season {autumn.pk} failed" in caplog.text
    assert "None" not in caplog.text
    failure = RebuildFailure.objects.get(season=autumn)
    assert (failure.club_id, failure.error) == (club.pk, "DataError: integer out of range")
