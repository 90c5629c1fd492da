"""A season's standings lines counted from its games' results (`derived.GameResult`, read
from their summaries): the rebuild from nothing counts every game of the season, six lines a
game (four players, two partnerships)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import add, itemgetter
from typing import Any

from leagues.standings.derived import COUNTERS, Figures, GameResult


def standings_compute(
    games: Iterable[GameResult],
) -> tuple[dict[int, dict], dict[tuple[int, int], dict], int, int]:
    """Per player and per partnership figures of `games` (in game order).

    Returns (players {player_id: row}, partnerships {(low id, high id): row}, games, hands): a
    player's row has the PLAYER_ONLY figures too."""
    # A line while its games are counted: its sums (COUNTERS, then points for and against,
    # added as a vector: a season from nothing counts six lines a game), results in game
    # order, last day and game.
    players: dict[int, list] = {}
    pairs: dict[tuple[int, int], list] = {}
    game_count = hand_count = 0
    for game in games:
        game_count += 1
        hand_count += game.hands
        total, day, game_id = sum(game.scores), game.day, game.game_id
        for side, side_seats in enumerate(game.sides):
            points = (game.scores[side], total - game.scores[side])
            for seat in side_seats:
                player = game.players[seat]
                if player is not None:
                    _line_add(players, player, game.seat_counts[seat], points, day, game_id)
            if len(side_seats) == 2:
                first, second = (game.players[seat] for seat in side_seats)
                if first is not None and second is not None:
                    key = (min(first, second), max(first, second))
                    _line_add(pairs, key, game.side_counts[side], points, day, game_id)
    return (
        {key: _line_row(line) for key, line in players.items()},
        {key: _line_row(line, player=False) for key, line in pairs.items()},
        game_count,
        hand_count,
    )


_COUNTED = itemgetter(*COUNTERS)


def _line_add(lines: dict, key: Any, counts: Mapping[str, int], points: tuple, *last: Any) -> None:
    sums = _COUNTED(counts) + points
    result = None if counts["draws"] else bool(counts["wins"])
    line = lines.get(key)
    if line is None:
        lines[key] = [sums, [result], *last]
    else:
        line[0] = tuple(map(add, line[0], sums))
        line[1].append(result)
        line[2:] = last


def _line_row(line: list, *, player: bool = True) -> dict:
    sums, results, last_played, last_game = line
    counted = dict(zip(COUNTERS, sums, strict=False))
    points_for, points_against = sums[len(COUNTERS) :]
    return Figures(
        **counted,
        points_for=points_for,
        points_against=points_against,
        last_played=last_played,
        last_game=last_game,
        results=results,
    ).as_row(player=player)
