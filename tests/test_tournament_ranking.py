"""The night's rules as plain data (leagues.tournaments.ranking): no database, tables of cases
and properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.tournaments.ranking import (
    Standing,
    hands_needed,
    leader,
    round_half_up,
    sitout_average,
    standings_rank,
    table_count,
    table_outcome,
)


@pytest.mark.parametrize(
    ("per_round", "tie_break", "totals", "needed"),
    [
        (None, True, [(10, 10)], None),  # the round runs to the target or the clock
        (4, False, [(1, 1)] * 4, 4),  # level, but the night breaks no ties
        (4, True, [(1, 1)] * 3, 4),  # not at the last hand yet
        (4, True, [(0, 0), (5, 0), (5, 2), (7, 7)], 5),  # level after the 4th: one more
        (4, True, [(0, 0), (5, 0), (5, 2), (7, 6)], 4),
        (4, True, [(0, 0), (5, 0), (5, 2), (7, 7), (9, 7)], 5),  # the tie-break was played
        (3, True, [(2, 2, 2), (4, 4, 4), (6, 6, 6)], 4),  # three sides level
        (3, True, [(2, 2, 2), (4, 4, 4), (6, 6, 5)], 3),
    ],
)
def test_hands_needed(per_round, tie_break, totals, needed) -> None:
    assert hands_needed(per_round, tie_break, totals) == needed


@pytest.mark.parametrize(
    ("case", "totals", "needed", "finished", "winner", "closed", "expected"),
    [
        ("playing", [(5, 0)], 4, False, None, False, (1, (5, 0), False, None)),
        ("round's hands in", [(5, 0)] * 4, 4, False, None, False, (4, (5, 0), True, 0)),
        ("level at the end", [(3, 3)] * 4, 4, False, None, False, (4, (3, 3), True, None)),
        (
            "hands after the end",
            [(5, 0)] * 4 + [(5, 9)],
            4,
            False,
            None,
            False,
            (4, (5, 0), True, 0),
        ),
        ("the engine ended it", [(40, 3)], 4, True, 0, False, (1, (40, 3), True, 0)),
        ("cut short, side 1 ahead", [(2, 6)], 4, False, None, True, (1, (2, 6), True, 1)),
        ("cut short, level", [(2, 2)], 4, False, None, True, (1, (2, 2), True, None)),
        ("closed before a hand", [], 4, False, None, True, (0, (0, 0), True, None)),
        ("to the target", [(5, 0), (9, 3)], None, False, None, False, (2, (9, 3), False, None)),
        ("three sides", [(4, 9, 9)], 2, False, None, True, (1, (4, 9, 9), True, None)),
        ("three sides, one ahead", [(4, 9, 2)], 2, False, None, True, (1, (4, 9, 2), True, 1)),
    ],
)
def test_table_outcome(case, totals, needed, finished, winner, closed, expected) -> None:
    starting = (0,) * (len(totals[0]) if totals else 2)
    outcome = table_outcome(
        totals_after=totals,
        starting=starting,
        needed=needed,
        game_finished=finished,
        game_winner=winner,
        round_closed=closed,
    )
    assert (outcome.counted, outcome.totals, outcome.done, outcome.winner) == expected, case


@pytest.mark.parametrize(
    ("totals", "expected"),
    [([], 0), ([10, 20], 15), ([10, 11], 11), ([10, 13], 12), ([-3, -4], -4), ([-3, -2], -3)],
)
def test_sitout_average_rounds_halves_away_from_zero(totals, expected) -> None:
    assert sitout_average(totals) == expected


@given(st.fractions(min_value=-1000, max_value=1000))
def test_round_half_up_is_the_nearest_whole_number(value: Fraction) -> None:
    rounded = round_half_up(value)
    assert abs(value - rounded) <= Fraction(1, 2)
    if abs(value - rounded) == Fraction(1, 2):
        assert abs(rounded) > abs(value)  # halves go away from zero
    assert round_half_up(-value) == -rounded


@given(st.lists(st.integers(-100, 100), min_size=2, max_size=4))
def test_leader_is_strictly_ahead_or_none(totals: list[int]) -> None:
    side = leader(totals)
    if side is None:
        assert totals.count(max(totals)) > 1
    else:
        assert all(total < totals[side] for other, total in enumerate(totals) if other != side)


def _rows(*names: str) -> dict[int, Standing]:
    return {key: Standing(key=key, name=name, entry_ids=[key]) for key, name in enumerate(names)}


def test_a_table_counts_for_every_unit_of_its_sides() -> None:
    rows = _rows("Ann", "Bob", "Cat", "Dan")
    table_count(rows, [{0, 2}, {1, 3}], (12, 7), winner=0, done=True)
    assert [(r.points, r.played, r.wins) for r in rows.values()] == [
        (12, 1, 1),
        (7, 1, 0),
        (12, 1, 1),
        (7, 1, 0),
    ]
    assert rows[0].beat == {1: 1, 3: 1} and rows[1].beat == {0: 0, 2: 0}


def test_a_shared_finished_table_is_half_a_win_each() -> None:
    rows = _rows("Ann", "Bob")
    table_count(rows, [{0}, {1}], (5, 5), winner=None, done=True)
    assert rows[0].wins == rows[1].wins == Fraction(1, 2)
    table_count(rows, [{0}, {1}], (6, 5), winner=None, done=False)  # still playing
    assert rows[0].wins == Fraction(1, 2)


def test_three_sides_beat_every_other_side() -> None:
    rows = _rows("Ann", "Bob", "Cat")
    table_count(rows, [{0}, {1}, {2}], (9, 4, 2), winner=0, done=True)
    assert rows[0].beat == {1: 1, 2: 1} and rows[1].beat == {0: 0, 2: 0}


@pytest.mark.parametrize(
    ("pairs", "figures", "order", "ranks"),
    [
        # Rotating partners: points first, then wins.
        (False, {"Ann": (3, 50), "Bob": (1, 60), "Cat": (2, 50)}, ["Bob", "Ann", "Cat"], [1, 2, 3]),
        # Fixed pairs: wins first, then points.
        (True, {"Ann": (3, 50), "Bob": (1, 60), "Cat": (2, 50)}, ["Ann", "Cat", "Bob"], [1, 2, 3]),
        # Level on both: shared rank, name order.
        (False, {"Cat": (1, 40), "Ann": (1, 40), "Bob": (0, 10)}, ["Ann", "Cat", "Bob"], [1, 1, 3]),
    ],
)
def test_standings_rank(pairs, figures, order, ranks) -> None:
    rows = [
        Standing(key=i, name=name, entry_ids=[i], wins=Fraction(wins), points=points)
        for i, (name, (wins, points)) in enumerate(figures.items())
    ]
    ranked = standings_rank(rows, pairs)
    assert [r.name for r in ranked] == order
    assert [r.rank for r in ranked] == ranks


def test_head_to_head_breaks_a_tie_between_the_level_only() -> None:
    rows = _rows("Ann", "Bob", "Cat")
    for row in rows.values():
        row.points, row.wins = 30, Fraction(1)
    rows[1].beat = {0: Fraction(1)}  # Bob beat Ann
    rows[0].beat = {2: Fraction(1)}  # Ann beat Cat
    rows[2].beat = {1: Fraction(1), 9: Fraction(5)}  # Cat beat Bob; 9 is not level with them
    ranked = standings_rank(list(rows.values()), pairs=False)
    assert [r.head_to_head for r in ranked] == [1, 1, 1]
    assert [r.rank for r in ranked] == [1, 1, 1]


@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(-50, 200)), min_size=1, max_size=12),
    st.booleans(),
)
def test_ranks_never_go_down_and_follow_the_primary_figures(figures, pairs) -> None:
    rows = [
        Standing(key=i, name=f"P{i}", entry_ids=[i], wins=Fraction(w), points=p)
        for i, (w, p) in enumerate(figures)
    ]
    ranked = standings_rank(rows, pairs)
    assert sorted(r.key for r in ranked) == list(range(len(figures)))
    assert [r.rank for r in ranked] == sorted(r.rank for r in ranked)
    assert ranked[0].rank == 1

    def primary(r: Standing) -> tuple:
        return (r.wins, r.points) if pairs else (r.points, r.wins)

    assert [primary(r) for r in ranked] == sorted((primary(r) for r in ranked), reverse=True)


@pytest.mark.parametrize("module", ["ranking", "seating"])
def test_the_nights_rules_are_plain_python(module: str) -> None:
    import ast
    from pathlib import Path

    source = Path(__file__).parents[1] / "leagues" / "tournaments" / f"{module}.py"
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
    assert imported <= {
        "__future__",
        "collections",
        "dataclasses",
        "fractions",
        "typing",
        "random",
        "itertools",
    }, imported
