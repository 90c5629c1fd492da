"""The figures of the standings' lines, per player and per partnership, summed over the
counted games' results (`derived.GameResult`, read from their summaries) in game order: what a
season's rebuild stores (`leagues.standings.rebuild`). `leagues.standings.derived` says what
each figure is."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import reduce

from leagues.standings.derived import GameResult, streak_after


@dataclass(slots=True)
class Figures:
    games: int = 0
    wins: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    hands: int = 0
    bids_made: int = 0
    bids_attempted: int = 0
    nt_bids_made: int = 0
    times_set: int = 0
    kaisers: int = 0
    pot_balance: int = 0
    last_played: datetime.date | None = None
    last_game: int | None = None
    # Won (True), lost (False) or drawn (None), in game order.
    results: list[bool | None] = field(default_factory=list)

    def add(self, game: GameResult, side: int, counts: Sequence[int]) -> None:
        """Count `game` for one player, or a partnership, on `side`: `counts` are its (their)
        counters (a row in `derived.COUNTERS`' order, each added to the field of its name: a
        test holds each going to its own, so a new or moved counter fails it rather than
        counting wrong)."""
        # Written out, not a loop over the names: a season rebuilt from nothing adds a game
        # six times for each of its games, and reading and setting the fields by name cost
        # more than the rest of the standings' arithmetic.
        games, wins, draws, hands, attempted, made, no_trump, kaisers, times_set, pot = counts
        self.games += games
        self.wins += wins
        self.draws += draws
        self.hands += hands
        self.bids_attempted += attempted
        self.bids_made += made
        self.nt_bids_made += no_trump
        self.kaisers += kaisers
        self.times_set += times_set
        self.pot_balance += pot
        self.results.append(None if draws else bool(wins))
        self.last_played, self.last_game = game.day, game.game_id  # (games come in order)
        scores = game.scores
        self.points_for += scores[side]
        self.points_against += sum(scores) - scores[side]

    def as_row(self, *, player: bool = True) -> dict:
        """The stored figures: StandingFigures fields, and for a player's line (`player`) the
        PLAYER_ONLY ones too."""
        row = {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
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
            "streak": reduce(streak_after, self.results, 0),
            "last_played": self.last_played,
            "last_game": self.last_game,
        }
        if player:
            row["pot_balance"] = self.pot_balance
        return row


def standings_compute(
    games: Iterable[GameResult],
) -> tuple[dict[int, dict], dict[tuple[int, int], dict], int, int]:
    """Per player and per partnership figures of `games` (in game order).

    Returns (players {player_id: row}, partnerships {(low id, high id): row}, games, hands): a
    player's row has the PLAYER_ONLY figures too."""
    players: dict[int, Figures] = defaultdict(Figures)
    pairs: dict[tuple[int, int], Figures] = defaultdict(Figures)
    game_count = hand_count = 0
    for game in games:
        game_count += 1
        hand_count += game.hands
        for side, side_seats in enumerate(game.sides):
            for seat in side_seats:
                player = game.players[seat]
                if player is not None:
                    players[player].add(game, side, game.seat_counts[seat])
            if len(side_seats) == 2:
                first, second = (game.players[seat] for seat in side_seats)
                if first is not None and second is not None:
                    key = (min(first, second), max(first, second))
                    pairs[key].add(game, side, game.side_counts[side])
    return (
        {key: figures.as_row() for key, figures in players.items()},
        {key: figures.as_row(player=False) for key, figures in pairs.items()},
        game_count,
        hand_count,
    )
