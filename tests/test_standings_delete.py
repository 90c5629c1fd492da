"""A deleted game leaves a season's standings by an update of its players' and partnerships'
rows alone (`leagues.standings.gone`), the same statements in a season of a few games and of
many, equal to a rebuild from nothing; a deletion whose update is lost is repaired by the
reconciliation; a rebuild that read the games while one was deleted stores nothing; and a
game never rated leaves the ratings as they are."""

from __future__ import annotations

import datetime
import itertools
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild, services, summaries, tasks
from leagues.standings.models import (
    GameSummary,
    PlayerStanding,
    RatingSnapshot,
    StandingsSnapshot,
)
from scorecards.models import GameStatus
from scorecards.rules import rules_build
from scorecards.services import game_start, games_delete, hand_record
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_delta import from_nothing, paths, stored  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def _season(club, players, capture, games: int) -> tuple[Season, list]:
    """A season of `games` finished games (the players' seats turning), its standings and
    ratings current."""
    name = f"{games} games"
    season = Season.objects.create(club=club, name=name, starts_on=datetime.date(2026, 9, 1))
    played = []
    for number in range(games):
        seats = players[number % 4 :] + players[: number % 4]
        with capture(execute=True):
            played.append(play(club, season, seats, GAME_1 if number % 3 else GAME_2))
    return season, played


def test_a_deleted_game_is_taken_off_by_an_update_not_a_rebuild(
    club,
    players,
    django_capture_on_commit_callbacks,
    paths,  # noqa: F811
):
    season, played = _season(club, players, django_capture_on_commit_callbacks, 4)
    before = Counter(paths)
    ann = players[0]
    wins = PlayerStanding.objects.get(season=season, player=ann).games
    with django_capture_on_commit_callbacks(execute=True):
        games_delete(games=[played[1]])
    assert paths["delta"] - before["delta"] == 1
    assert paths["full"] == before["full"]
    snapshot = StandingsSnapshot.objects.get(season=season)
    assert (snapshot.games, snapshot.gone) == (3, None)
    assert PlayerStanding.objects.get(season=season, player=ann).games == wins - 1
    assert stored(season) == from_nothing(season)
    # The other games' summaries stay: the next change is an update again.
    assert GameSummary.objects.filter(game__season=season).count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        games_delete(games=[played[0], played[3]])
    assert paths["delta"] - before["delta"] == 2 and paths["full"] == before["full"]
    assert stored(season) == from_nothing(season)
    assert StandingsSnapshot.objects.get(season=season).games == 1


def _delete_costs(club, players, capture, monkeypatch, games: int) -> tuple[int, int]:
    """The statements of the deleting request and of the standings update it queues, when a
    finished game of a season of `games` is deleted (a rebuild from nothing fails the test)."""
    season, played = _season(club, players, capture, games)
    gone = played[-2]
    with monkeypatch.context() as patched:
        patched.setattr(rebuild, "_standings_write", _never)
        # (Its hand-off not run: the ratings' rebuild it queues is not measured.)
        with CaptureQueriesContext(connection) as request, capture(execute=False):
            games_delete(games=[gone])
        with CaptureQueriesContext(connection) as update:
            rebuild.standings_rebuild(season_id=season.pk, game_ids=[gone.pk])
    assert stored(season) == from_nothing(season)
    return len(request.captured_queries), len(update.captured_queries)


def _never(season_id, left_out):
    raise AssertionError("rebuilt from nothing")


def test_a_deletion_costs_the_same_statements_whatever_the_size_of_the_season(
    club, players, django_capture_on_commit_callbacks, monkeypatch
):
    """The deleting request and the update after it, in a season of 4 games and one of 24:
    the same statements, and never the rebuild from nothing."""
    small = _delete_costs(club, players, django_capture_on_commit_callbacks, monkeypatch, 4)
    large = _delete_costs(club, players, django_capture_on_commit_callbacks, monkeypatch, 24)
    assert small == large


def test_a_deletion_whose_update_is_lost_is_repaired_by_the_reconciliation(
    club, players, django_capture_on_commit_callbacks
):
    season, played = _season(club, players, django_capture_on_commit_callbacks, 3)
    # The process dies between the deletion's commit and its update.
    with django_capture_on_commit_callbacks(execute=False):
        games_delete(games=[played[0]])
    assert StandingsSnapshot.objects.get(season=season).games == 3  # wrong: two count
    assert season.pk in services.derived_data_stale()[0]
    tasks.derived_data_reconcile()
    snapshot = StandingsSnapshot.objects.get(season=season)
    assert (snapshot.games, snapshot.gone) == (2, None)
    assert stored(season) == from_nothing(season)
    assert services.derived_data_stale() == ([], [])


def test_a_rebuild_reading_while_a_game_is_deleted_stores_nothing(
    club, players, django_capture_on_commit_callbacks, monkeypatch
):
    """A rebuild that read the games before a deletion committed may count the deleted game:
    it stores nothing, and the deletion's update leaves the rows right."""
    season, played = _season(club, players, django_capture_on_commit_callbacks, 3)
    read = summaries.counted_results
    queued: list = []

    def read_then_delete(*args, **kwargs):
        results = read(*args, **kwargs)
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            games_delete(games=[played[1]])  # commits while the rebuild holds its reading
        queued.extend(callbacks)
        return results

    monkeypatch.setattr(rebuild, "counted_results", read_then_delete)
    assert rebuild.standings_rebuild(season_id=season.pk) is None
    monkeypatch.setattr(rebuild, "counted_results", read)
    assert StandingsSnapshot.objects.get(season=season).games == 3  # as before the deletion
    for callback in queued:
        callback()
    assert StandingsSnapshot.objects.get(season=season).games == 2
    assert stored(season) == from_nothing(season)


def test_a_game_never_rated_leaves_the_ratings_and_one_rated_rebuilds_them(
    club, players, django_capture_on_commit_callbacks
):
    season, played = _season(club, players, django_capture_on_commit_callbacks, 2)
    rated_at = RatingSnapshot.objects.get(club=club).computed_at
    playing = game_start(
        seats=players, rules=rules_build({"preset": "standard"}), club=club, season=season
    )
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(game=playing, hand=GAME_1[0])
    assert playing.status == GameStatus.IN_PROGRESS
    with django_capture_on_commit_callbacks(execute=True):
        games_delete(games=[playing])
    assert RatingSnapshot.objects.get(club=club).computed_at == rated_at
    with django_capture_on_commit_callbacks(execute=True):
        games_delete(games=[played[0]])
    assert RatingSnapshot.objects.get(club=club).computed_at > rated_at
    assert StandingsSnapshot.objects.get(season=season).games == 1
    assert stored(season) == from_nothing(season)


counter = itertools.count()
GAMES = st.lists(
    st.tuples(st.permutations(range(6)), st.sampled_from((0, 1, 2)), st.integers(0, 4)),
    min_size=2,
    max_size=8,
)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(games=GAMES, data=st.data())
def test_deletions_in_any_order_equal_a_rebuild_from_nothing(
    club, django_capture_on_commit_callbacks, games, data
):
    """Games finished or not, on various days, deleted a few at a time, some deletions' update
    lost (the next one, or the reconciliation, takes them off): after each, the standings
    equal a rebuild from nothing."""
    n = next(counter)
    season = Season.objects.create(
        club=club, name=f"Deletions {n}", starts_on=datetime.date(2026, 9, 1)
    )
    people = [Player.objects.create(club=club, name=f"D{n}-{i}") for i in range(6)]
    played = []
    for order, hands, day in games:
        with django_capture_on_commit_callbacks(execute=True):
            game = game_start(
                seats=[people[i] for i in order[:4]],
                rules=rules_build({"preset": "standard"}),
                club=club,
                season=season,
                played_on=datetime.date(2026, 10, 1 + day),
            )
            for hand in (GAME_1, GAME_2, GAME_1[:3])[hands]:
                hand_record(game=game, hand=hand)
        played.append(game)
    lost = False
    while played:
        chosen = data.draw(st.lists(st.sampled_from(played), min_size=1, max_size=3, unique=True))
        lose = data.draw(st.booleans())
        with django_capture_on_commit_callbacks(execute=not lose):
            games_delete(games=chosen)
        played = [game for game in played if game not in chosen]
        lost = lost or lose
        if not lose:
            assert stored(season) == from_nothing(season)
            lost = False
    if lost:
        tasks.derived_data_reconcile()
    assert stored(season) == from_nothing(season)
    assert StandingsSnapshot.objects.filter(season=season, gone__isnull=False).count() == 0
    event(f"repaired by the reconciliation: {'yes' if lost else 'no'}")
