"""Side by side with kaiser-lib (the engine of kaisergame.com): its own random games replayed
through our engine under the `kaisergame.com` preset (with each game's minimum bid and score to
win); agreement per hand (the team scores after it) and per game ending (finished, winner).

The peer is not vendored. Fetch and compile it first (TypeScript 4.9, in a directory of its own):

    git clone https://github.com/kaisergame/kaiser-lib /tmp/peers/kaiser-lib
    mkdir -p /tmp/peers/tsc && cd /tmp/peers/tsc && npm init -y && npm install typescript@4.9.5
    cd /tmp/peers/kaiser-lib && /tmp/peers/tsc/node_modules/.bin/tsc -p tsconfig.json \\
        --outDir dist --declaration false --sourceMap false   # its test files' errors are harmless
    mkdir -p dist/node_modules && ln -sfn .. dist/node_modules/src   # its `src/...` imports

then: .venv/bin/python bench/peers/kaiserlib_side_by_side.py [--dist /tmp/peers/kaiser-lib/dist]
[--games N] [--seed S]. Optional to run; no test depends on it. The games are played by our
driver, `kaiserlib_games.js`, on the compiled peer.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scorecards.rules import HandInput, KaiserError, game_play, game_score, rules_build

DRIVER = Path(__file__).with_name("kaiserlib_games.js")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=Path("/tmp/peers/kaiser-lib/dist"))
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=52)
    args = parser.parse_args()
    if not (args.dist / "Game" / "Game.js").exists():
        sys.exit(f"{args.dist} has no compiled kaiser-lib: see this file's docstring")
    run = subprocess.run(
        ["node", str(DRIVER), str(args.dist.resolve()), str(args.games), str(args.seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    hands_agree = hands_total = endings_agree = games = ended = refused = special = 0
    first_disagreement: str | None = None
    for line in run.stdout.splitlines():
        peer = json.loads(line)
        games += 1
        rules = rules_build(
            {"preset": "kaisergame.com", "min_bid": peer["minBid"], "target": peer["scoreToWin"]}
        )
        ours = game_score(rules, [], peer["firstDealer"])
        for hand in peer["hands"]:
            hands_total += 1
            special += any(call.startswith(("13", "14")) for call in hand["auction"])
            played = HandInput(
                auction=tuple(hand["auction"]),
                kind=hand["kind"],
                tricks=tuple(hand["tricks"]),
                five_hearts=hand["five_hearts"],
                three_spades=hand["three_spades"],
            )
            try:
                ours = game_play(ours, played)
            except KaiserError as error:
                refused += 1
                first_disagreement = first_disagreement or f"game {games}: {hand}: {error}"
                break
            if list(ours.scores) == hand["scores"]:
                hands_agree += 1
            elif first_disagreement is None:
                first_disagreement = f"game {games}: {hand}: ours {list(ours.scores)}"
        finished = peer["winner"] is not None
        ended += finished
        if finished == ours.finished and (not finished or ours.winner == peer["winner"]):
            endings_agree += 1
    print(f"kaiser-lib side by side: {games} games, {hands_total} hands, seed {args.seed}")
    print(f"RESULT peers.kaiserlib.hands_agree={hands_agree}/{hands_total}")
    print(f"RESULT peers.kaiserlib.endings_agree={endings_agree}/{games}")
    print(f"games won within 300 hands: {ended}; refused by our engine: {refused}")
    print(f"hands with 13 no or 14 no called: {special}")
    if first_disagreement:
        print(f"first disagreement: {first_disagreement}")
    return 0 if hands_agree == hands_total and endings_agree == games else 1


if __name__ == "__main__":
    sys.exit(main())
