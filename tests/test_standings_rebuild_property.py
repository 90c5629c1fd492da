"""After any sequence of tournament nights (rounds closed by the next draw, by hand or by the
night's end), table games, corrections and deletions (one game or several at once, the
standings then updated without them), the standings and ratings the services keep up to date
on their own (the rebuilds and updates their hooks queue, run eagerly here) equal a rebuild
from nothing; and every finished game of the season counts, a table its round ended included."""

from __future__ import annotations

import contextlib
import datetime
import itertools
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.demo import plausible_hand
from leagues.standings import rebuild
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    StandingsSnapshot,
)
from leagues.tournaments.models import RoundStatus, Tournament, TournamentStatus, TournamentTable
from leagues.tournaments.services import (
    TournamentError,
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import FinishReason, Game, GameStatus
from scorecards.rules import KaiserError, rules_build
from scorecards.services import HandRefused, game_start, games_delete, hand_correct, hand_record
from tests.leagues_helpers import GAME_1, GAME_2

pytestmark = pytest.mark.django_db

STANDARD = rules_build({"preset": "standard"})
REFUSED = (KaiserError, HandRefused, TournamentError)
counter = itertools.count()


def _day(rng: random.Random) -> datetime.date:
    return datetime.date(2026, 11, rng.randint(1, 28))


class League:
    """One example's club, season and players, and what acts on them through the services."""

    def __init__(self, owner) -> None:
        n = next(counter)
        self.owner = owner
        self.club = Club.objects.create(name=f"Property {n}", slug=f"property-{n}")
        Membership.objects.create(club=self.club, user=owner, role=Role.OWNER)
        self.season = Season.objects.create(
            club=self.club, name="2026", starts_on=datetime.date(2026, 9, 1)
        )
        self.players = [Player.objects.create(club=self.club, name=f"P{i}") for i in range(9)]
        self.walk_ins = 0
        self.by_round = 0  # the most tables ended by their round counted at once

    def games(self) -> list[Game]:
        return list(Game.objects.filter(club=self.club).order_by("pk"))

    def act(self, action: str, seed: int) -> None:
        rng = random.Random(seed)
        # Refused: nothing changed, which the comparison checks all the same.
        with contextlib.suppress(*REFUSED):
            getattr(self, action)(rng)

    def _hands(self, game: Game, rng: random.Random, count: int) -> None:
        for _hand in range(count):
            try:
                hand_record(game=game, hand=plausible_hand(rng, STANDARD))
            except REFUSED:
                return  # the round's hands are in, or the game is over

    def night(self, rng: random.Random) -> None:
        """A night of one or two rounds for 4 to 9 players (a late arrival now and then),
        each table playing none, some or all of its round's hands; the last round closed,
        the night ended, or left playing."""
        night = tournament_create(
            club=self.club,
            name="Night",
            date=_day(rng),
            rounds=rng.randint(1, 2),
            hands_per_round=rng.randint(1, 3),
            extra_hand_on_tie=rng.random() < 0.5,
            season=self.season,
        )
        for player in rng.sample(self.players, rng.randint(4, 8)):
            entry_register(tournament=night, player=player, checked_in=True)
        for number in range(1, night.rounds + 1):
            made = round_draw(tournament=night, confirm=True)
            for table in made.tables:
                self._hands(table.game, rng, rng.randint(0, night.hands_per_round + 1))
            if number == 1 and rng.random() < 0.4:
                self.walk_ins += 1
                entry_register(tournament=night, player=f"Walk-in {self.walk_ins}")
        end = rng.choice(("finish", "close", "leave"))
        if end == "finish":
            tournament_finish(tournament=night)
        elif end == "close":
            round_close(round=night.round_set.get(number=night.rounds))

    def night_end(self, rng: random.Random) -> None:
        """End a night still running (its playing round closes with it)."""
        running = list(Tournament.objects.filter(club=self.club, status=TournamentStatus.RUNNING))
        if running:
            tournament_finish(tournament=rng.choice(running))

    def round_end(self, rng: random.Random) -> None:
        """Close a round still playing, by hand."""
        rounds = [
            t.round_set.get(status=RoundStatus.PLAYING)
            for t in Tournament.objects.filter(
                club=self.club, round_set__status=RoundStatus.PLAYING
            )
        ]
        if rounds:
            round_close(round=rng.choice(rounds))

    def game(self, rng: random.Random) -> None:
        """A table game outside any night, dated some day of November (or not at all)."""
        seats = rng.sample(self.players, 4)
        played_on = None if rng.random() < 0.2 else _day(rng)
        # Some games keep a pot: the balances are among the figures compared.
        habits = {"pot": {"per_set": 50}} if rng.random() < 0.7 else None
        game = game_start(
            seats=seats,
            rules=STANDARD,
            club=self.club,
            season=self.season,
            played_on=played_on,
            habits=habits,
        )
        hands = rng.choice((GAME_1, GAME_2, GAME_1[:3]))
        for hand in hands:
            hand_record(game=game, hand=hand)

    def hand(self, rng: random.Random) -> None:
        playing = [g for g in self.games() if g.status == GameStatus.IN_PROGRESS]
        if playing:
            self._hands(rng.choice(playing), rng, 1)

    def correct(self, rng: random.Random) -> None:
        """A director corrects a hand of any game, a table's after its round included."""
        games = [g for g in self.games() if g.hand_count]
        if games:
            game = rng.choice(games)
            hand = plausible_hand(rng, STANDARD)
            number = rng.randint(1, game.hand_count)
            hand_correct(game=game, number=number, hand=hand, by=self.owner, reason="recount")

    def delete(self, rng: random.Random) -> None:
        """The admin's delete of a game that is no night's table."""
        tables = set(TournamentTable.objects.values_list("game_id", flat=True))
        games = [g for g in self.games() if g.pk not in tables]
        if games:
            games_delete(games=[rng.choice(games)])

    def deletes(self, rng: random.Random) -> None:
        """The admin's delete of several games at once (none a night's table), finished or
        not: the standings are updated without them."""
        tables = set(TournamentTable.objects.values_list("game_id", flat=True))
        games = [g for g in self.games() if g.pk not in tables]
        if games:
            games_delete(games=rng.sample(games, min(len(games), rng.randint(2, 4))))

    # The figures, as stored and as a rebuild from nothing gives them.

    def stored(self) -> tuple:
        season, club = self.season, self.club
        players = {
            row.player_id: (
                row.figures(),
                row.last_game,
                row.nights,
                row.night_wins,
                row.pot_balance,
            )
            for row in PlayerStanding.objects.filter(season=season)
        }
        pairs = {
            (row.first_id, row.second_id): (row.figures(), row.last_game)
            for row in PartnershipStanding.objects.filter(season=season)
        }
        # No snapshot yet (nothing counted ever queued a rebuild) reads as nothing counted.
        snapshot = StandingsSnapshot.objects.filter(season=season).values_list("games", "hands")
        ratings = {
            row.player_id: (row.mu, row.sigma, row.ordinal, row.games)
            for row in PlayerRating.objects.filter(club=club)
        }
        points = {
            (p.player_id, p.game_id): (p.seq, p.mu, p.sigma, p.ordinal)
            for p in RatingPoint.objects.filter(player__club=club)
        }
        rated = RatingSnapshot.objects.filter(club=club).values_list("games", flat=True)
        return players, pairs, snapshot.first() or (0, 0), ratings, points, rated.first() or 0

    def from_nothing(self) -> tuple:
        """Every derived row of the club deleted and rebuilt, read, and rolled back."""
        with transaction.atomic():
            GameSummary.objects.filter(game__club=self.club).delete()
            StandingsSnapshot.objects.filter(season=self.season).delete()
            PlayerStanding.objects.filter(season=self.season).delete()
            PartnershipStanding.objects.filter(season=self.season).delete()
            RatingSnapshot.objects.filter(club=self.club).delete()
            PlayerRating.objects.filter(club=self.club).delete()
            RatingPoint.objects.filter(player__club=self.club).delete()
            rebuild.standings_rebuild(season_id=self.season.pk)
            rebuild.ratings_rebuild(club_id=self.club.pk)
            fresh = self.stored()
            transaction.set_rollback(True)
        return fresh

    def check(self) -> None:
        stored = self.stored()
        assert stored == self.from_nothing()
        finished = Game.objects.filter(season=self.season, status=GameStatus.FINISHED)
        assert stored[2][0] == finished.count()  # tables ended by their round among them
        by_round = finished.filter(finish_reason=FinishReason.ROUND).count()
        self.by_round = max(self.by_round, by_round)


ACTIONS = (
    *("night", "night", "game", "game", "hand", "correct", "delete", "deletes"),
    *("night_end", "round_end"),
)
STEPS = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**32)), min_size=1, max_size=5)


@settings(
    max_examples=15,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(first=st.integers(0, 2**32), steps=STEPS)
def test_stored_standings_and_ratings_equal_a_rebuild_from_nothing(
    alice, django_capture_on_commit_callbacks, first, steps
):
    league = League(alice)
    # A night to start from, so most steps change something a night already counted.
    for action, seed in [("night", first), *steps]:
        # The services' hooks queue the rebuilds on commit; eager Celery runs them at once.
        with django_capture_on_commit_callbacks(execute=True):
            league.act(action, seed)
        league.check()
    # Seen with --hypothesis-show-statistics: how often the tables a round ended were counted.
    event(f"games ended by the round counted: {'some' if league.by_round else 'none'}")
    event(f"steps: {1 + len(steps)}")
    # How often games were deleted from a season with standings (updated without them).
    deleted = StandingsSnapshot.objects.filter(season=league.season, deletions__gt=0).exists()
    event(f"deletions updated by: {'their games' if deleted else 'none'}")
