"""A rated game explained from the stored ratings (no Django, no database): what the player's
side was expected to take of the points against these opponents ("par"), what it took, and how
the shown rating (OpenSkill's ordinal, mu - 3 sigma) moved.

- par: OpenSkill's predicted chance of each side winning (`predict_win`) from every seat's
  rating right before the game, read as the side's expected share of the points. The shares
  of all sides add up to 100%; equal sides have par 50% each.
- took: the side's share of the final scores the engine gave (the game's stored summary). A
  score below zero counts as no points; when no side is above zero, the sides took equal
  shares.
- change: the ordinal right after the game less the ordinal right before it (a player's first
  game starts from OpenSkill's new rating, ordinal 0).

Nothing here re-scores a game or re-rates one: it reads what the ratings rebuild stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# A rating is provisional until the player has this many rated games (docs/ratings.md).
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class RatingValue:
    """A stored rating (`RatingPoint` / `PlayerRating`): mu, sigma and the shown ordinal."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class GameExplained:
    """One rated game of one player, the numbers of its explanation."""

    game_id: int
    side: int  # the player's side
    par: float  # expected share of the points, 0 to 1
    took: float  # share of the points taken, 0 to 1
    before: float  # the shown rating (ordinal) before the game
    after: float  # ... and after it
    won: bool | None  # None: drawn
    number: int  # the player's rated games so far, this one included

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        """Whether the rating after this game is still provisional."""
        return self.number < PROVISIONAL_GAMES


def new_rating(model: PlackettLuce) -> RatingValue:
    """The rating of a player before their first game (and of a guest's seat at every game)."""
    rating = model.rating()
    return RatingValue(rating.mu, rating.sigma, rating.ordinal())


def points_share(scores: Sequence[int], side: int) -> float:
    """`side`'s share of the points of the final `scores` (one per side): a score below zero
    counts as none; equal shares when no side is above zero."""
    positive = [max(score, 0) for score in scores]
    total = sum(positive)
    if total == 0:
        return 1 / len(scores)
    return positive[side] / total


def par_share(model: PlackettLuce, teams: Sequence[Sequence[RatingValue]], side: int) -> float:
    """`side`'s expected share of the points: OpenSkill's predicted chance of it winning
    against the other `teams` (each a list of the seats' ratings before the game)."""
    rated = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    return float(model.predict_win(rated)[side])


def game_explain(
    model: PlackettLuce,
    *,
    game_id: int,
    player: int,
    players: Sequence[int | None],
    sides: Sequence[Sequence[int]],
    scores: Sequence[int],
    winner: int | None,
    before: Mapping[int, RatingValue],
    after: RatingValue,
    number: int,
) -> GameExplained | None:
    """The explanation of a rated game for `player`: `players`, `sides`, `scores` and `winner`
    as its summary stores them, `before` the stored rating of each rated player of the game
    right before it (missing: a first game), `after` the player's stored rating right after
    it, `number` the player's rated games up to this one. None when the player has no seat in
    the game."""
    side = next(
        (i for i, seats in enumerate(sides) if any(players[s] == player for s in seats)), None
    )
    if side is None:
        return None
    fresh = new_rating(model)

    def rating(seat: int) -> RatingValue:
        pk = players[seat]
        return before.get(pk, fresh) if pk is not None else fresh

    teams = [[rating(seat) for seat in seats] for seats in sides]
    return GameExplained(
        game_id=game_id,
        side=side,
        par=par_share(model, teams, side),
        took=points_share(scores, side),
        before=before.get(player, fresh).ordinal,
        after=after.ordinal,
        won=None if winner is None else winner == side,
        number=number,
    )
