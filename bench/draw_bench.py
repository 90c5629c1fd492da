"""Draw generation for tournament nights: time per night, and partner repeats against the lower
bound. Prints its numbers; run `.venv/bin/python bench/draw_bench.py`."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leagues.tournaments.seating import (
    History,
    partner_repeats_lower_bound,
    rotating_draw,
    round_robin_draw,
    swiss_draw,
)


def night(n: int, rounds: int, seed: int) -> tuple[float, int, int, int]:
    players = list(range(1, n + 1))
    history = History()
    played: Counter = Counter()
    start = time.perf_counter()
    for _ in range(rounds):
        draw = rotating_draw(players, history, seed=seed)
        history.add(draw)
        played.update(p for table in draw.tables for p in table)
    elapsed = time.perf_counter() - start
    bound = partner_repeats_lower_bound(played, n)
    return elapsed, history.partner_repeats(), bound, max(history.opponents.values())


def main() -> None:
    times = sorted(night(60, 10, seed)[0] for seed in range(20))
    print(f"RESULT draw.rotating_60x10.median={times[10] * 1000:.6g} ms")
    print(f"RESULT draw.rotating_60x10.worst={times[-1] * 1000:.6g} ms")
    print(
        f"rotating partners, 60 players x 10 rounds: median {times[10] * 1000:.1f} ms, "
        f"worst {times[-1] * 1000:.1f} ms (20 seeds)"
    )
    times = sorted(night(59, 10, seed)[0] for seed in range(20))
    print(
        f"rotating partners, 59 players (3 sit out) x 10 rounds: median "
        f"{times[10] * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms (20 seeds)"
    )
    start = time.perf_counter()
    pairs = list(range(30))
    for number in range(1, 11):
        round_robin_draw(pairs, number)
    print(f"round robin, 30 pairs x 10 rounds: {(time.perf_counter() - start) * 1000:.2f} ms")
    start = time.perf_counter()
    played: list[tuple[int, int]] = []
    byes: Counter = Counter()
    for _ in range(10):
        draw = swiss_draw(pairs, played, byes)
        played.extend((table[0], table[1]) for table in draw.tables)
        byes.update(draw.sitouts)
    print(f"swiss, 30 pairs x 10 rounds: {(time.perf_counter() - start) * 1000:.2f} ms")

    nights = above = worst = 0
    for n in range(8, 61):
        for rounds in range(3, 11):
            for seed in range(3):
                _, repeats, bound, _ = night(n, rounds, seed)
                nights += 1
                if repeats > bound:
                    above += 1
                    worst = max(worst, repeats - bound)
    print(f"RESULT draw.nights_at_partner_bound={nights - above} of {nights} nights")
    print(f"RESULT draw.worst_above_partner_bound={worst} repeats")
    print(
        f"partner repeats vs lower bound, 8..60 players x 3..10 rounds x 3 seeds: "
        f"{nights - above}/{nights} nights at the bound, worst {worst} above it"
    )
    for n, rounds in [(8, 10), (9, 10), (10, 10), (13, 10), (60, 10)]:
        _, repeats, bound, max_opp = night(n, rounds, 0)
        print(
            f"  {n} players x {rounds} rounds: {repeats} partner repeats "
            f"(lower bound {bound}), most times facing one opponent {max_opp}"
        )


if __name__ == "__main__":
    main()
