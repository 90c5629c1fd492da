"""What was entered for a hand (HandInput, read from a record or a form) and what came of it
(HandScore, GameScore). Pure: data in, data out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorecards.rules.calls import (
    NOBODY,
    Card,
    _is_int,
    _last_bid,
    call_text,
)
from scorecards.rules.errors import HandError, RecordError, shown
from scorecards.rules.habits import HAND_HABITS
from scorecards.rules.i18n import _
from scorecards.rules.presets import BID_KINDS, Rules
from scorecards.rules.validation import (
    _HABIT_KEYS,
    _NOT_NULL,
    _kind_mismatch,
    _kind_unknown,
    _null_error,
    _number_list_error,
    _thrown_in_error,
    _whole_number_error,
)

# The fields of the common hand, read by `_plain` without the general checks.
_PLAIN_KEYS = frozenset(
    ("bidder", "bid", "kind", "tricks", "five_hearts", "three_spades", "auction")
)


def _plain(raw: dict[str, Any]) -> HandInput | None:
    """The common hand of a record (whole numbers, a list of whole numbers for the tricks, the
    cards as sides, a list of calls), read as `HandInput.from_dict` reads it; None for anything
    else, which the general reading then checks and names. Exact-type tests only (`type(x) is
    int` leaves out bool), so nothing here raises."""
    if None in raw.values():
        return None  # a field given as null: refused or NOBODY, which the general path reads
    bidder, bid, tricks = raw.get("bidder"), raw.get("bid"), raw.get("tricks")
    five, three = raw.get("five_hearts"), raw.get("three_spades")
    if (
        (bidder is not None and type(bidder) is not int)
        or (bid is not None and type(bid) is not int)
        or type(tricks) is not list
        or type(five) is not int
        or type(three) is not int
    ):
        return None
    for value in tricks:
        if type(value) is not int:
            return None
    kind = raw.get("kind")
    auction = raw.get("auction")
    if auction is not None:
        if kind is not None or type(auction) is not list:
            return None  # an explicit kind is checked against the auction by the general path
        for call in auction:
            if type(call) is not str:
                return None
        auction = tuple(auction)
    elif kind is not None and (type(kind) is not str or kind not in BID_KINDS):
        return None
    return HandInput(
        bidder=bidder,
        bid=bid,
        kind=kind or "trump",
        tricks=tuple(tricks),
        five_hearts=five,
        three_spades=three,
        auction=auction,
    )


@dataclass(frozen=True)
class HandInput:
    """One hand as entered, field for field a `kaiser-game/1` hand.

    With an `auction`, `bidder`, `bid` and `kind` may be left out: they come from the auction
    (and must agree with it where given). `kind` "trump" (the default) alongside an auction is
    read as "what the auction says". Lists given for the tuple fields are turned into tuples.
    Values are only checked against the rules by `game_score`.
    """

    thrown_in: bool = False
    bidder: int | None = None
    bid: int | None = None
    kind: str = "trump"
    tricks: tuple[int, ...] | None = None
    seat_tricks: tuple[int, ...] | None = None
    five_hearts: Card = None
    three_spades: Card = None
    insult: int | None = None
    auction: tuple[str, ...] | None = None
    dealer: int | None = None
    # Table habits, kept but never scored (see scorecards.rules.habits).
    misdeal: str | None = None
    passing: str | None = None
    kitty: str | None = None
    announced: str | None = None

    def __post_init__(self) -> None:
        for name in ("tricks", "seat_tricks", "auction"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        if self.auction is not None and self.kind == "trump":
            won = _last_bid(self.auction)
            if won is not None:
                object.__setattr__(self, "kind", won[0])

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], number: int, *, legacy: bool = False) -> HandInput:
        """The hand from its `kaiser-game/1` dict. Checks the types (a whole number is a JSON
        integer, `true` is not one) and raises HandError(number, field, message); unknown keys
        are ignored. `null` is not leaving a field out: a special card given as null is NOBODY
        (whether nobody may have it is for `game_score` to say), any other field given as null
        is refused.

        `legacy`: read a record written before the format said so, where a kaiser 40's special
        card left out meant NOBODY (the app's own stored hands)."""
        if type(raw) is dict and raw.keys() <= _PLAIN_KEYS:
            plain = _plain(raw)
            if plain is not None:
                return plain
        if not isinstance(raw, Mapping):
            raise HandError(
                number,
                "hand",
                _("expected an object with the hand's fields (got %(value)s)")
                % {"value": shown(raw)},
            )

        if None in raw.values():  # rare: look for the field only then
            for name in _NOT_NULL:
                if name in raw and raw[name] is None:
                    raise HandError(number, name, _null_error(name))

        def whole(name: str) -> int | None:
            value = raw.get(name)
            if value is not None and not _is_int(value):
                raise HandError(number, name, _whole_number_error(name, value))
            return value

        def card(name: str) -> Card:
            if name not in raw:
                return None
            return NOBODY if raw[name] is None else whole(name)

        def numbers(name: str) -> tuple[int, ...] | None:
            value = raw.get(name)
            if value is None:
                return None
            if not isinstance(value, list | tuple) or not all(_is_int(v) for v in value):
                raise HandError(number, name, _number_list_error(name, value))
            return tuple(value)

        thrown_in = raw.get("thrown_in", False)
        if not isinstance(thrown_in, bool):
            raise HandError(number, "thrown_in", _thrown_in_error(thrown_in))
        kind = raw.get("kind")
        if kind is not None and (not isinstance(kind, str) or kind not in BID_KINDS):
            raise HandError(number, "kind", _kind_unknown(kind))
        auction = raw.get("auction")
        if auction is not None:
            if not isinstance(auction, list | tuple):
                raise HandError(
                    number,
                    "auction",
                    _("auction must be a list of calls (got %(value)s)")
                    % {"value": shown(auction)},
                )
            for index, call in enumerate(auction, 1):
                if not isinstance(call, str):
                    raise HandError(
                        number,
                        "auction",
                        _(
                            'auction call %(index)s must be text such as "8", "8 no" or "pass" '
                            "(got %(call)s)"
                        )
                        % {"index": index, "call": shown(call)},
                    )
            auction = tuple(auction)
            won = _last_bid(auction)
            # An explicit kind must agree with the auction; the dataclass would otherwise read
            # an explicit "trump" as "what the auction says". A plain call played in no trump
            # is for the rules to judge (`no_trump_named`).
            if (
                kind is not None
                and won is not None
                and won[0] != kind
                and not (kind == "no" and won[0] == "trump")
            ):
                raise HandError(number, "kind", _kind_mismatch(kind, call_text(*won)))
        five, three = card("five_hearts"), card("three_spades")
        if legacy:
            won = _last_bid(auction) if auction is not None else None
            if (won[0] if won else kind) == "kaiser40":
                five = NOBODY if "five_hearts" not in raw else five
                three = NOBODY if "three_spades" not in raw else three
        return cls(
            thrown_in=thrown_in,
            bidder=whole("bidder"),
            bid=whole("bid"),
            kind=kind or "trump",
            tricks=numbers("tricks"),
            seat_tricks=numbers("seat_tricks"),
            five_hearts=five,
            three_spades=three,
            insult=whole("insult"),
            auction=auction,
            dealer=whole("dealer"),
            **(
                {}
                if _HABIT_KEYS.isdisjoint(raw)
                else {name: raw[name] for name in HAND_HABITS if name in raw}
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """The `kaiser-game/1` hand dict with only the fields that are set (kind only where
        neither "trump" nor what the auction says; a NOBODY card as null);
        `HandInput.from_dict(h.to_dict(), n) == h`."""
        out: dict[str, Any] = {}
        if self.thrown_in:
            out["thrown_in"] = True
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.auction is not None:
            out["auction"] = list(self.auction)
        for name in ("bidder", "bid"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        implied = _last_bid(self.auction) if self.auction is not None else None
        if self.kind != (implied[0] if implied else "trump"):
            out["kind"] = self.kind
        for name in ("tricks", "seat_tricks"):
            if getattr(self, name) is not None:
                out[name] = list(getattr(self, name))
        for name in ("five_hearts", "three_spades"):
            value = getattr(self, name)
            if value is not None:
                out[name] = None if value is NOBODY else value
        if self.insult is not None:
            out["insult"] = self.insult
        for name in HAND_HABITS:
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


@dataclass(frozen=True)
class HandScore:
    """One scored hand. Per-side tuples are in side order. A thrown-in hand has only `number`,
    `dealer`, `delta` (zeros), `scores` and `target` (and `bid_out`) filled in.

    `bid` is 12 for a kaiser and 40 for a kaiser 40. `points` is what each side took; `delta`
    what the hand added to each score after the bid, bid-out, cap, doubling and insult rules;
    `scores` the totals after it; `target` the target in force after it; `bid_out` the bid-out
    in force when the hand began (the one that limited it).
    """

    number: int
    dealer: int
    thrown_in: bool
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    bid_out: int | None = None
    bidder: int | None = None
    side: int | None = None
    bid: int | None = None
    kind: str | None = None
    tricks: tuple[int, ...] | None = None
    seat_tricks: tuple[int, ...] | None = None
    points: tuple[int, ...] | None = None
    made: bool | None = None
    five_hearts: int | None = None
    three_spades: int | None = None
    insult: int | None = None
    target_raised: bool = False  # this hand's made no/low bid raised the target
    sold: bool | None = None  # dealer_sells: the dealer accepted another seat's bid

    def as_result(self) -> dict[str, Any]:
        """The `kaiser-result/1` hand dict."""
        out: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "thrown_in": self.thrown_in,
            "made": self.made,
            "delta": list(self.delta),
            "scores": list(self.scores),
            "target": self.target,
        }
        if self.thrown_in:
            return out
        assert self.tricks is not None and self.points is not None
        out |= {
            "bidder": self.bidder,
            "side": self.side,
            "bid": self.bid,
            "kind": self.kind,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "five_hearts": self.five_hearts,
            "three_spades": self.three_spades,
        }
        if self.seat_tricks is not None:
            out["seat_tricks"] = list(self.seat_tricks)
        if self.insult is not None:
            out["insult"] = self.insult
        if self.sold is not None:
            out["sold"] = self.sold
        return out


class _HandScoreDraft:
    """A HandScore being filled in, one field after the other as on any plain object; `done`
    makes it the HandScore. The frozen dataclass's __init__ sets each of the 20 fields through
    object.__setattr__: about 2 µs a hand, where scoring the whole hand now takes under 4.

    The draft has HandScore's layout (a plain class keeping its fields in its __dict__), so
    Python lets `done` switch the object's class. HandScore has no __post_init__ to miss; the
    scorer sets every field, in field order, and tests/rules/test_quick.py holds what it builds
    to what __init__ builds."""

    number: int
    dealer: int
    thrown_in: bool
    delta: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    bid_out: int | None
    bidder: int | None
    side: int | None
    bid: int | None
    kind: str | None
    tricks: tuple[int, ...] | None
    seat_tricks: tuple[int, ...] | None
    points: tuple[int, ...] | None
    made: bool | None
    five_hearts: int | None
    three_spades: int | None
    insult: int | None
    target_raised: bool
    sold: bool | None

    def done(self) -> HandScore:
        object.__setattr__(self, "__class__", HandScore)
        return self  # type: ignore[return-value]  # it is one now (`cast` is a call: slower)


@dataclass(frozen=True)
class GameScore:
    """A game scored so far. `scores` are the cumulative totals per side; `target` is the one
    in force now and `bid_out` the one for the next hand; `winner` is a side number; `reason`
    is "target", "minus", "kaiser" or "heart"; `next_dealer` is None once finished."""

    rules: Rules
    hands: tuple[HandScore, ...]
    scores: tuple[int, ...]
    target: int
    bid_out: int | None
    finished: bool
    winner: int | None
    reason: str | None
    next_dealer: int | None

    def as_result(self, seat_names: Sequence[str]) -> dict[str, Any]:
        """The full `kaiser-result/1` document, sides named by `seat_names` (seat order)."""
        if len(seat_names) != self.rules.seats:
            raise RecordError(
                "seats",
                _("expected %(seats)s names (got %(count)s)")
                % {"seats": self.rules.seats, "count": len(seat_names)},
            )
        return {
            "format": "kaiser-result/1",
            "sides": [[seat_names[seat] for seat in side] for side in self.rules.sides],
            "hands": [hand.as_result() for hand in self.hands],
            "scores": list(self.scores),
            "target": self.target,
            "bid_out": self.bid_out,
            "finished": self.finished,
            "winner": self.winner,
            "reason": self.reason,
            "next_dealer": self.next_dealer,
        }
