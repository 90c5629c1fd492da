"""Standings and ratings, computed from stored hands through the rules engine.

Reads only (no writes): `counted_games` feeds every counted game's stored hands to the engine
(`scorecards.selectors.game_scored`); a game's summary (`leagues.standings.summaries`) keeps its
counters (COUNTERS); `figures.standings_compute` (over the summaries' results) and
`ratings_compute` turn them into the figures the snapshots store.
`leagues.standings.rebuild` writes them.

What counts is written once, `Game.objects.counted()` (`scorecards/models.py`): finished games
that wait for no confirmation and are no table of a cancelled night; the standings, ratings, pot
balances and the player pages all read it. The engine has the last word on how a counted game
counts (`game_outcome`): a game it finds won counts as won, one it ends without a winner (a tie
at the target) as drawn; a game it does not find finished counts only when its tournament round
ended it (`FinishReason.ROUND`), won on the points when the round closed, or drawn when the
sides were level.

Game order (standings, streaks, ratings): the day played (`Game.played_on`, or the day it
finished when the game does not say), then the time it finished, then its id (`GAME_ORDER`).

The figures, per player (and per partnership: two players on the same side of a game):
- games, wins, draws, win % (wins / games, one decimal), points for (the side's final score,
  summed over games), points against (the other sides' final scores, summed), hands (played,
  throw-ins excluded), average points per hand (points for / hands, two decimals);
- bids attempted / made: hands the player bid (a partnership: either partner); no-trump bids made
  (`no` and `low`); kaisers: kaiser (and kaiser 40) bids made;
- times set: hands on which the player's side bid and was set (the partner's bids too);
- streak: the run of wins (+) or losses (-) ending with the latest counted game (0 when that
  game was drawn; a draw ends a run);
- pot balance (players only): what the player collected from the pots of the counted games
  less what their set bids put in, in cents (the engine's pot account, `scorecards.rules`).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.db.models import F, OrderBy, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from leagues.clubs.models import Club, Season
from scorecards.models import FinishReason, Game
from scorecards.rules import GameScore, game_score, points_leader
from scorecards.selectors import games_seats_and_inputs, games_where

KAISER_KINDS = ("kaiser", "kaiser40")
BATCH = 500  # games whose hands are loaded per query


@dataclass(frozen=True)
class CountedGame:
    game_id: int
    finished_at: datetime.datetime
    players: tuple[int | None, ...]  # player id by seat (None: a name without a club player)
    score: GameScore
    winner: int | None  # the side that won (`game_outcome`); None: drawn


def game_day(to_game: str = "") -> Coalesce:
    """The day a game counts on: the day it was played, or (a game that does not say, such as
    one imported without a date) the day it finished, in the site's time zone. Never later
    than needed: on the same day, the finished time decides. `to_game`: the path from the
    query's model to the game ("game__" from a seat), empty from the game itself."""
    finished = TruncDate(f"{to_game}finished_at", tzinfo=timezone.get_default_timezone())
    return Coalesce(F(f"{to_game}played_on"), finished)


def game_day_of(
    played_on: datetime.date | None, finished_at: datetime.datetime | None
) -> datetime.date | None:
    """`game_day` of a game read as its two columns."""
    if played_on is not None or finished_at is None:
        return played_on
    return timezone.localtime(finished_at, timezone.get_default_timezone()).date()


def game_order(to_game: str = "", *, latest_first: bool = False) -> tuple[OrderBy, ...]:
    """The game order of the standings, streaks and ratings: day (`game_day`), finished time,
    id (`latest_first`: the other way round). `to_game` as `game_day` takes it. A fresh
    expression each time (querysets must not share one)."""
    day = game_day(to_game)
    finished, pk = F(f"{to_game}finished_at"), F(f"{to_game}pk")
    if latest_first:
        return (day.desc(), finished.desc(), pk.desc())
    return (day.asc(), finished.asc(), pk.asc())


def counted_games_qs(club: Club | int, season: Season | int | None = None) -> QuerySet[Game]:
    """The games that count (`GameQuerySet.counted`), in game order (`game_order`)."""
    return games_where(club=club, season=season).counted().order_by(*game_order())


def game_outcome(score: GameScore, finish_reason: str) -> tuple[bool, int | None]:
    """How a finished game counts: (counts, winning side or None for a draw).

    The engine's end wins (target, kaiser, ...), or draws when it ends the game without a
    winner (both sides over the target on one hand, where `both_cross` is "tie"). A game its
    tournament round ended before the engine did (`finish_reason` "round") is won by the side
    strictly ahead on points when the round closed (its stored hands), and drawn when the
    leaders are level. Any other game the engine does not find finished does not count."""
    if score.finished:
        # A finished game without a winner is a tie at the target (`both_cross` "tie": the
        # sides crossed it on the same hand): drawn.
        return True, score.winner
    if finish_reason == FinishReason.ROUND and score.hands:
        return True, points_leader(score.scores)
    return False, None


@dataclass(frozen=True)
class LeftOut:
    """A finished game the engine raised on (its stored rules or hands cannot be scored)."""

    game_id: int
    error: str


def games_scored(
    games: list[Game], left_out: list[LeftOut] | None = None
) -> Iterator[tuple[Game, tuple[int | None, ...], GameScore]]:
    """Each of `games` (rows with pk, rules and first_dealer) with its players by seat and the
    engine's score of its stored hands, in the order given.

    A game the engine raises on is left out, and noted in `left_out` when given: one bad game
    must not stop the standings of everyone else. Two queries per BATCH games: seats, hands."""
    for start in range(0, len(games), BATCH):
        batch = games[start : start + BATCH]
        seats, hands = games_seats_and_inputs([game.pk for game in batch])
        for game in batch:
            try:
                score = game_score(game.rules_value, hands[game.pk], game.first_dealer)
            except Exception as exc:  # any engine failure: leave the game out
                if left_out is not None:
                    left_out.append(LeftOut(game.pk, f"{type(exc).__name__}: {exc}"[:500]))
                continue
            by_seat = seats[game.pk]
            yield game, tuple(by_seat.get(seat) for seat in range(score.rules.seats)), score


def counted_games(
    club: Club, season: Season | None = None, left_out: list[LeftOut] | None = None
) -> Iterator[CountedGame]:
    """Every counted game scored by the engine from its stored hands, in game order (games the
    engine raises on left out, see `games_scored`; games that do not count by `game_outcome`
    neither).
    A constant number of queries per BATCH games: games, their seats, their hands."""
    games = list(
        counted_games_qs(club, season).only(
            "pk", "rules", "first_dealer", "finished_at", "finish_reason"
        )
    )
    for game, players, score in games_scored(games, left_out):
        counts, winner = game_outcome(score, game.finish_reason)
        if counts:
            # A counted game is finished, so it has its time.
            assert game.finished_at is not None
            yield CountedGame(game.pk, game.finished_at, players, score, winner)


# The counters a game's summary stores for each seat and each side, a row of whole numbers in
# this order (`leagues.standings.summaries`): what the game adds to the figures of whoever sat
# there.
# games / wins / draws: 1 or 0 (games is 0 for a game that does not count); hands: played,
# throw-ins left out; bids attempted, made, no-trump made, kaisers made (a side's: either
# partner's); times set (the side's bids set, the partner's included); pot_balance: what the
# seat collected from the game's pot less what its set bids put in, in cents (a side's: both
# seats'), 0 for a game that keeps no pot.
COUNTERS = (
    "games",
    "wins",
    "draws",
    "hands",
    "bids_attempted",
    "bids_made",
    "nt_bids_made",
    "kaisers",
    "times_set",
    "pot_balance",
)
# Where each counter is in a row of them (a summary's: a list of whole numbers, COUNTERS' order).
COUNTER_AT = {name: place for place, name in enumerate(COUNTERS)}
# The figures only a player's line has (PlayerStanding), not a partnership's.
PLAYER_ONLY = ("pot_balance",)


@dataclass(frozen=True)
class GameResult:
    """A counted game as the standings (and ratings) need it, read from its stored summary
    (`leagues.standings.models.GameSummary`, every number from the engine). A row of counters
    is a list of COUNTERS' values, in that order (`COUNTER_AT`)."""

    game_id: int
    finished_at: datetime.datetime
    players: Sequence[int | None]  # player id by seat (None: a guest, or a player since deleted)
    sides: Sequence[Sequence[int]]  # the seats of each side
    winner: int | None  # None: drawn (level when its round closed, or a tie at the target)
    scores: Sequence[int]  # final score by side
    hands: int  # every hand, throw-ins included
    seat_counts: Sequence[Sequence[int]]
    side_counts: Sequence[Sequence[int]]
    day: datetime.date | None = None  # the day it counts on (`game_day`)


def streak_after(streak: int, result: bool | None) -> int:
    """A streak (wins +, losses -) after one more game: won True, lost False, drawn None."""
    if result is None:
        return 0
    return (streak + 1 if streak > 0 else 1) if result else (streak - 1 if streak < 0 else -1)


@dataclass(frozen=True)
class RatingAfter:
    player_id: int
    game_id: int
    seq: int
    mu: float
    sigma: float
    ordinal: float


def rating_model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3): deterministic.
    `limit_sigma`: a game never raises a player's sigma (the model's tau would, a little, on
    every game), so a win, which always raises mu, never lowers the shown ordinal
    (mu - 3 sigma): see docs/ratings.md."""
    return PlackettLuce(limit_sigma=True)


def _rating_of(
    current: dict[int, PlackettLuceRating], player: int | None, model: PlackettLuce
) -> PlackettLuceRating:
    """The player's rating so far; a new player's (or a seat with no club player's)."""
    rating = current.get(player) if player is not None else None
    return rating if rating is not None else model.rating()


class RatedGame(Protocol):
    """What rating a game needs: who sat where, the sides, the final scores and the winner
    (None: drawn)."""

    @property
    def game_id(self) -> int: ...
    @property
    def players(self) -> Sequence[int | None]: ...
    @property
    def sides(self) -> Sequence[Sequence[int]]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def winner(self) -> int | None: ...


def rating_step(
    model: PlackettLuce,
    current: dict[int, PlackettLuceRating],
    played: dict[int, int],
    game: RatedGame,
    seq: int,
) -> list[RatingAfter]:
    """Rate one game on top of `current` (updated in place, as `played`): each side is a team
    (two partners, or one player); the winner ranks first, the other sides by final score
    (equal scores tie). A drawn game (no winner) ranks every side by final score: level sides
    tie. A seat without a club player plays as a new, unrated player. Returns the ratings after
    it."""
    sides, scores, winner = game.sides, game.scores, game.winner
    teams = [[_rating_of(current, game.players[seat], model) for seat in side] for side in sides]
    others = sorted({s for i, s in enumerate(scores) if i != winner}, reverse=True)
    first = 0 if winner is None else 1
    ranks: list[float] = [
        0 if side == winner else first + others.index(scores[side]) for side in range(len(sides))
    ]
    rated = model.rate(teams, ranks=ranks)
    after: list[RatingAfter] = []
    for side, side_seats in enumerate(sides):
        for seat, rating in zip(side_seats, rated[side], strict=True):
            player = game.players[seat]
            if player is None:
                continue
            current[player] = rating
            played[player] += 1
            after.append(
                RatingAfter(player, game.game_id, seq, rating.mu, rating.sigma, rating.ordinal())
            )
    return after


def ratings_compute(
    games: Iterable[RatedGame],
) -> tuple[dict[int, dict], list[RatingAfter], int]:
    """OpenSkill ratings from `games` in game order (`rating_step` for each).

    Returns (final {player_id: {mu, sigma, ordinal, games}}, the rating after every game of
    every player, games counted)."""
    model = rating_model()
    current: dict[int, PlackettLuceRating] = {}
    played: dict[int, int] = defaultdict(int)
    history: list[RatingAfter] = []
    count = 0
    for seq, game in enumerate(games, 1):
        count += 1
        history.extend(rating_step(model, current, played, game, seq))
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
