"""Side by side with dcm454/kaiser: its own random games replayed through our engine under the
`dcm454` preset; agreement per hand (the scores after it) and per game ending (finished, winner).

The peer is not vendored: fetch its one engine file first, e.g.

    mkdir -p /tmp/peers/dcm454
    curl -sL https://raw.githubusercontent.com/dcm454/kaiser/HEAD/kaiser.py \\
        -o /tmp/peers/dcm454/kaiser.py

then: .venv/bin/python bench/peers/dcm454_side_by_side.py [--peer-dir /tmp/peers/dcm454]
[--games N] [--seed S]. Optional to run; no test depends on it.

The peer's game is driven as its players would drive it: random calls (pass, a higher number,
an equal one in no trump, the dealer taking the bid), the winner naming a trump or no trump after
the auction, random legal cards. Each hand is recorded as our record writes it (the auction as
called, the kind as played, the tricks per side, who took the five of hearts and the three of
spades) and played on our engine.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scorecards.rules import HandInput, KaiserError, game_play, game_score, rules_build


def peer_load(directory: Path) -> ModuleType:
    path = directory / "kaiser.py"
    if not path.exists():
        sys.exit(f"{path} is missing: fetch the peer first (see this file's docstring)")
    spec = importlib.util.spec_from_file_location("dcm454_kaiser", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dcm454_kaiser"] = module
    spec.loader.exec_module(module)
    return module


def auction_play(game: Any, rng: random.Random) -> list[str]:
    """Drive the peer's auction with random legal calls; the calls as our record writes them."""
    calls: list[str] = []
    dealer = game.dealer_index
    while game.phase == "bidding":
        seat = game.bid_turn_index
        high = game.highest_bid
        options: list[tuple[str, int, bool]] = []  # (action, value, no trump)
        if not (seat == dealer and high is None):
            options += [("pass", 0, False)] * 8
        low = 7 if high is None else high.value + 1
        for value in range(low, min(low + 1, 12) + 1):
            options.append(("bid", value, rng.random() < 0.2))
        if high is not None:
            options.append(("bid", high.value, True))  # equal, in no trump
            if seat == dealer:
                options += [("take", high.value, False), ("take", high.value, True)]
        action, value, no = rng.choice(options)
        if action == "pass":
            game.pass_bid()
            calls.append("pass")
        elif action == "bid":
            game.place_bid(value, "no-trump" if no else None)
            calls.append(f"{value} no" if no else str(value))
        else:
            game.dealer_take_bid("no-trump" if no else None)
            calls.append(f"{value} no" if no else str(value))
    return calls


def hand_play(game: Any, rng: random.Random, module: ModuleType) -> dict[str, Any]:
    """One hand of the peer, dealt, bid, named and played; our record of it."""
    game.deal_new_hand()
    calls = auction_play(game, rng)
    if game.phase == "choosing_trump":
        game.choose_contract_trump(rng.choice(module.TRUMP_ORDER))
    holders: dict[str, int] = {}
    while game.phase == "playing":
        player = game.players[game.play_turn_index]
        trick = [card for _, card in game.current_trick]
        cards = rng.sample(player.hand, len(player.hand))
        if game.play_turn_index % 2 == game.contract.player_index % 2:
            # The bidding side plays its trumps and high cards first, so that bids are made
            # and games end as often as at a table.
            trump = game.contract.trump
            cards.sort(key=lambda c: (c.suit == trump, module.RANK_ORDER.index(c.rank)))
            cards.reverse()
        for card in cards:
            token = f"{card.rank}{card.suit[0]}"
            try:
                game.play_card(token)
            except ValueError:
                continue
            trick.append(card)
            break
        if not game.current_trick:  # the trick is over: its winner leads the next
            team = game.trick_leader_index % 2
            for card in trick:
                if (card.rank, card.suit) == ("5", "hearts"):
                    holders["five"] = team
                if (card.rank, card.suit) == ("3", "spades"):
                    holders["three"] = team
    contract = game.contract
    return {
        "auction": tuple(calls),
        "kind": "no" if contract.trump == "no-trump" else "trump",
        "tricks": tuple(game.team_tricks),
        "five_hearts": holders["five"],
        "three_spades": holders["three"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-dir", type=Path, default=Path("/tmp/peers/dcm454"))
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=454)
    args = parser.parse_args()
    module = peer_load(args.peer_dir)
    rng = random.Random(args.seed)
    module.random.seed(args.seed)  # the peer shuffles with the random module
    rules = rules_build({"preset": "dcm454"})
    hands_agree = hands_total = endings_agree = refused = ended = named_after = all_or_nothing = 0
    first_disagreement: str | None = None
    for number in range(args.games):
        peer = module.KaiserGame.new_default()
        ours = game_score(rules, [], peer.dealer_index)
        finished = False
        for _ in range(200):
            record = hand_play(peer, rng, module)
            hands_total += 1
            try:
                ours = game_play(ours, HandInput(**record))
            except KaiserError as error:
                refused += 1
                first_disagreement = first_disagreement or f"game {number}: {record}: {error}"
                break
            scored = ours.hands[-1]
            bids = [call for call in record["auction"] if call != "pass"]
            named_after += record["kind"] == "no" and not bids[-1].endswith("no")
            assert scored.side is not None and scored.points is not None
            other = 1 - scored.side
            all_or_nothing += scored.points[other] > 0 and scored.delta[other] == 0
            if tuple(ours.scores) == tuple(peer.game_score):
                hands_agree += 1
            elif first_disagreement is None:
                first_disagreement = (
                    f"game {number}: {record}: ours {ours.scores}, theirs {peer.game_score}"
                )
            finished = peer.winning_team_index is not None
            if finished or ours.finished:
                break
            peer.rotate_dealer()
        ended += finished
        if finished == ours.finished and (not finished or ours.winner == peer.winning_team_index):
            endings_agree += 1
    print(f"dcm454 side by side: {args.games} games, {hands_total} hands, seed {args.seed}")
    print(f"RESULT peers.dcm454.hands_agree={hands_agree}/{hands_total}")
    print(f"RESULT peers.dcm454.endings_agree={endings_agree}/{args.games}")
    print(f"games won within 200 hands: {ended}; refused by our engine: {refused}")
    print(
        f"hands named no trump after a plain call: {named_after}; "
        f"non-bidders held to nothing at the target: {all_or_nothing}"
    )
    if first_disagreement:
        print(f"first disagreement: {first_disagreement}")
    return 0 if hands_agree == hands_total and endings_agree == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
