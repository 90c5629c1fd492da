"""The money pot of a game: each set bid puts `pot_per_set` cents in, paid by the seat that bid;
the winning side collects the pot when the game ends, shared between its seats (a remainder of
cents goes to the first of them in seat order). Whether a bid was set is the engine's verdict.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from scorecards.rules import GameScore


@dataclass(frozen=True)
class Pot:
    """`fed`: (seat, cents) of every seat that put money in, in seat order; `collected`:
    (seat, cents) of the winners once the game is won, else empty."""

    per_set: int
    total: int
    fed: tuple[tuple[int, int], ...]
    collected: tuple[tuple[int, int], ...]

    def balances(self) -> dict[int, int]:
        """What each seat gained (+) or put in (-) over the game."""
        out: Counter[int] = Counter()
        for seat, cents in self.fed:
            out[seat] -= cents
        for seat, cents in self.collected:
            out[seat] += cents
        return dict(out)


def game_pot(per_set: int | None, score: GameScore) -> Pot | None:
    """The pot of a game scored as `score`; None when the game keeps no pot."""
    if per_set is None:
        return None
    fed: Counter[int] = Counter()
    for hand in score.hands:
        if not hand.thrown_in and hand.made is False and hand.bidder is not None:
            fed[hand.bidder] += per_set
    total = sum(fed.values())
    collected: tuple[tuple[int, int], ...] = ()
    if score.finished and score.winner is not None and total:
        seats = sorted(score.rules.sides[score.winner])
        share, rest = divmod(total, len(seats))
        collected = tuple((seat, share + (1 if i < rest else 0)) for i, seat in enumerate(seats))
    return Pot(per_set=per_set, total=total, fed=tuple(sorted(fed.items())), collected=collected)


def cents_decimal(cents: int) -> Decimal:
    """Cents as an amount with two decimals (150 -> 1.50), as a form shows it."""
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def cents_text(cents: int) -> str:
    """An amount of cents as a number with two decimals, in the active language's format."""
    from django.utils.formats import number_format

    return number_format(cents / 100, decimal_pos=2, use_l10n=True)
