"""Every rated game of a season explained from the stored ratings: the shown change is the
difference of the stored ordinals before and after, the share taken is the stored scores'
share, par is OpenSkill's prediction from the stored ratings before the game, and a win never
lowers the shown rating (`limit_sigma`)."""

from __future__ import annotations

import datetime
import random

import pytest
from openskill.models import PlackettLuce

from leagues.clubs.models import Player, Season
from leagues.demo import demo_game_play
from leagues.standings import rebuild
from leagues.standings.derived import rating_model, ratings_compute
from leagues.standings.explain import (
    PROVISIONAL_GAMES,
    GameExplained,
    RatingValue,
    game_explain,
    points_share,
)
from leagues.standings.models import GameSummary, PlayerRating, RatingPoint
from leagues.standings.player_ratings import (
    explanation_text,
    player_explanations,
    player_rating_points,
)
from leagues.standings.ratings import ratings_append
from leagues.standings.summaries import counted_results
from scorecards.rules import rules_build
from scorecards.services import game_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def played(club, season, players):
    """Twelve games of six players (and a guest in one), random seats and hands."""
    everyone = [*players, *(Player.objects.create(club=club, name=n) for n in ("Eve", "Fay"))]
    rng = random.Random(22)
    rules = rules_build({"preset": "standard"})
    for number in range(12):
        seats: list = rng.sample(everyone, 4)
        if number == 5:
            seats[3] = "Guest"
        game = game_start(seats=seats, rules=rules, club=club, season=season)
        demo_game_play(game, rng)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    return everyone


def _share(scores: list[int], side: int) -> float:
    above = [max(s, 0) for s in scores]
    return above[side] / sum(above) if sum(above) else 1 / len(scores)


@pytest.mark.parametrize("appended", [False, True])
def test_every_game_of_a_season_is_explained_by_the_stored_ratings(club, season, played, appended):
    if appended:
        # A game added on its own on top of the stored ratings (ratings_append) is explained
        # the same way.
        game = game_start(seats=played[:4], rules=rules_build({"preset": "standard"}), club=club)
        game.season = season
        game.save()
        demo_game_play(game, random.Random(5))
        rebuild.standings_rebuild(season_id=season.pk)
        assert ratings_append(club.pk, game.pk) is not None
    model = PlackettLuce(limit_sigma=True)
    summaries = {s.game_id: s for s in GameSummary.objects.filter(game__season=season)}
    stored = list(RatingPoint.objects.filter(player__club=club).order_by("seq"))
    assert {p.game_id for p in stored} == set(summaries)
    checked = wins = 0
    for player in played:
        points = player_rating_points(player)
        explained = player_explanations(player, points)
        assert set(explained) == {p.game_id for p in points}
        previous_ordinal = 0.0  # a new rating: mu 25 - 3 x 25/3
        for number, point in enumerate(points, 1):
            line = explained[point.game_id]
            summary = summaries[point.game_id]
            side = next(
                i
                for i, seats in enumerate(summary.sides)
                if player.pk in [summary.players[s] for s in seats]
            )
            assert line.side == side
            assert line.change == pytest.approx(point.ordinal - previous_ordinal, abs=1e-9)
            assert line.took == pytest.approx(_share(summary.scores, side))
            assert line.won == (None if summary.winner is None else summary.winner == side)
            assert line.provisional == (number < PROVISIONAL_GAMES)

            # Par from every seat's stored rating right before the game, found here by a walk.
            def before(pk, seq=point.seq):
                last = [p for p in stored if p.player_id == pk and p.seq < seq]
                return (
                    model.rating(mu=last[-1].mu, sigma=last[-1].sigma) if last else model.rating()
                )

            teams = [[before(summary.players[s]) for s in seats] for seats in summary.sides]
            assert line.par == pytest.approx(model.predict_win(teams)[side])
            if line.won:
                wins += 1
                assert line.change >= 0
            previous_ordinal = point.ordinal
            checked += 1
    assert checked == sum(1 for s in summaries.values() for pk in s.players if pk) and wins


def test_the_stored_ratings_are_the_models(club, season, played):
    final, _history, count = ratings_compute(counted_results(club))
    assert count == GameSummary.objects.filter(game__season=season).count()
    for row in PlayerRating.objects.filter(club=club):
        assert row.ordinal == pytest.approx(final[row.player_id]["ordinal"])
    assert rating_model().limit_sigma


def test_limit_sigma_is_what_keeps_a_favourites_win_from_lowering_the_rating():
    """A clear favourite with a settled rating wins: without limit_sigma its ordinal drops a
    little (tau widens sigma first); with it, never."""
    for limit, drops in ((False, True), (True, False)):
        model = PlackettLuce(limit_sigma=limit)
        strong = [model.rating(mu=40, sigma=1), model.rating(mu=40, sigma=1)]
        weak = [model.rating(mu=10, sigma=1), model.rating(mu=10, sigma=1)]
        after = model.rate([strong, weak], ranks=[0, 1])
        assert (after[0][0].ordinal() < strong[0].ordinal()) is drops
    model = rating_model()
    rng = random.Random(3)
    for _ in range(500):
        teams = [
            [model.rating(mu=rng.uniform(0, 50), sigma=rng.uniform(0.5, 9)) for _ in range(2)]
            for _ in range(rng.choice((2, 3)))
        ]
        ranks: list[float] = [0, *sorted(rng.choice((1, 2)) for _ in teams[1:])]
        after = model.rate(teams, ranks=ranks)
        for before, rated in zip(teams[0], after[0], strict=True):
            assert rated.ordinal() >= before.ordinal() - 1e-12


@pytest.mark.parametrize(
    ("scores", "side", "share"),
    [([52, 13], 0, 0.8), ([52, -10], 0, 1.0), ([-5, -20], 1, 0.5), ([0, 0], 0, 0.5)],
)
def test_points_share_counts_scores_below_zero_as_none(scores, side, share):
    assert points_share(scores, side) == pytest.approx(share)


def test_the_explanation_in_words():
    model = rating_model()
    fresh = RatingValue(25.0, 25 / 3, 0.0)
    line = game_explain(
        model,
        game_id=1,
        player=1,
        players=[1, 3, 2, 4],
        sides=[[0, 2], [1, 3]],
        scores=[57, 23],
        winner=0,
        before={1: fresh, 2: fresh, 3: fresh, 4: fresh},
        after=RatingValue(27.0, 7.5, 4.5),
        number=1,
    )
    assert isinstance(line, GameExplained) and line.par == pytest.approx(0.5)
    assert explanation_text(line, ["Cat"], ["Bob", "Dan"], "Ann", you=True) == (
        "You and Cat were expected to take 50% of the points against Bob and Dan; "
        "you took 71%: +4.5"
    )
    assert explanation_text(line, ["Cat"], ["Bob", "Dan"], "Ann", you=False) == (
        "Ann and Cat were expected to take 50% of the points against Bob and Dan, "
        "and took 71%: +4.5"
    )
