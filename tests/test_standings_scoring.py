"""The summaries scored by the engine's fast path for whole records
(`leagues.standings.scoring`) are those of the general path (`derived.games_scored`), whatever
the games hold (rules, guests, corrections, undos, games not finished); and the fast path does
take the common game."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.standings import scoring
from leagues.standings.derived import games_scored
from leagues.standings.summaries import _summary_of
from scorecards.models import Game
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_summaries import Table

pytestmark = pytest.mark.django_db
FIELDS = ("players", "sides", "winner", "scores", "hands", "seat_counts", "side_counts")


def summaries(scored) -> dict:
    return {
        game.pk: {name: getattr(_summary_of(game, "v", players, score), name) for name in FIELDS}
        for game, players, score in scored
    }


def both(games: list[Game]) -> tuple[dict, dict]:
    fast_left: list = []
    slow_left: list = []
    fast = summaries(scoring.games_scored_fast(games, fast_left))
    slow = summaries(games_scored(games, slow_left))
    assert fast_left == slow_left
    return fast, slow


ACTIONS = ("start", "hand", "finish", "finish", "correct", "undo", "abandon")


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seeds=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**32)), max_size=12))
def test_the_fast_path_gives_the_general_paths_summaries(club, alice, seeds):
    table = Table(club, alice)
    for action, seed in itertools.chain([("start", 1), ("finish", 2)], seeds):
        table.act(action, seed)
    games = list(Game.objects.filter(season=table.season).order_by("pk"))
    fast, slow = both(games)
    assert fast == slow


def test_the_fast_path_takes_the_common_game(club, players, monkeypatch):
    ann, cat, bob, dan = players
    games = [
        play(club, None, [ann, cat, bob, dan], GAME_1),
        play(club, None, [ann, bob, cat, dan], GAME_2),
    ]
    general = []
    monkeypatch.setattr(
        scoring, "games_scored", lambda batch, left_out: general.extend(batch) or iter(())
    )
    fast = summaries(scoring.games_scored_fast(games, []))
    assert general == []
    assert fast[games[0].pk]["winner"] == 0
    assert fast[games[0].pk]["scores"] == [63, 2]
    assert fast[games[1].pk]["scores"] == [-54, 14]
