"""Standings rebuilt from the per-game summaries stay exactly what scoring every hand of every
counted game again gives, whatever happened to the games in between (finishes, corrections,
undos, confirmations with confirmation required or not, abandons, deletions); and a rebuild
costs the same number of queries whatever the number of games."""

from __future__ import annotations

import contextlib
import datetime
import itertools
import random
from collections import defaultdict

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Club, Player, Season
from leagues.clubs.services import club_settings_update
from leagues.standings import rebuild, summaries
from leagues.standings.derived import (
    COUNTERS,
    KAISER_KINDS,
    CountedGame,
    GameResult,
    counted_games,
)
from leagues.standings.figures import Figures
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerStanding,
    StandingsSnapshot,
)
from scorecards.models import Game, GameStatus
from scorecards.rules import NO_TRUMP_KINDS, HandInput, KaiserError, Rules, rules_build
from scorecards.services import (
    HandRefused,
    game_abandon,
    game_delete,
    game_start,
    games_delete,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
    seat_claim,
)
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db
FIGURES = PlayerStanding.FIGURES


# The standings as they were computed before summaries: every hand of every counted game fed
# to the engine at each rebuild, counted hand by hand. Kept here as the reference.
def _reference_count(figures: Figures, game: CountedGame, seats: tuple, side: int) -> None:
    score = game.score
    # The day a game counts on: its own, else the day it finished where the club is.
    played_on = Game.objects.get(pk=game.game_id).played_on
    day = played_on or timezone.localtime(game.finished_at).date()
    figures.last_played = max(filter(None, (figures.last_played, day)))
    figures.last_game = game.game_id  # (the games come in game order)
    won = score.winner == side
    figures.games += 1
    figures.wins += won
    figures.results.append(won)
    figures.points_for += score.scores[side]
    figures.points_against += sum(s for other, s in enumerate(score.scores) if other != side)
    for hand in score.hands:
        if hand.thrown_in:
            continue
        figures.hands += 1
        if hand.side == side and not hand.made:
            figures.times_set += 1
        if hand.bidder in seats:
            figures.bids_attempted += 1
            if hand.made:
                figures.bids_made += 1
                figures.nt_bids_made += hand.kind in NO_TRUMP_KINDS
                figures.kaisers += hand.kind in KAISER_KINDS


def reference_standings(club: Club, season: Season) -> tuple[dict, dict, int, int]:
    players: dict = defaultdict(Figures)
    pairs: dict = defaultdict(Figures)
    games = hands = 0
    for game in counted_games(club, season):
        games += 1
        hands += len(game.score.hands)
        for side, side_seats in enumerate(game.score.rules.sides):
            for seat in side_seats:
                if game.players[seat] is not None:
                    _reference_count(players[game.players[seat]], game, (seat,), side)
            if len(side_seats) == 2:
                first, second = (game.players[seat] for seat in side_seats)
                if first is not None and second is not None:
                    key = (min(first, second), max(first, second))
                    _reference_count(pairs[key], game, side_seats, side)
    return (
        # The pot balances are compared in tests/test_standings_counted.py.
        {key: figures.as_row(player=False) for key, figures in players.items()},
        {key: figures.as_row(player=False) for key, figures in pairs.items()},
        games,
        hands,
    )


def stored_standings(season: Season) -> tuple[dict, dict, int, int]:
    players = {
        row.player_id: {**row.figures(), "last_game": row.last_game}
        for row in PlayerStanding.objects.filter(season=season)
    }
    pairs = {
        (row.first_id, row.second_id): {**row.figures(), "last_game": row.last_game}
        for row in PartnershipStanding.objects.filter(season=season)
    }
    snapshot = StandingsSnapshot.objects.get(season=season)
    return players, pairs, snapshot.games, snapshot.hands


def a_hand(rng: random.Random, rules: Rules) -> HandInput:
    """A random hand of `rules` (the engine may still refuse it): throw-ins, no-trump and
    kaiser bids, made and set."""
    if rng.random() < 0.08:
        return HandInput(thrown_in=True)
    kinds = rules.kinds_allowed()
    kind = rng.choice(kinds) if rng.random() < 0.4 else "trump"
    bid = {"kaiser": 12, "kaiser40": 40}.get(kind) or rng.randint(rules.min_bid, 10)
    bidder = rng.randrange(rules.seats)
    taken = rng.randint(0, rules.tricks_per_hand)
    made_kaiser = kind == "kaiser" and rng.random() < 0.6
    if made_kaiser:
        taken = rules.tricks_per_hand - 1  # 7 tricks and the five of hearts make 12 points
    tricks = [0] * rules.side_count
    tricks[rules.side_of(bidder)] = taken
    for _trick in range(rules.tricks_per_hand - taken):
        others = [s for s in range(rules.side_count) if s != rules.side_of(bidder)]
        tricks[rng.choice(others)] += 1
    holders = [side for side, count in enumerate(tricks) if count]
    five, three = rng.choice(holders), rng.choice(holders)
    if made_kaiser:
        five, three = rules.side_of(bidder), next(s for s in holders if s != five)
    return HandInput(
        bidder=bidder,
        bid=bid,
        kind=kind,
        tricks=tuple(tricks),
        five_hearts=five,
        three_spades=three,
    )


def _enter(game: Game, rng: random.Random) -> bool:
    """Enter one hand the engine accepts (a few tries); False if the game takes none."""
    rules = game.rules_value
    for _try in range(30):
        try:
            hand_record(game=game, hand=a_hand(rng, rules))
            return True
        except (KaiserError, HandRefused):
            continue
    return False


RULES = [
    rules_build({"preset": "lost-heir"}),  # pairs to 25: games finish in a few hands
    rules_build({"preset": "three-player"}),  # three sides of one
    rules_build({"preset": "standard", "target": 21, "lose_at": -21, "kaiser_bid": "team"}),
]
ACTIONS = (
    "start",
    "hand",
    "finish",
    "correct",
    "undo",
    "confirm",
    "confirm_all",
    "confirmation_switch",
    "abandon",
    "delete",
    "player_delete",
)
counter = itertools.count()


class Table:
    """One example's season and what acts on it through the services."""

    def __init__(self, club: Club, owner) -> None:
        n = next(counter)
        self.club = club
        self.owner = owner
        self.season = Season.objects.create(
            club=club, name=f"Season {n}", starts_on=datetime.date(2026, 9, 1)
        )
        self.players = [Player.objects.create(club=club, name=f"P{n}-{i}") for i in range(6)]

    def games(self) -> list[Game]:
        return list(Game.objects.filter(season=self.season).order_by("pk"))

    def act(self, action: str, seed: int) -> None:
        rng = random.Random(seed)
        games = self.games()
        game = rng.choice(games) if games else None
        # Refused: nothing changed, which the comparison checks all the same.
        with contextlib.suppress(KaiserError, HandRefused):
            getattr(self, action)(rng, game)

    def start(self, rng: random.Random, _game: Game | None) -> None:
        rules = rng.choice(RULES)
        players = [p for p in self.players if Player.objects.filter(pk=p.pk).exists()]
        rng.shuffle(players)
        seats: list = players[: rules.seats]
        while len(seats) < rules.seats:
            seats.append(f"Guest {len(seats)}")
        if rng.random() < 0.3:
            seats[rng.randrange(rules.seats)] = "A guest"
        game_start(seats=seats, rules=rules, club=self.club, season=self.season)

    def hand(self, rng: random.Random, game: Game | None) -> None:
        if game is not None:
            _enter(game, rng)

    def finish(self, rng: random.Random, game: Game | None) -> None:
        if game is None:
            return
        for _hand in range(60):
            game.refresh_from_db()
            if game.status != GameStatus.IN_PROGRESS or not _enter(game, rng):
                return

    def correct(self, rng: random.Random, game: Game | None) -> None:
        if game is None or not game.hand_count:
            return
        number = rng.randint(1, game.hand_count)
        hand = a_hand(rng, game.rules_value)
        hand_correct(game=game, number=number, hand=hand, by=self.owner, reason="recounted")

    def undo(self, rng: random.Random, game: Game | None) -> None:
        if game is not None and game.hand_count:
            hand_undo(game=game, by=self.owner)

    def _confirm(self, game: Game, number: int) -> None:
        hand = game.hands.get(number=number)
        rules = game.rules_value
        against = rules.side_of(hand.bidder) if hand.bidder is not None else 0
        seat = next(s for s in range(rules.seats) if rules.side_of(s) != against)
        phone = f"phone-{game.pk}-{seat}"
        seat_claim(game=game, seat=seat, phone=phone)
        hand_confirm(game=game, number=number, phone=phone)

    def confirm(self, rng: random.Random, game: Game | None) -> None:
        if game is not None and game.hand_count:
            self._confirm(game, rng.randint(1, game.hand_count))

    def confirm_all(self, rng: random.Random, game: Game | None) -> None:
        if game is not None:
            for number in range(1, game.hand_count + 1):
                self._confirm(game, number)

    def confirmation_switch(self, rng: random.Random, _game: Game | None) -> None:
        club = Club.objects.get(pk=self.club.pk)
        club_settings_update(
            club=club,
            name=club.name,
            standings_public=club.standings_public,
            hands_need_confirmation=not club.hands_need_confirmation,
        )
        self.club = club

    def abandon(self, rng: random.Random, game: Game | None) -> None:
        if game is not None:
            game_abandon(game=game, by=self.owner, reason="rain")

    def delete(self, rng: random.Random, game: Game | None) -> None:
        if game is None:
            return
        if game.hand_count == 0 and rng.random() < 0.5:
            game_delete(game=game, by=self.owner)
        else:
            games_delete(games=[game])  # the admin's delete

    def player_delete(self, rng: random.Random, _game: Game | None) -> None:
        Player.objects.filter(pk=rng.choice(self.players).pk).delete()  # the admin's delete

    def check(self) -> None:
        """The stored standings after an incremental rebuild are the engine's, from scratch."""
        club = Club.objects.get(pk=self.club.pk)
        rebuild.standings_rebuild(season_id=self.season.pk)
        assert stored_standings(self.season) == reference_standings(club, self.season)


STEPS = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**32)), min_size=1, max_size=10
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(first=st.integers(0, 2**32), steps=STEPS)
def test_incremental_standings_equal_a_rebuild_from_scratch(club, alice, first, steps):
    table = Table(club, alice)
    # A played game to start from, so that most steps change something already counted.
    table.act("start", first)
    table.act("finish", first + 1)
    table.check()
    for action, seed in steps:
        table.act(action, seed)
        table.check()
    # Every summary gone (a restore, a wipe): the cold rebuild gives the same standings.
    GameSummary.objects.all().delete()
    table.check()


def test_only_the_games_that_changed_are_scored_again(club, players, alice, monkeypatch):
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = players
    first = play(club, season, [ann, cat, bob, dan], GAME_1)
    play(club, season, [ann, bob, cat, dan], GAME_2)
    rebuild.standings_rebuild(season_id=season.pk)
    assert GameSummary.objects.count() == 2
    scored = []
    real = summaries.games_scored_fast

    def spy(games, left_out=None):
        scored.extend(game.pk for game in games)
        return real(games, left_out)

    monkeypatch.setattr(summaries, "games_scored_fast", spy)
    rebuild.standings_rebuild(season_id=season.pk)
    assert scored == []
    hand_correct(game=first, number=1, hand=GAME_1[0], by=alice, reason="same again")
    rebuild.standings_rebuild(season_id=season.pk)
    assert scored == [first.pk]
    # A change that bypasses save() and every service is seen all the same.
    Game.objects.filter(pk=first.pk).update(first_dealer=1)
    rebuild.standings_rebuild(season_id=season.pk)
    assert scored == [first.pk, first.pk]
    assert stored_standings(season) == reference_standings(club, season)


def _season_of(club: Club, games: int, name: str) -> Season:
    season = Season.objects.create(club=club, name=name, starts_on=datetime.date(2026, 9, 1))
    people = [Player.objects.create(club=club, name=f"{name}-{i}") for i in range(6)]
    rng = random.Random(games)
    for number in range(games):
        seated = rng.sample(people, 4)
        play(club, season, seated, GAME_1 if number % 2 else GAME_2)
    return season


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_a_rebuild_costs_the_same_queries_whatever_the_number_of_games(
    club, warm, django_assert_max_num_queries
):
    for games in (2, 12):
        season = _season_of(club, games, f"{warm}-{games}")
        if warm:
            rebuild.standings_rebuild(season_id=season.pk)
        # One query more than the games': the nights of the season (leagues.standings.nights);
        # and one more to drop any summary of an older format (summaries._older_formats_drop);
        # on PostgreSQL one more, the commit that does not wait for its flush.
        with django_assert_max_num_queries(17 if warm else 26):
            rebuild.standings_rebuild(season_id=season.pk)
        assert StandingsSnapshot.objects.get(season=season).games == games


def test_a_game_adds_each_counter_to_the_figure_of_its_name() -> None:
    """Every counter of a game's summary goes to the standings figure of its name (a counter
    added to the summaries is added to the lines too)."""
    counts = [place + 1 for place in range(len(COUNTERS))]
    game = GameResult(
        game_id=1,
        finished_at=timezone.now(),
        players=[7],
        sides=[[0]],
        winner=0,
        scores=[50],
        hands=1,
        seat_counts=[counts],
        side_counts=[counts],
    )
    figures = Figures()
    figures.add(game, 0, counts)
    assert [getattr(figures, name) for name in COUNTERS] == counts
