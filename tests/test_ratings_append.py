"""A newly finished game is added to the club's ratings on its own, and the ratings are then
exactly what a rebuild from scratch gives; anything else falls back to the full rebuild."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Club, Season
from leagues.standings import ratings, rebuild
from leagues.standings.derived import ratings_compute
from leagues.standings.models import PlayerRating, RatingPoint, RatingSnapshot
from leagues.standings.summaries import counted_results
from scorecards.models import Game
from scorecards.services import hand_correct
from tests.leagues_helpers import GAME_1, GAME_2, play
from tests.test_standings_summaries import STEPS, Table

pytestmark = pytest.mark.django_db


def stored_ratings(club: Club) -> tuple[dict, dict]:
    final = {
        row.player_id: {
            "mu": row.mu,
            "sigma": row.sigma,
            "ordinal": row.ordinal,
            "games": row.games,
        }
        for row in PlayerRating.objects.filter(club=club)
    }
    points = {
        (p.player_id, p.game_id): (p.seq, p.mu, p.sigma, p.ordinal)
        for p in RatingPoint.objects.filter(player__club=club)
    }
    return final, points


def rebuilt_ratings(club: Club) -> tuple[dict, dict]:
    """The ratings from scratch, from every counted game in order (nothing written)."""
    final, history, _count = ratings_compute(counted_results(club))
    return final, {(a.player_id, a.game_id): (a.seq, a.mu, a.sigma, a.ordinal) for a in history}


def touched(club: Club) -> int | None:
    """The game the last step changed, as the services' hook names it."""
    game = Game.objects.filter(club=club).order_by("-updated_at", "-pk").first()
    return game.pk if game else None


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(first=st.integers(0, 2**32), steps=STEPS)
def test_ratings_after_any_steps_equal_a_rebuild_from_scratch(club, alice, first, steps):
    table = Table(club, alice)
    table.act("start", first)
    table.act("finish", first + 1)
    rebuild.ratings_rebuild(club_id=club.pk)
    for action, seed in [*steps, ("start", first + 2), ("finish", first + 3)]:
        table.act(action, seed)
        rebuild.ratings_rebuild(club_id=club.pk, game_id=touched(club))
        assert stored_ratings(club) == rebuilt_ratings(club), action


def _players(club: Club):
    from leagues.clubs.models import Player

    return {name: Player.objects.create(club=club, name=name) for name in "ABCD"}


def _finished(club: Club, season: Season, players, hands) -> Game:
    game = play(club, season, [players[n] for n in "ABCD"], hands)
    assert game.is_finished
    return game


def test_a_new_game_is_added_on_its_own_and_a_correction_rebuilds(club, alice, monkeypatch):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 1, 1))
    players = _players(club)
    calls = []
    full = ratings.ratings_write

    def spy(club_id, left_out):
        calls.append("full")
        return full(club_id, left_out)

    monkeypatch.setattr(rebuild, "ratings_write", spy)
    first = _finished(club, season, players, GAME_1)
    rebuild.ratings_rebuild(club_id=club.pk, game_id=first.pk)
    assert calls == ["full"]  # nothing to add to yet
    second = _finished(club, season, players, GAME_2)
    rebuild.ratings_rebuild(club_id=club.pk, game_id=second.pk)
    assert calls == ["full"]  # added on its own
    assert RatingSnapshot.objects.get(club=club).games == 2
    assert stored_ratings(club) == rebuilt_ratings(club)
    # A correction of the older game: the whole sequence again.
    hand = first.hands.order_by("number").first()
    hand_correct(game=first, number=hand.number, hand=hand.as_input(), by=alice, reason="typo")
    rebuild.ratings_rebuild(club_id=club.pk, game_id=first.pk)
    assert calls == ["full", "full"]
    assert stored_ratings(club) == rebuilt_ratings(club)


def test_adding_a_game_costs_the_same_queries_whatever_the_season(
    club, django_assert_max_num_queries
):
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 1, 1))
    players = _players(club)
    for size in (2, 8):
        while Game.objects.filter(club=club).count() < size:
            _finished(club, season, players, GAME_1 if size % 2 else GAME_2)
        rebuild.ratings_rebuild(club_id=club.pk)
        game = _finished(club, season, players, GAME_2)
        with django_assert_max_num_queries(14):
            assert ratings.ratings_append(club.pk, game.pk) is not None
        assert stored_ratings(club) == rebuilt_ratings(club)
