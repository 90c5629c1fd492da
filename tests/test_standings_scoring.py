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
from leagues.standings.derived import COUNTERS, games_scored
from leagues.standings.summaries import summary_of
from scorecards.models import Game
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_summaries import Table

pytestmark = pytest.mark.django_db
FIELDS = ("players", "sides", "winner", "scores", "hands", "seat_counts", "side_counts")


def summaries(scored) -> dict:
    return {
        game.pk: {name: getattr(summary_of(game, "v", players, score), name) for name in FIELDS}
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


def test_each_counter_is_in_the_place_of_its_name(club, players):
    """A summary's rows of counters, read by name (COUNTERS' order), hold what each name says,
    tallied here from the general path's hands: a counter written in another's place fails."""
    ann, cat, bob, dan = players
    games = [
        play(club, None, [ann, cat, bob, dan], GAME_1),
        play(club, None, [ann, bob, cat, dan], GAME_2),
    ]
    fast = summaries(scoring.games_scored_fast(games, []))
    for game, _players, score in games_scored(games, []):
        played = [hand for hand in score.hands if not hand.thrown_in]
        sides = score.rules.sides
        side_of = {seat: side for side, seats in enumerate(sides) for seat in seats}
        set_on = [sum(1 for h in played if h.side == side and not h.made) for side in range(2)]
        for seat, row in enumerate(fast[game.pk]["seat_counts"]):
            mine = [hand for hand in played if hand.bidder == seat]
            assert dict(zip(COUNTERS, row, strict=True)) == {
                "games": 1,
                "wins": int(score.winner == side_of[seat]),
                "draws": 0,
                "hands": len(played),
                "bids_attempted": len(mine),
                "bids_made": sum(1 for hand in mine if hand.made),
                "nt_bids_made": sum(1 for hand in mine if hand.made and hand.kind == "no"),
                "kaisers": 0,
                "times_set": set_on[side_of[seat]],
                "pot_balance": 0,
            }
        for side, row in enumerate(fast[game.pk]["side_counts"]):
            named = dict(zip(COUNTERS, row, strict=True))
            seats = [fast[game.pk]["seat_counts"][seat] for seat in sides[side]]
            assert named["wins"] == int(score.winner == side)
            assert named["times_set"] == set_on[side]
            for name in ("bids_attempted", "bids_made", "nt_bids_made"):
                place = COUNTERS.index(name)
                assert named[name] == sum(seat_row[place] for seat_row in seats), name
    # GAME_2's no-trump bids: some made, some set (the counters differ from seat to seat).
    rows = fast[games[1].pk]["seat_counts"]
    assert len({tuple(row) for row in rows}) > 1
