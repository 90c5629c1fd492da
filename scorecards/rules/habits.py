"""Table habits a `kaiser-game/1` record may carry, which never change a score (rulebook: "Table
habits the app records"; docs/game-record.md defines the fields): why a hand was thrown in, how
cards were passed, what was done with the kitty, a bid announced high or low after the auction,
and the money pot fed by each set bid.

The engine checks them (a clear refusal naming the field) and keeps them: `HandInput` and
`GameRecord` carry them through `from_dict`/`to_dict`, so an import exported again gives back the
same document. `pot_account` says who fed the pot and who collects it, as plain data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorecards.rules.errors import RecordError, shown
from scorecards.rules.i18n import _

# Why a hand was thrown in (a misdeal, or everyone passed where the dealer may pass).
MISDEALS = (
    "no-ace",  # a hand without an ace
    "no-face",  # a hand without a face card
    "no-five-or-three",  # a hand without a 5 or a 3
    "four-tens",
    "four-nines",
    "four-eights",
    "all-passed",  # everyone, dealer included, passed
    "other",
)
# How cards are passed, for the game or one hand. A dealer's call ("3-2-1": 3 cards, then 2,
# then 1) is written as its numbers.
PASSING = (
    "none",
    "partner",  # one card to the partner
    "across",  # two cards across
    "left",
    "right",
    "rotation",  # left, right, across in turn (a hand says which it was)
    "after-auction",  # the bidder and partner exchange after the auction
    "dealer-call",  # the dealer calls it each hand (a hand gives the call)
)
_DEALER_CALL = re.compile(r"[1-8](?:-[1-8]){0,7}")
# What is done with the kitty (a 34-card deal leaves 2 cards).
KITTY = (
    "none",  # no kitty
    "bidder",  # the bidder takes it up and discards as many
    "dealer",  # the dealer takes it up and discards as many
    "set-aside",  # it stays out of play, unseen
    "last-trick",  # it goes with the last trick
)
ANNOUNCED = ("high", "low")  # a bid announced high or low after the auction
POT_LIMIT = 100_000  # the most a set bid may feed the pot, in the club's smallest unit

HAND_HABITS = ("misdeal", "passing", "kitty", "announced")
GAME_HABITS = ("passing", "kitty", "pot")


def _choice_error(field: str, value: Any, choices: tuple[str, ...]) -> str:
    return _("%(field)s must be one of %(choices)s (got %(value)s)") % {
        "field": field,
        "choices": ", ".join(choices),
        "value": shown(value),
    }


def passing_error(value: Any) -> str | None:
    """Why `value` is not a passing scheme or a dealer's call (None if it is one)."""
    if isinstance(value, str) and (value in PASSING or _DEALER_CALL.fullmatch(value)):
        return None
    return _(
        "passing must be one of %(choices)s, or a dealer's call such as 3-2-1 (got %(value)s)"
    ) % {"choices": ", ".join(PASSING), "value": shown(value)}


def hand_habit_error(name: str, value: Any, thrown_in: bool) -> str | None:
    """Why a hand's habit field `name` cannot be `value` (None if it can)."""
    if name == "misdeal":
        if value not in MISDEALS or not isinstance(value, str):
            return _choice_error(name, value, MISDEALS)
        if not thrown_in:
            return _("misdeal is only said of a thrown-in hand")
        return None
    if name == "passing":
        return passing_error(value)
    if name == "kitty":
        if not isinstance(value, str) or value not in KITTY:
            return _choice_error(name, value, KITTY)
        return None
    if not isinstance(value, str) or value not in ANNOUNCED:
        return _choice_error(name, value, ANNOUNCED)
    if thrown_in:
        return _("announced is only said of a played hand")
    return None


@dataclass(frozen=True)
class Pot:
    """The money pot of a game: each set bid feeds it `per_set` (in the club's smallest unit,
    e.g. cents); the winners collect it."""

    per_set: int

    def to_dict(self) -> dict[str, Any]:
        return {"per_set": self.per_set}


def pot_parse(raw: Any) -> Pot:
    """A record's `pot` object. Raises RecordError naming `pot`."""
    if not isinstance(raw, Mapping):
        raise RecordError(
            "pot",
            _('expected an object such as {"per_set": 25} (got %(value)s)') % {"value": shown(raw)},
        )
    per_set = raw.get("per_set")
    if not isinstance(per_set, int) or isinstance(per_set, bool) or not 1 <= per_set <= POT_LIMIT:
        raise RecordError(
            "pot",
            _("per_set must be a whole number from 1 to %(limit)s (got %(value)s)")
            % {"limit": POT_LIMIT, "value": shown(per_set)},
        )
    return Pot(per_set=per_set)


def game_habits_parse(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record's game-level habits (`passing`, `kitty`, `pot`), checked; only those given."""
    out: dict[str, Any] = {}
    for name in GAME_HABITS:
        if name not in record:
            continue
        value = record[name]
        if name == "pot":
            out[name] = pot_parse(value)
            continue
        if name == "passing":
            error = passing_error(value)
        elif isinstance(value, str) and value in KITTY:
            error = None
        else:
            error = _choice_error(name, value, KITTY)
        if error is not None:
            raise RecordError(name, error)
        out[name] = value
    return out


@dataclass(frozen=True)
class PotAccount:
    """Who fed a game's pot and who collects it.

    `fed`: one (hand number, bidder seat) per set bid, in order; `total`: what the pot holds;
    `winners`: the seats of the winning side once the game is over (None before); `balance`:
    per seat, what it collected less what it fed (the pot is shared equally by the winners, a
    remainder going to the first of them clockwise from seat 0)."""

    per_set: int
    fed: tuple[tuple[int, int], ...]
    total: int
    winners: tuple[int, ...] | None
    balance: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "per_set": self.per_set,
            "fed": [{"hand": hand, "seat": seat} for hand, seat in self.fed],
            "total": self.total,
            "winners": None if self.winners is None else list(self.winners),
            "balance": list(self.balance),
        }


def pot_account(game: Any, pot: Pot) -> PotAccount:
    """The pot of a scored game (`GameScore`): each set bid (a bid not made, kaiser bids
    included) feeds `pot.per_set` from its bidder; when the game is over its winning side
    collects it all."""
    rules = game.rules
    fed = tuple(
        (hand.number, hand.bidder)
        for hand in game.hands
        if not hand.thrown_in and hand.made is False
    )
    balance = [0] * rules.seats
    for _number, seat in fed:
        balance[seat] -= pot.per_set
    total = pot.per_set * len(fed)
    winners = None
    if game.finished and game.winner is not None:
        winners = rules.sides[game.winner]
        share, rest = divmod(total, len(winners))
        for index, seat in enumerate(winners):
            balance[seat] += share + (1 if index < rest else 0)
    return PotAccount(
        per_set=pot.per_set, fed=fed, total=total, winners=winners, balance=tuple(balance)
    )
