"""Benchmark of the rules engine: score many generated games, print hands scored per second.

usage: .venv/bin/python bench/engine_bench.py [--games N] [--seed S] [--repeat R]

Games are generated first (valid hands for every preset, played to the end of the game or 60
hands), then timed three ways: `game_score` on the hands as entered, `record_score` on the
whole kaiser-game/1 record (reading, validation, scoring and the result document), and
`game_play` adding the hands one at a time. No Django needed.

Then the whole-record path beside a plain loop: the standard game's records scored by
`record_score` and by `plain_score`, a plain-Python scorer of the same records (read the dict,
check each hand's fields, score the standard rules, build the same result document) written
here as the baseline the engine must keep up with. The plain loop is checked to give the same
documents before it is timed; the two are timed in turns, on this process's CPU time (a machine
busy with other work slows both alike), and the ratio printed is engine time / plain time, best
run against best run (at most 1: as fast).
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


def _plain_hand(raw: Any, dealer: int) -> tuple[int, str, int, list[int], int, int]:
    """A standard-game hand of a record as a plain scorer reads it: bidder, kind, bid, tricks
    and the two cards, each checked (types, seats, sums, the auction's order), or ValueError."""
    if type(raw) is not dict or raw.get("thrown_in", False) is not False:
        raise ValueError("not a plain hand")
    auction = raw.get("auction")
    bidder, bid, kind = raw.get("bidder"), raw.get("bid"), raw.get("kind", "trump")
    if auction is not None:
        best, won = (0, 0), None
        for index, call in enumerate(auction, 1):
            if call == "pass":
                continue
            number, _, no = call.partition(" ")
            rank = (int(number), 1 if no == "no" else 0)
            seat = (dealer + index) % 4
            if rank < best or (rank == best and seat != dealer):
                raise ValueError("auction out of order")
            best, won = rank, seat
        if won is None or (bidder is not None and bidder != won):
            raise ValueError("auction")
        bidder, bid, kind = won, best[0], "no" if best[1] else "trump"
    if type(bidder) is not int or not 0 <= bidder < 4 or type(bid) is not int:
        raise ValueError("bidder or bid")
    if not 7 <= bid <= 12 or kind not in ("trump", "no"):
        raise ValueError("bid")
    tricks = raw.get("tricks")
    if type(tricks) is not list or len(tricks) != 2 or sum(tricks) != 8 or min(tricks) < 0:
        raise ValueError("tricks")
    five, three = raw.get("five_hearts"), raw.get("three_spades")
    if five not in (0, 1) or three not in (0, 1) or not tricks[five] or not tricks[three]:
        raise ValueError("cards")
    return bidder, kind, bid, tricks, five, three


def plain_score(record: dict[str, Any]) -> dict[str, Any]:
    """The standard game's `kaiser-result/1` document of a record, in plain Python dicts: the
    baseline of the whole-record path (bid-out 45, 55 once the target is raised to 62 by a made
    no-trump bid, lose at -52, the bidding side wins)."""
    seats = record["seats"]
    dealer = record.get("first_dealer", 0)
    scores = [0, 0]
    target, bid_out, next_bid_out = 52, 45, 45
    winner = reason = None
    hands_out = []
    for number, raw in enumerate(record["hands"], 1):
        if winner is not None:
            raise ValueError("the game is over")
        if raw.get("thrown_in"):
            hands_out.append(
                {
                    "number": number,
                    "dealer": dealer,
                    "thrown_in": True,
                    "delta": [0, 0],
                    "scores": list(scores),
                    "target": target,
                }
            )
            continue
        bidder, kind, bid, tricks, five, three = _plain_hand(raw, dealer)
        bid_out = next_bid_out
        side = bidder % 2
        points = list(tricks)
        points[five] += 5
        points[three] -= 3
        times = 2 if kind == "no" else 1
        made = points[side] >= bid
        delta = [0, 0]
        delta[side] = times * points[side] if made else -times * bid
        other = 1 - side
        took = points[other]
        delta[other] = took if took <= 0 or scores[other] < bid_out else 0
        if made and kind == "no" and target == 52:
            target, next_bid_out = 62, 55
        scores = [scores[0] + delta[0], scores[1] + delta[1]]
        if made and scores[side] >= target:
            winner, reason = side, "target"
        elif scores[side] <= -52:
            winner, reason = other, "minus"
        elif scores[other] <= -52:
            winner, reason = side, "minus"
        hand_out = {
            "number": number,
            "dealer": dealer,
            "thrown_in": False,
            "made": made,
            "delta": delta,
            "scores": list(scores),
            "target": target,
            "bidder": bidder,
            "side": side,
            "bid": bid,
            "kind": kind,
            "tricks": list(tricks),
            "points": points,
            "five_hearts": five,
            "three_spades": three,
        }
        hands_out.append(hand_out)
        if winner is None:
            dealer = (dealer + 1) % 4
    return {
        "sides": [[seats[0], seats[2]], [seats[1], seats[3]]],
        "hands": hands_out,
        "scores": scores,
        "target": target,
        "winner": winner,
        "reason": reason,
    }


def _same(engine: dict[str, Any], plain: dict[str, Any]) -> bool:
    """The plain document agrees with the engine's on what both say."""
    keys = ("sides", "scores", "target", "winner", "reason")
    if any(engine[key] != plain[key] for key in keys) or len(engine["hands"]) != len(
        plain["hands"]
    ):
        return False
    return all(
        all(ours.get(key) == value for key, value in theirs.items())
        for ours, theirs in zip(engine["hands"], plain["hands"], strict=True)
    )


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

    def run_once(work) -> list[float]:
        start = time.process_time()  # this process's time: another's load is not counted
        work()
        return [time.process_time() - start]

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

    # The whole-record path beside the plain loop, on the standard game's records.
    standard = rules_build()
    plain_records: list[dict[str, Any]] = []
    while len(plain_records) < args.games:
        first, hands = random_game(rng, standard)
        plain_records.append(
            GameRecord(
                rules=standard,
                seats=tuple(f"Player {seat}" for seat in range(4)),
                first_dealer=first,
                hands=tuple(hands),
            ).to_dict()
        )
    for record in plain_records:
        if not _same(record_score(record), plain_score(record)):
            print("the plain loop disagrees with the engine on", record)
            return 1
    plain_hands = sum(len(record["hands"]) for record in plain_records)

    def engine_records() -> None:
        for record in plain_records:
            record_score(record)

    def plain_records_all() -> None:
        for record in plain_records:
            plain_score(record)

    # Taken in turns, so that a machine busy with something else slows both alike.
    engine_seconds: list[float] = []
    plain_seconds: list[float] = []
    for _ in range(max(args.repeat, 7)):
        engine_seconds += run_once(engine_records)
        plain_seconds += run_once(plain_records_all)
    print(f"standard records: {len(plain_records)} games, {plain_hands} hands, agreeing")
    timed("record_std", len(plain_records), plain_hands, engine_seconds)
    timed("plain_std", len(plain_records), plain_hands, plain_seconds)
    per_thousand = 1000 / len(plain_records) * 1e3
    print(
        f"per 1,000 games: record_score {min(engine_seconds) * per_thousand:.1f} ms, "
        f"plain loop {min(plain_seconds) * per_thousand:.1f} ms"
    )
    ratio = min(engine_seconds) / min(plain_seconds)
    print(f"RESULT engine.record_vs_plain.ratio={ratio:.3f} x")
    print(f"record_score / plain loop: {ratio:.2f}x the time ({'PASS' if ratio <= 1 else 'FAIL'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
