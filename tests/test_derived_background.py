"""On the embedded default (Celery eager, no worker) the standings and ratings a finished game
changes are updated after the response, by the web process's background thread
(`leagues.standings.runner`), never inside the request that finished it; and that thread
reconciles at its start and every DERIVED_DATA_RECONCILE_SECONDS, so an update lost to a crash
between the game's commit and its update is repaired within that bound."""

from __future__ import annotations

import datetime
import threading
import time

import pytest

from leagues.clubs.models import Season
from leagues.standings import runner, services
from leagues.standings.models import PlayerStanding, RatingPoint, StandingsSnapshot
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_delta import from_nothing, stored

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def background(settings):
    """The embedded default's thread, on for this test and stopped after it."""
    settings.DERIVED_DATA_BACKGROUND = True
    yield settings
    runner.runner_stop()


@pytest.fixture
def season(club) -> Season:
    return Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))


def test_the_finishing_hand_is_answered_before_the_update_runs(
    background, club, season, players, monkeypatch
):
    background.DERIVED_DATA_RECONCILE_SECONDS = 3600
    took, go = threading.Event(), threading.Event()
    run = runner._run

    def held(**work):
        took.set()
        assert go.wait(10), "the test lets the update go"
        run(**work)

    monkeypatch.setattr(runner, "_run", held)
    ann, cat, bob, dan = players
    game = play(club, season, [ann, cat, bob, dan], GAME_1)  # returns: the hand is answered
    assert game.status == "finished"
    assert took.wait(10), "the game was handed to the background thread"
    # The request is over while the update still waits: nothing is counted yet.
    assert not StandingsSnapshot.objects.filter(season=season).exists()
    go.set()
    assert runner.derived_data_flush(20)
    assert StandingsSnapshot.objects.get(season=season).games == 1
    assert RatingPoint.objects.filter(game=game).count() == 4
    assert PlayerStanding.objects.get(season=season, player=ann).wins == 1
    assert stored(season) == from_nothing(season)


def test_the_games_finished_meanwhile_are_merged_into_one_update(
    background, club, season, players, monkeypatch
):
    background.DERIVED_DATA_RECONCILE_SECONDS = 3600
    ann, cat, bob, dan = players
    play(club, season, [ann, cat, bob, dan], GAME_1)
    assert runner.derived_data_flush(20)
    rounds: list[dict] = []
    go = threading.Event()
    run = runner._run

    def held(**work):
        rounds.append(work)
        go.wait(10)
        run(**work)

    monkeypatch.setattr(runner, "_run", held)
    play(club, season, [ann, bob, cat, dan], GAME_2)  # taken at once, held
    deadline = time.monotonic() + 10
    while not rounds and time.monotonic() < deadline:
        time.sleep(0.01)
    play(club, season, [dan, bob, cat, ann], GAME_1)  # waits behind it...
    play(club, season, [cat, dan, ann, bob], GAME_2)  # ...with this one: merged
    go.set()
    assert runner.derived_data_flush(20)
    assert len(rounds) == 2
    assert [len(games) for games in rounds[1]["season_games"].values()] == [2]
    assert StandingsSnapshot.objects.get(season=season).games == 4
    assert stored(season) == from_nothing(season)


def test_an_update_lost_in_a_crash_is_repaired_when_the_process_starts_again(
    background, club, season, players, monkeypatch
):
    ann, cat, bob, dan = players
    play(club, season, [ann, cat, bob, dan], GAME_1)
    assert runner.derived_data_flush(20)
    runner.runner_stop()
    # The process dies between the commit of the finishing hand and its update.
    monkeypatch.setattr(services.runner, "hand_off", lambda **work: None)
    play(club, season, [ann, bob, cat, dan], GAME_2)
    monkeypatch.undo()
    assert StandingsSnapshot.objects.get(season=season).games == 1
    # Started again: the first request wakes the thread, whose first turn reconciles.
    runner._request_started()
    assert runner.derived_data_flush(20)
    assert StandingsSnapshot.objects.get(season=season).games == 2
    assert stored(season) == from_nothing(season)


def test_a_lost_update_is_repaired_within_the_reconciliation_interval(
    background, club, season, players, monkeypatch
):
    background.DERIVED_DATA_RECONCILE_SECONDS = 1
    ann, cat, bob, dan = players
    play(club, season, [ann, cat, bob, dan], GAME_1)
    assert runner.derived_data_flush(20)
    # Lost while the process runs on (a failed hand-off): nothing but the period repairs it.
    monkeypatch.setattr(services.runner, "hand_off", lambda **work: None)
    play(club, season, [ann, bob, cat, dan], GAME_2)
    monkeypatch.undo()
    lost = time.monotonic()
    while StandingsSnapshot.objects.get(season=season).games != 2:
        assert time.monotonic() - lost < 1 + 5, "repaired within the interval (and a rebuild)"
        time.sleep(0.05)
    assert runner.derived_data_flush(20)
    assert stored(season) == from_nothing(season)
