"""Attendance over a season: the nights each player attended and the games they played,
regulars and guests, and the players ranked or listed apart under the season's minimum of
nights (`Season.min_nights`). Read from the stored standings rows and, for how many nights the
season has held, from the registered nights source (`leagues.standings.nights`: this room does
not read the nights' tables). Definitions in docs/attendance.md.

- nights held so far: the season's club nights (tournament nights, not cancelled) whose tables
  played a game of the season;
- a regular attended at least half of them (2 of 4, 3 of 5); anyone else who played is a guest;
  while the season has held no night, nobody is either (the section says so);
- ranked: a player who attended at least `min_nights` nights (0: everyone); the others are
  listed apart, "Not yet ranked".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kaiser_league.collation import name_key
from leagues.standings.nights import season_nights


def is_regular(nights: int, held: int) -> bool:
    """True when `nights` attended are at least half of the `held` nights (none held: False)."""
    return held > 0 and 2 * nights >= held


def nights_held(season_id: int, rows: Sequence[Any]) -> int:
    """How many club nights season `season_id` has held so far. No query when no standings row
    counts a night (nobody attended one: a season of club games only)."""
    if not any(row.nights for row in rows):
        return 0
    return len(season_nights(season_id))


@dataclass(frozen=True)
class AttendanceLine:
    player_id: int
    name: str
    nights: int
    games: int
    regular: bool


@dataclass(frozen=True)
class Attendance:
    """The season's attendance: nights held, then regulars and guests (most nights first, then
    most games, then by name)."""

    held: int
    regulars: list[AttendanceLine]
    guests: list[AttendanceLine]


def season_attendance(rows: Sequence[Any], held: int) -> Attendance:
    """The attendance of the players of `rows` (PlayerStanding rows, player loaded)."""
    lines = sorted(
        (
            AttendanceLine(
                row.player_id, row.player.name, row.nights, row.games, is_regular(row.nights, held)
            )
            for row in rows
        ),
        key=lambda line: (-line.nights, -line.games, name_key(line.name)),
    )
    return Attendance(
        held,
        [line for line in lines if line.regular],
        [line for line in lines if not line.regular],
    )


def ranked_split(rows: Sequence[Any], min_nights: int) -> tuple[list[Any], list[Any]]:
    """The rows of players ranked (at least `min_nights` nights; 0: all) and those listed apart,
    each in the order given."""
    ranked = [row for row in rows if row.nights >= min_nights]
    apart = [row for row in rows if row.nights < min_nights]
    return ranked, apart
