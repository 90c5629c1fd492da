"""Standings and ratings, computed from stored hands through the rules engine.

Reads only (no writes): `counted_games` feeds every counted game's stored hands to the engine
(`scorecards.selectors.game_scored`); `standings_compute` and `ratings_compute` turn the engine's
results into the figures the snapshots store. `leagues.standings.rebuild` writes them.

What counts: finished games of the club (of the season, for standings) and, where the club has
`hands_need_confirmation` on (or the game is a table of a tournament night that has it on), only
games whose every hand is confirmed. The engine has the last
word: a game it does not find finished does not count.

The figures, per player (and per partnership: two players on the same side of a game):
- games, wins, win % (one decimal), points for (the side's final score, summed over games),
  points against (the other sides' final scores, summed), hands (played, throw-ins excluded),
  average points per hand (points for / hands, two decimals);
- bids attempted / made: hands the player bid (a partnership: either partner); no-trump bids made
  (`no` and `low`); kaisers: kaiser (and kaiser 40) bids made;
- times set: hands on which the player's side bid and was set (the partner's bids too);
- streak: the run of wins (+) or losses (-) ending with the latest counted game.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from django.db.models import QuerySet
from openskill.models import PlackettLuce, PlackettLuceRating

from leagues.clubs.models import Club, Season
from scorecards.models import Game, Hand, Seat
from scorecards.rules import NO_TRUMP_KINDS, GameScore
from scorecards.selectors import game_scored

KAISER_KINDS = ("kaiser", "kaiser40")
BATCH = 500  # games whose hands are loaded per query


@dataclass(frozen=True)
class CountedGame:
    game_id: int
    finished_at: datetime.datetime
    players: tuple[int | None, ...]  # player id by seat (None: a name without a club player)
    score: GameScore


def counted_games_qs(club: Club, season: Season | None = None) -> QuerySet[Game]:
    """The games that count (`GameQuerySet.counted`), in game order (finished time, then id)."""
    games = Game.objects.filter(club=club)
    if season is not None:
        games = games.filter(season=season)
    return games.counted().order_by("finished_at", "pk")


@dataclass(frozen=True)
class LeftOut:
    """A finished game the engine raised on (its stored rules or hands cannot be scored)."""

    game_id: int
    error: str


def counted_games(
    club: Club, season: Season | None = None, left_out: list[LeftOut] | None = None
) -> Iterator[CountedGame]:
    """Every counted game scored by the engine from its stored hands, in game order.

    A game the engine raises on is left out, and noted in `left_out` when given: one bad game
    must not stop the standings of everyone else. A constant number of queries per BATCH games:
    games, their seats, their hands."""
    games = list(counted_games_qs(club, season).only("pk", "rules", "first_dealer", "finished_at"))
    for start in range(0, len(games), BATCH):
        batch = games[start : start + BATCH]
        ids = [game.pk for game in batch]
        seats: dict[int, dict[int, int | None]] = defaultdict(dict)
        for game_id, seat, player_id in Seat.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat", "player_id"
        ):
            seats[game_id][seat] = player_id
        hands: dict[int, list[Hand]] = defaultdict(list)
        for hand in (
            Hand.objects.filter(game_id__in=ids)
            .only("game_id", "number", "record")
            .order_by("game_id", "number")
        ):
            hands[hand.game_id].append(hand)
        for game in batch:
            try:
                score = game_scored(game, hands[game.pk])
            except Exception as exc:  # any engine failure: leave the game out
                if left_out is not None:
                    left_out.append(LeftOut(game.pk, f"{type(exc).__name__}: {exc}"[:500]))
                continue
            if not score.finished or score.winner is None:
                continue
            by_seat = seats[game.pk]
            players = tuple(by_seat.get(seat) for seat in range(score.rules.seats))
            # A counted game is finished, so it has its time.
            assert game.finished_at is not None
            yield CountedGame(game.pk, game.finished_at, players, score)


@dataclass
class Figures:
    games: int = 0
    wins: int = 0
    points_for: int = 0
    points_against: int = 0
    hands: int = 0
    bids_made: int = 0
    bids_attempted: int = 0
    nt_bids_made: int = 0
    times_set: int = 0
    kaisers: int = 0
    results: list[bool] = field(default_factory=list)  # won or lost, in game order

    def as_row(self) -> dict:
        """The stored figures (StandingFigures fields)."""
        streak = 0
        if self.results:
            last = self.results[-1]
            for won in reversed(self.results):
                if won != last:
                    break
                streak += 1
            streak = streak if last else -streak
        return {
            "games": self.games,
            "wins": self.wins,
            "win_pct": round(100 * self.wins / self.games, 1) if self.games else 0.0,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "hands": self.hands,
            "avg_points": round(self.points_for / self.hands, 2) if self.hands else 0.0,
            "bids_made": self.bids_made,
            "bids_attempted": self.bids_attempted,
            "nt_bids_made": self.nt_bids_made,
            "times_set": self.times_set,
            "kaisers": self.kaisers,
            "streak": streak,
        }


def _count_game(figures: Figures, game: CountedGame, seats: tuple[int, ...], side: int) -> None:
    """Add one game to the figures of the seats `seats` (one player, or partners) of `side`."""
    score = game.score
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


def standings_compute(
    games: Iterable[CountedGame],
) -> tuple[dict[int, dict], dict[tuple[int, int], dict], int, int]:
    """Per player and per partnership figures of `games` (in game order).

    Returns (players {player_id: row}, partnerships {(low id, high id): row}, games, hands)."""
    players: dict[int, Figures] = defaultdict(Figures)
    pairs: dict[tuple[int, int], Figures] = defaultdict(Figures)
    game_count = hand_count = 0
    for game in games:
        game_count += 1
        hand_count += len(game.score.hands)
        rules = game.score.rules
        for side, side_seats in enumerate(rules.sides):
            for seat in side_seats:
                player = game.players[seat]
                if player is not None:
                    _count_game(players[player], game, (seat,), side)
            if len(side_seats) == 2:
                first, second = (game.players[seat] for seat in side_seats)
                if first is not None and second is not None:
                    key = (min(first, second), max(first, second))
                    _count_game(pairs[key], game, side_seats, side)
    return (
        {key: figures.as_row() for key, figures in players.items()},
        {key: figures.as_row() for key, figures in pairs.items()},
        game_count,
        hand_count,
    )


@dataclass(frozen=True)
class RatingAfter:
    player_id: int
    game_id: int
    seq: int
    mu: float
    sigma: float
    ordinal: float


def rating_model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3): deterministic."""
    return PlackettLuce()


def _rating_of(
    current: dict[int, PlackettLuceRating], player: int | None, model: PlackettLuce
) -> PlackettLuceRating:
    """The player's rating so far; a new player's (or a seat with no club player's)."""
    rating = current.get(player) if player is not None else None
    return rating if rating is not None else model.rating()


def ratings_compute(
    games: Iterable[CountedGame],
) -> tuple[dict[int, dict], list[RatingAfter], int]:
    """OpenSkill ratings from `games` in game order: each side is a team (two partners, or one
    player in individual games); the winner ranks first, the other sides by final score.

    Returns (final {player_id: {mu, sigma, ordinal, games}}, the rating after every game of
    every player, games counted). A seat without a club player plays as a new, unrated player."""
    model = rating_model()
    current: dict[int, PlackettLuceRating] = {}
    played: dict[int, int] = defaultdict(int)
    history: list[RatingAfter] = []
    count = 0
    for seq, game in enumerate(games, 1):
        count += 1
        score = game.score
        sides = score.rules.sides
        teams = [
            [_rating_of(current, game.players[seat], model) for seat in side] for side in sides
        ]
        losers = sorted({s for i, s in enumerate(score.scores) if i != score.winner}, reverse=True)
        ranks: list[float] = [
            0 if side == score.winner else 1 + losers.index(score.scores[side])
            for side in range(len(sides))
        ]
        rated = model.rate(teams, ranks=ranks)
        for side, side_seats in enumerate(sides):
            for seat, rating in zip(side_seats, rated[side], strict=True):
                player = game.players[seat]
                if player is None:
                    continue
                current[player] = rating
                played[player] += 1
                history.append(
                    RatingAfter(
                        player, game.game_id, seq, rating.mu, rating.sigma, rating.ordinal()
                    )
                )
    final = {
        player: {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "ordinal": rating.ordinal(),
            "games": played[player],
        }
        for player, rating in current.items()
    }
    return final, history, count
