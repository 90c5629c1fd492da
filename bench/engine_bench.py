"""Benchmark of the rules engine: score many generated games, print hands scored per second.

usage: .venv/bin/python bench/engine_bench.py [--games N] [--seed S] [--repeat R]

Games are generated first (valid hands for every preset, played to the end of the game or 60
hands), then timed three ways: `game_score` on the hands as entered, `record_score` on the
whole kaiser-game/1 record (reading, validation, scoring and the result document), and
`game_play` adding the hands one at a time. No Django needed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorecards.rules import (
    PRESETS,
    GameRecord,
    HandInput,
    Rules,
    game_play,
    game_score,
    record_score,
    rules_build,
)

MAX_HANDS = 60


def random_hand(rng: random.Random, rules: Rules, dealer: int) -> HandInput:
    """A valid hand, mostly trump bids, sometimes with an auction."""
    if rng.random() < 0.05:
        return HandInput(thrown_in=True)
    kinds = rules.kinds_allowed()
    kind = "trump" if rng.random() < 0.6 else rng.choice(kinds)
    bidder = rng.randrange(rules.seats)
    bid = rng.randint(rules.min_bid, min(rules.max_bid, rules.min_bid + 3))
    seat_tricks = [0] * rules.seats
    sitting_out = rules.partners(bidder) if kind == "kaiser40" else ()
    playing = [s for s in range(rules.seats) if s not in sitting_out]
    for _ in range(rules.tricks_per_hand):
        # Lean the tricks towards the bidder, as real bidders do.
        seat = bidder if rng.random() < 0.35 else rng.choice(playing)
        seat_tricks[seat] += 1
    tricks = [sum(seat_tricks[s] for s in side) for side in rules.sides]
    holders = [side for side, count in enumerate(tricks) if count]
    five, three = rng.choice(holders), rng.choice(holders)
    if kind in ("kaiser", "kaiser40"):
        return HandInput(
            bidder=bidder,
            kind=kind,
            seat_tricks=tuple(seat_tricks),
            five_hearts=five,
            three_spades=three,
        )
    auction = None
    if rng.random() < 0.3:
        calls = ["pass"] * rules.seats
        calls[(bidder - dealer - 1) % rules.seats] = (
            str(bid) if kind == "trump" else f"{bid} {kind}"
        )
        auction = tuple(calls)
    return HandInput(
        bidder=bidder,
        bid=bid,
        kind=kind,
        tricks=tuple(tricks),
        five_hearts=five,
        three_spades=three,
        auction=auction,
    )


def random_game(rng: random.Random, rules: Rules) -> tuple[int, list[HandInput]]:
    """A first dealer and the hands of one game, to its end or MAX_HANDS."""
    first = rng.randrange(rules.seats)
    game = game_score(rules, [], first)
    hands: list[HandInput] = []
    while not game.finished and len(hands) < MAX_HANDS:
        hand = random_hand(rng, rules, game.next_dealer or 0)
        game = game_play(game, hand)
        hands.append(hand)
    return first, hands


def timed(label: str, games: int, hands: int, seconds: list[float]) -> None:
    best = min(seconds)
    # Machine-readable for bench/run_all.py (RESULTS.md).
    print(f"RESULT engine.{label}.hands_per_s={hands / best:.6g} hands/s")
    print(
        f"{label:<13} {hands / best:>10,.0f} hands/s   "
        f"{best / games * 1e6:>8,.1f} µs per game   "
        f"(best of {len(seconds)}, median {statistics.median(seconds):.3f} s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games to generate")
    parser.add_argument("--seed", type=int, default=52, help="random seed")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs (best one counts)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    overrides: list[dict[str, Any]] = [
        {},
        {"kaiser_bid": "team", "kaiser_40": True},
        {"seats": 6},
        {"seats": 2},
    ]
    rule_sets = [rules_build({"preset": name}) for name in PRESETS]
    rule_sets += [rules_build({"preset": "standard", **extra}) for extra in overrides[1:]]
    games = []
    for _ in range(args.games):
        rules = rng.choice(rule_sets)
        first, hands = random_game(rng, rules)
        games.append((rules, first, hands))
    records = [
        GameRecord(
            rules=rules,
            seats=tuple(f"Player {seat}" for seat in range(rules.seats)),
            first_dealer=first,
            hands=tuple(hands),
        ).to_dict()
        for rules, first, hands in games
    ]
    hand_count = sum(len(hands) for _, _, hands in games)
    finished = sum(game_score(rules, hands, first).finished for rules, first, hands in games)
    print(
        f"{len(games)} games, {hand_count} hands ({hand_count / len(games):.1f} a game, "
        f"{finished} played to the end), {len(rule_sets)} rule sets, "
        f"Python {sys.version.split()[0]}"
    )

    def run(work) -> list[float]:
        seconds = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            work()
            seconds.append(time.perf_counter() - start)
        return seconds

    def score_all() -> None:
        for rules, first, hands in games:
            game_score(rules, hands, first)

    def records_all() -> None:
        for record in records:
            record_score(record)

    def play_all() -> None:
        for rules, first, hands in games:
            game = game_score(rules, [], first)
            for hand in hands:
                game = game_play(game, hand)

    timed("game_score", len(games), hand_count, run(score_all))
    timed("record_score", len(games), hand_count, run(records_all))
    timed("game_play", len(games), hand_count, run(play_all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
