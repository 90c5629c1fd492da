"""kaiser-lib's own test vectors through our engine, under the `kaisergame.com` preset: the hand
its unit test plays (its mocks' deal, auction and card play) scored by us against the scores its
test expects, and the calls its test says are valid or refused as openings of our auction.

The peer is not vendored. Fetch and compile it as `kaiserlib_side_by_side.py` says (its
docstring), then:

    .venv/bin/python bench/peers/kaiserlib_vectors.py [--dist /tmp/peers/kaiser-lib/dist]

Optional to run; tests/rules/test_kaiserlib_vectors.py holds the same vectors as our own table
of cases (the hand as our record writes it, the scores its test expects), so no test needs the
peer. Exit status 0 when every vector agrees.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scorecards.rules import HandError, KaiserError, record_score

DRIVER = Path(__file__).with_name("kaiserlib_vectors.js")
SEATS = ["Ryan", "Cody", "Stacey", "Paul"]  # the mocks' players, seat 0 dealing first


def _rules(config: dict[str, Any]) -> dict[str, Any]:
    return {"preset": "kaisergame.com", "min_bid": config["minBid"], "target": config["scoreToWin"]}


def opening_taken(config: dict[str, Any], call: str) -> bool:
    """Whether our engine takes `call` as the first call of a hand dealt by seat 0 (the others
    passing; after a first pass, the dealer bids the minimum)."""
    calls = [call, "pass", "pass", "pass"] if call != "pass" else ["pass", "pass", "pass", "7"]
    hand = {"auction": calls, "tricks": [4, 4], "five_hearts": 0, "three_spades": 1}
    try:
        record_score({"rules": _rules(config), "seats": SEATS, "hands": [hand]})
    except KaiserError:
        return False
    return True


def refused_on_auction(config: dict[str, Any], calls: list[str]) -> bool:
    hand = {"auction": calls, "tricks": [4, 4], "five_hearts": 0, "three_spades": 1}
    try:
        record_score({"rules": _rules(config), "seats": SEATS, "hands": [hand]})
    except HandError as error:
        return error.field == "auction"
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=Path("/tmp/peers/kaiser-lib/dist"))
    args = parser.parse_args()
    if not (args.dist / "Game" / "__mocks__" / "Game.js").exists():
        sys.exit(f"{args.dist} has no compiled kaiser-lib: see kaiserlib_side_by_side.py")
    run = subprocess.run(
        ["node", str(DRIVER), str(args.dist.resolve())],
        capture_output=True,
        text=True,
        check=True,
    )
    vectors = json.loads(run.stdout)
    config = vectors["config"]
    checks: list[tuple[str, bool]] = []

    # The peer itself gives what its test expects (else the vectors were not replayed right).
    bids = vectors["valid_bids"]
    checks.append(("peer: its valid bids are its test's", bids["peer"] == bids["expected"]))
    for hand in vectors["hands"]:
        checks.append(
            ("peer: its hand scores as its test expects", hand["peer"] == hand["expected"])
        )

    # Our engine on the same vectors.
    for number, hand in enumerate(vectors["hands"], 1):
        record = {
            "rules": _rules(config),
            "seats": SEATS,
            "first_dealer": hand["dealer"],
            "hands": [
                {
                    "auction": hand["auction"],
                    "tricks": hand["tricks"],
                    "five_hearts": hand["five_hearts"],
                    "three_spades": hand["three_spades"],
                }
            ],
        }
        ours = record_score(record)["hands"][0]
        expected = hand["expected"]
        checks.append((f"hand {number}: made", ours["made"] == expected["made"]))
        checks.append(
            (f"hand {number}: points {expected['points']}", ours["points"] == expected["points"])
        )
        checks.append(
            (f"hand {number}: scores {expected['scores']}", ours["scores"] == expected["scores"])
        )
    for call in bids["expected"]:
        checks.append((f"opening call {call!r} taken", opening_taken(config, call)))
    if vectors["refused"]["bid_below_min_bid"]:
        checks.append(
            ("a bid of 5 refused", refused_on_auction(config, ["5", "pass", "pass", "pass"]))
        )
    if vectors["refused"]["fifth_call"]:
        calls = ["7", "7 no", "8", "8", "10 no"]
        checks.append(("a fifth call refused", refused_on_auction(config, calls)))

    agree = sum(ok for _, ok in checks)
    for label, ok in checks:
        if not ok:
            print(f"DISAGREE: {label}")
    played, openings = len(vectors["hands"]), len(bids["expected"])
    print(f"kaiser-lib test vectors: {played} played hand(s), {openings} opening calls")
    print(f"RESULT peers.kaiserlib.vectors_agree={agree}/{len(checks)}")
    return 0 if agree == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
