"""The night's rules, as plain data in and out (no ORM, no Django): where a table's round ends,
who won a table cut short, what a sit-out scores, and the order of the standings.

The selectors read the night and the engine's scores and call these; `seating.py` beside it
draws the tables. Sides are the rules' sides (`Rules.sides`), never seat arithmetic, so a
night of any table size ranks the same way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

HALF = Fraction(1, 2)


def hands_needed(
    hands_per_round: int | None, extra_hand_on_tie: bool, totals_after: Sequence[Sequence[int]]
) -> int | None:
    """Hands the round needs at a table: `hands_per_round` (None: the round runs to the target
    or the time limit, no count), one more when the sides are level after the last of them and
    the night breaks ties. `totals_after` are the sides' totals after each hand played."""
    if hands_per_round is None:
        return None
    needed = hands_per_round
    # Level after the last hand: one more decides.
    if (
        extra_hand_on_tie
        and len(totals_after) >= needed
        and len(set(totals_after[needed - 1])) == 1
    ):
        needed += 1
    return needed


@dataclass(frozen=True)
class TableOutcome:
    counted: int  # hands that count (hands entered after the round's end are ignored)
    totals: tuple[int, ...]  # the sides' totals after the counted hands
    done: bool
    winner: int | None  # a side; None while playing, or on a level finish


def table_outcome(
    *,
    totals_after: Sequence[Sequence[int]],
    starting: Sequence[int],
    needed: int | None,
    game_finished: bool,
    game_winner: int | None,
    round_closed: bool,
) -> TableOutcome:
    """How a table stands for the round. The engine may end the game (target, kaiser, ...)
    before the round's last hand: then its winner wins. A table whose round ended (its hands
    are in, or the director closed the round) is won by the side strictly ahead; level sides
    share it (no winner). `starting` are the totals before any hand."""
    played = len(totals_after)
    counted = played if needed is None else min(played, needed)
    ended = game_finished and counted == played
    totals = tuple(totals_after[counted - 1]) if counted else tuple(starting)
    done = ended or (needed is not None and counted >= needed) or round_closed
    if ended:
        winner = game_winner
    elif done:
        winner = leader(totals)
    else:
        winner = None
    return TableOutcome(counted, totals, done, winner)


def leader(totals: Sequence[int]) -> int | None:
    """The side strictly ahead of every other, or None when the lead is shared."""
    best = max(totals)
    ahead = [side for side, total in enumerate(totals) if total == best]
    return ahead[0] if len(ahead) == 1 else None


def round_half_up(value: Fraction) -> int:
    """The nearest whole number, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    return int(value + HALF) if value >= 0 else -int(-value + HALF)


def sitout_average(side_totals: Sequence[int]) -> int:
    """What a sit-out scores under the "average" rule: the mean of every side's total at the
    round's tables, rounded half away from zero; 0 when no table counted."""
    if not side_totals:
        return 0
    return round_half_up(Fraction(sum(side_totals), len(side_totals)))


@dataclass
class Standing:
    key: int  # entry id (rotating) or pair number (fixed pairs)
    name: str
    entry_ids: list[int]
    played: int = 0
    wins: Fraction = Fraction(0)  # a shared table counts half
    points: int = 0  # engine totals of the games played, plus sit-out scores
    sitouts: int = 0
    sitout_points: int = 0
    head_to_head: Fraction = Fraction(0)  # wins against the others tied with it
    rank: int = 0
    withdrawn: bool = False
    beat: dict[int, Fraction] = field(default_factory=dict)

    @property
    def wins_text(self) -> str:
        whole, half = divmod(self.wins * 2, 2)
        return f"{int(whole)}½" if half else str(int(whole))


def table_count(
    rows: dict[int, Standing],
    side_units: Sequence[Iterable[int]],
    totals: Sequence[int],
    winner: int | None,
    done: bool,
) -> None:
    """Add one table to the standings `rows`: every unit (a player, or a pair) of each side
    scores its side's total, a win (half of one for a shared, finished table), and what it
    won against each unit of every other side (for head-to-head)."""
    units = [set(side) for side in side_units]
    for side, members in enumerate(units):
        if winner == side:
            won = Fraction(1)
        elif winner is None and done:
            won = HALF
        else:
            won = Fraction(0)
        for unit in members:
            row = rows[unit]
            row.points += totals[side]
            row.played += 1
            row.wins += won
            for other_side, others in enumerate(units):
                if other_side == side:
                    continue
                for opponent in others:
                    row.beat[opponent] = row.beat.get(opponent, Fraction(0)) + won


def standings_rank(
    rows: list[Standing], pairs: bool, name_order: Callable[[str], Any] = str.casefold
) -> list[Standing]:
    """Order the standings: fixed pairs by wins then points, rotating partners by points then
    wins; rows level on both are ordered by head-to-head (wins against each other), then by
    name (`name_order`: the sort key of a name). Rows level on all three share a rank
    (1, 2, 2, 4)."""

    def primary(row: Standing) -> tuple[Fraction | int, ...]:
        return (row.wins, row.points) if pairs else (row.points, row.wins)

    groups: dict[tuple[Fraction | int, ...], list[Standing]] = defaultdict(list)
    for row in rows:
        groups[primary(row)].append(row)
    ordered: list[Standing] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        members = {row.key for row in group}
        for row in group:
            row.head_to_head = sum(
                (won for other, won in row.beat.items() if other in members and other != row.key),
                Fraction(0),
            )
        group.sort(key=lambda r: (-r.head_to_head, name_order(r.name)))
        ordered.extend(group)
    previous: tuple[tuple[Fraction | int, ...], int] | None = None
    for position, row in enumerate(ordered, start=1):
        full = (*primary(row), row.head_to_head)
        row.rank = previous[1] if previous and previous[0] == full else position
        previous = (full, row.rank)
    return ordered
