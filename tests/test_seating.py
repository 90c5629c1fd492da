"""Invariants of the seating and pairing algorithms (plain Python, no database)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.tournaments.seating import (
    Draw,
    History,
    SeatingError,
    partner_repeats_lower_bound,
    rotating_draw,
    round_robin_draw,
    swiss_draw,
)

field_sizes = st.integers(min_value=8, max_value=60)
round_counts = st.integers(min_value=3, max_value=10)


def _check_tables(draw: Draw, present: list[int], size: int) -> None:
    seated = [p for table in draw.tables for p in table]
    assert all(len(table) == size for table in draw.tables)
    assert len(seated) == len(set(seated))
    assert set(seated) | set(draw.sitouts) == set(present)
    assert not set(seated) & set(draw.sitouts)


@settings(max_examples=60, deadline=None)
@given(n=field_sizes, rounds=round_counts, seed=st.integers(0, 10_000))
def test_rotating_tables_sitouts_and_partner_repeats(n: int, rounds: int, seed: int) -> None:
    players = list(range(1, n + 1))
    history = History()
    played: Counter = Counter()
    for _ in range(rounds):
        draw = rotating_draw(players, history, seed=seed)
        _check_tables(draw, players, 4)
        assert len(draw.sitouts) == n % 4
        history.add(draw)
        played.update(p for table in draw.tables for p in table)
        # Nobody sits out twice before everyone has sat out once.
        counts = [history.sitouts[p] for p in players]
        assert max(counts) - min(counts) <= 1
    bound = partner_repeats_lower_bound(played, n)
    # The draw is a greedy heuristic, round by round: it meets the bound on all but about one
    # night in 500 (bench/draw_bench.py reports the count against the bound) and then misses it
    # by one, rarely two (10 players, 10 rounds, seed 120: 2 repeats where 0 were possible).
    assert history.partner_repeats() <= bound + 2, (history.partner_repeats(), bound)


@pytest.mark.parametrize("n", range(8, 61))
def test_rotating_partner_repeats_meet_the_lower_bound_every_round(n: int) -> None:
    players = list(range(1, n + 1))
    history = History()
    played: Counter = Counter()
    for _ in range(10):
        draw = rotating_draw(players, history, seed=0)
        history.add(draw)
        played.update(p for table in draw.tables for p in table)
        assert history.partner_repeats() == partner_repeats_lower_bound(played, n)


@settings(max_examples=30, deadline=None)
@given(n=field_sizes, rounds=round_counts, seed=st.integers(0, 10_000))
def test_rotating_late_arrivals_and_withdrawals_keep_sitouts_fair(
    n: int, rounds: int, seed: int
) -> None:
    players = list(range(1, n + 1))
    history = History()
    late = players[-1]
    present = [p for p in players if p != late]
    for number in range(1, rounds + 1):
        if number == 2:
            present.append(late)  # arrives for round 2
        if number == 3:
            present.remove(players[0])  # withdraws after round 2
        draw = rotating_draw(present, history, seed=seed)
        _check_tables(draw, present, 4)
        # Among those present, the sit-outs go to those who have sat out least.
        playing = [p for p in present if p not in draw.sitouts]
        if draw.sitouts and playing:
            assert max(history.sitouts[p] for p in draw.sitouts) <= min(
                history.sitouts[p] for p in playing
            )
        history.add(draw)


@settings(max_examples=30, deadline=None)
@given(n=field_sizes, rounds=round_counts, seed=st.integers(0, 10_000))
def test_winners_up_losers_down_seats_tables_in_standing_order(
    n: int, rounds: int, seed: int
) -> None:
    players = list(range(1, n + 1))
    history = History()
    for number in range(rounds):
        ranking = sorted(players, key=lambda p: (p * 7919 + number * 104729) % 97)
        draw = rotating_draw(players, history, seed=seed, ranking=ranking)
        _check_tables(draw, players, 4)
        position = {p: i for i, p in enumerate(ranking)}
        tops = [min(position[p] for p in table) for table in draw.tables]
        assert tops == sorted(tops)
        history.add(draw)
        counts = [history.sitouts[p] for p in players]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=60, deadline=None)
@given(n_pairs=st.integers(min_value=4, max_value=30))
def test_round_robin_everyone_meets_everyone_once(n_pairs: int) -> None:
    pairs = list(range(10, 10 + n_pairs))
    rounds = n_pairs - 1 if n_pairs % 2 == 0 else n_pairs
    met: Counter = Counter()
    byes: Counter = Counter()
    for number in range(1, rounds + 1):
        draw = round_robin_draw(pairs, number)
        _check_tables(draw, pairs, 2)
        assert len(draw.sitouts) == n_pairs % 2
        met.update(frozenset(t) for t in draw.tables)
        byes.update(draw.sitouts)
    assert len(met) == n_pairs * (n_pairs - 1) // 2
    assert set(met.values()) == {1}
    assert all(byes[p] == 1 for p in pairs) if n_pairs % 2 else not byes


def test_round_robin_withdrawn_pair_is_a_bye_for_its_opponent() -> None:
    draw = round_robin_draw([1, 2, 3, 4], 1, absent=[4])
    assert draw.tables == ((2, 3),)
    assert draw.sitouts == (1,)


@settings(max_examples=60, deadline=None)
@given(n=field_sizes, rounds=round_counts, data=st.data())
def test_swiss_never_a_rematch(n: int, rounds: int, data: st.DataObject) -> None:
    n_pairs = n // 2
    pairs = list(range(1, n_pairs + 1))
    # Without a rematch, a Swiss of n pairs is always possible for n/2 rounds (the pairs not yet
    # met still have a perfect matching), and for n-1 rounds of four pairs.
    even = n_pairs + n_pairs % 2
    rounds = min(rounds, max(even // 2, min(3, even - 1)))
    played: list[tuple[int, int]] = []
    byes: Counter = Counter()
    wins: Counter = Counter()
    for _ in range(rounds):
        ranked = sorted(pairs, key=lambda p: (-wins[p], p))
        draw = swiss_draw(ranked, played, byes)
        _check_tables(draw, pairs, 2)
        assert len(draw.sitouts) == n_pairs % 2
        for a, b in draw.tables:
            assert frozenset((a, b)) not in {frozenset(m) for m in played}
            wins[data.draw(st.sampled_from((a, b)))] += 1
        played.extend(draw.tables)
        byes.update(draw.sitouts)
    assert max(byes.values(), default=0) <= 1


def test_swiss_pairs_within_score_groups() -> None:
    draw = swiss_draw([1, 2, 3, 4, 5, 6], played=[(1, 2)])
    assert draw.tables == ((1, 3), (2, 4), (5, 6))


def test_swiss_refuses_when_only_rematches_are_left() -> None:
    with pytest.raises(SeatingError):
        swiss_draw([1, 2], played=[(1, 2)])


def test_too_few_players() -> None:
    with pytest.raises(SeatingError):
        rotating_draw([1, 2, 3], History())
