"""Small builders for the rules tests."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scorecards.rules import GameScore, HandInput, HandScore, Rules, game_play, rules_build

ENGINE = Path(__file__).resolve().parents[2] / "scorecards" / "rules"


def rules_of(preset: str = "standard", **overrides: Any) -> Rules:
    return rules_build({"preset": preset, **overrides})


def standing(
    rules: Rules,
    scores: Sequence[int],
    *,
    target: int | None = None,
    bid_out: Any = ...,
    dealer: int = 0,
) -> GameScore:
    """A game in progress at `scores` (as if after some hands), `dealer` to deal next. The
    target and bid-out default to the rules' starting ones."""
    return GameScore(
        rules=rules,
        hands=(),
        scores=tuple(scores),
        target=rules.target if target is None else target,
        bid_out=rules.bid_out if bid_out is ... else bid_out,
        finished=False,
        winner=None,
        reason=None,
        next_dealer=dealer,
    )


def hand(
    bidder: int,
    bid: int | None,
    tricks: Sequence[int],
    five: int | None,
    three: int | None,
    kind: str = "trump",
    **fields: Any,
) -> HandInput:
    """A played hand; `tricks` per side (or per seat with `per_seat=True`)."""
    per_seat = fields.pop("per_seat", False)
    return HandInput(
        bidder=bidder,
        bid=bid,
        kind=kind,
        tricks=None if per_seat else tuple(tricks),
        seat_tricks=tuple(tricks) if per_seat else None,
        five_hearts=five,
        three_spades=three,
        **fields,
    )


def play(game: GameScore, *hands: HandInput) -> GameScore:
    for one in hands:
        game = game_play(game, one)
    return game


def last(game: GameScore) -> HandScore:
    return game.hands[-1]


def calls_of_underscore(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
    ]


def engine_messages() -> list[str]:
    """Every literal the engine hands to `_`, as makemessages extracts them."""
    messages = []
    for path in sorted(ENGINE.glob("*.py")):
        for call in calls_of_underscore(ast.parse(path.read_text(encoding="utf-8"))):
            (argument,) = call.args
            messages.append(argument.value)  # type: ignore[attr-defined]
    return messages
