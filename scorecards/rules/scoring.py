"""Hands and games: each hand is validated against the rules and the game so far, then scored.

Rulebook sections: "Bids" (auction, bid order), "Points taken in a hand", "Scoring a hand",
"Targets and the end of the game" and "Special bids". Everything here is pure: data in, data out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scorecards.rules.errors import HandError, RecordError, shown
from scorecards.rules.habits import HAND_HABITS, hand_habit_error
from scorecards.rules.i18n import _
from scorecards.rules.presets import BID_KINDS, Rules

KAISER_POINTS = 12  # what a kaiser bid must take, and the `bid` it is shown as
KAISER_40_POINTS = 40  # won or lost by a kaiser 40, and the `bid` it is shown as
INSULT_POINTS = 5  # Joffre's insult
NO_TRUMP_KINDS = ("no", "low")  # doubled, and the first one made raises the target


class Nobody(Enum):
    """The type of NOBODY."""

    NOBODY = "nobody"

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = Nobody.NOBODY
"""A special card that no side took: left in a kaiser 40 partner's unplayed hand, or cancelled
by a blank card (`blank_cards`). A record writes it `null`; None on a HandInput means "not
given", which is refused on a played hand (the card must be told, even when nobody took it)."""

Card = int | Nobody | None


def _kind_off(kind: str) -> str:
    """Why a bid of `kind` (one of BID_KINDS, not allowed by the rules) cannot be played."""
    if kind == "no":
        return _("no-trump bids are not played under these rules (no_trump is off)")
    if kind == "low":
        return _("low bids are not played under these rules (low_no_trump is off)")
    if kind == "kaiser":
        return _("kaiser bids are not played under these rules (kaiser_bid is off)")
    return _("kaiser 40 is not played under these rules (kaiser_40 is off)")


def _card_name(field: str) -> str:
    """The card a hand field is about, as said in a message."""
    if field == "five_hearts":
        return _("the five of hearts")
    return _("the three of spades")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------------
# Calls of the auction


_CALL = re.compile(r"([0-9]{1,3})(?: (trump|no|low))?|(kaiser)(?: ?(40))?")


def call_parse(text: str) -> tuple[str, int] | None:
    """One call of an auction as `(kind, bid)`, or None for a pass.

    `"8"` -> ("trump", 8), `"8 no"`, `"8 low"`, `"kaiser"` -> ("kaiser", 12) and `"kaiser 40"`
    -> ("kaiser40", 40); case and extra spaces do not matter. Raises ValueError otherwise.
    Whether the call is allowed is for the rules to say, not this function.
    """
    words = " ".join(str(text).lower().split())
    if words == "pass":
        return None
    match = _CALL.fullmatch(words)
    if match is None:
        raise ValueError(_("not a call: %(text)s") % {"text": shown(text)})
    number, kind, kaiser, forty = match.groups()
    if kaiser:
        return ("kaiser40", KAISER_40_POINTS) if forty else ("kaiser", KAISER_POINTS)
    return (kind or "trump", int(number))


def call_text(kind: str, bid: int | None) -> str:
    """How a bid is written in an auction: "8", "8 no", "kaiser", "kaiser 40"."""
    if kind == "kaiser":
        return "kaiser"
    if kind == "kaiser40":
        return "kaiser 40"
    return f"{bid}" if kind == "trump" else f"{bid} {kind}"


def _last_bid(auction: Sequence[Any]) -> tuple[str, int] | None:
    """The last bid of an auction: the winning one when the auction is valid (each bid must
    outbid the ones before it, and the dealer, who may equal, calls last)."""
    for call in reversed(auction):
        try:
            parsed = call_parse(call) if isinstance(call, str) else None
        except ValueError:
            return None
        if parsed is not None:
            return parsed
    return None


# ---------------------------------------------------------------------------------------------
# What was entered


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
        if not isinstance(raw, Mapping):
            raise HandError(
                number,
                "hand",
                _("expected an object with the hand's fields (got %(value)s)")
                % {"value": shown(raw)},
            )

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
            # an explicit "trump" as "what the auction says".
            if kind is not None and won is not None and won[0] != kind:
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
            **{name: raw[name] for name in HAND_HABITS if name in raw},
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


# ---------------------------------------------------------------------------------------------
# What came of it


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


# ---------------------------------------------------------------------------------------------
# Validation of one hand


@dataclass(frozen=True)
class _Contract:
    bidder: int
    kind: str
    bid: int  # 12 for kaiser, 40 for kaiser 40


# Messages said of several fields; `field` is the hand's key, which stays as it is.


def _whole_number_error(field: str, value: Any) -> str:
    return _("%(field)s must be a whole number (got %(value)s)") % {
        "field": field,
        "value": shown(value),
    }


def _number_list_error(field: str, value: Any) -> str:
    return _("%(field)s must be a list of whole numbers (got %(value)s)") % {
        "field": field,
        "value": shown(value),
    }


def _side_error(field: str, value: Any, rules: Rules) -> str:
    return _("%(field)s must be a side from 0 to %(last)s (got %(value)s)") % {
        "field": field,
        "last": rules.side_count - 1,
        "value": shown(value),
    }


# Fields a record may leave out but not give as null (the special cards may be null).
_NOT_NULL = (
    "thrown_in",
    "dealer",
    "bidder",
    "bid",
    "kind",
    "auction",
    "tricks",
    "seat_tricks",
    "insult",
    *HAND_HABITS,
)


def _null_error(field: str) -> str:
    return _("%(field)s must not be null (leave it out instead)") % {"field": field}


def _thrown_in_error(value: Any) -> str:
    return _("thrown_in must be true or false (got %(value)s)") % {"value": shown(value)}


def _kind_unknown(kind: Any) -> str:
    return _("kind must be one of %(kinds)s (got %(kind)s)") % {
        "kinds": ", ".join(BID_KINDS),
        "kind": shown(kind),
    }


def _kind_mismatch(kind: str, won: str) -> str:
    # Translators: the kind is a record value (trump, no, low, kaiser, kaiser40) and the call
    # is written as in an auction ('8 no', 'kaiser 40'); both stay as they are.
    return _("kind %(kind)s does not match the auction, won by %(call)s") % {
        "kind": kind,
        "call": shown(won),
    }


def _seat_error(number: int, field: str, value: Any, rules: Rules) -> HandError | None:
    if not _is_int(value):
        return HandError(number, field, _whole_number_error(field, value))
    if not 0 <= value < rules.seats:
        return HandError(
            number,
            field,
            _("%(field)s must be a seat from 0 to %(last)s (got %(value)s)")
            % {"field": field, "last": rules.seats - 1, "value": shown(value)},
        )
    return None


def _kind_error(rules: Rules, kind: str) -> str | None:
    if kind not in BID_KINDS:
        return _kind_unknown(kind)
    return None if kind in rules.kinds_allowed() else _kind_off(kind)


def _bid_range_error(rules: Rules, bid: int) -> str | None:
    if rules.min_bid <= bid <= rules.max_bid:
        return None
    return _("bid must be between %(min_bid)s and %(max_bid)s (got %(bid)s)") % {
        "min_bid": rules.min_bid,
        "max_bid": rules.max_bid,
        "bid": shown(bid),
    }


def _auction(rules: Rules, calls: Sequence[Any], number: int, dealer: int) -> _Contract:
    """The contract an auction arrives at (rulebook: "Bids"): one call per seat from the
    dealer's left, each bid above the highest so far, the dealer last and allowed to equal it
    (`dealer_may_equal`), and obliged to bid when everyone else passed."""

    def fail(message: str) -> HandError:
        return HandError(number, "auction", message)

    def who(index: int, seat: int) -> str:
        """The call at fault, as the start of a message."""
        values = {"index": index, "seat": seat}
        if seat == dealer:
            return _("auction call %(index)s (the dealer, seat %(seat)s)") % values
        return _("auction call %(index)s (seat %(seat)s)") % values

    n = rules.seats
    if len(calls) != n:
        raise fail(
            _("auction needs %(seats)s calls, one per seat from the dealer's left (got %(count)s)")
            % {"seats": n, "count": len(calls)}
        )
    best: tuple[tuple[int, int], int, str, int] | None = None  # rank, seat, kind, bid
    for index, call in enumerate(calls, 1):
        seat = (dealer + index) % n
        if not isinstance(call, str):
            raise fail(
                _('%(who)s must be text such as "8", "8 no" or "pass" (got %(call)s)')
                % {"who": who(index, seat), "call": shown(call)}
            )
        try:
            parsed = call_parse(call)
        except ValueError:
            raise fail(
                _(
                    "%(who)s is not a call (got %(call)s): use pass, a number such as 8, "
                    "8 no, 8 low, kaiser or kaiser 40"
                )
                % {"who": who(index, seat), "call": shown(call)}
            ) from None
        if parsed is None:
            continue
        kind, bid = parsed
        problem = _kind_error(rules, kind)
        if problem is None and kind not in ("kaiser", "kaiser40"):
            problem = _bid_range_error(rules, bid)
        if problem is not None:
            # Translators: an auction call, then what is wrong with it.
            raise fail(_("%(who)s: %(problem)s") % {"who": who(index, seat), "problem": problem})
        rank = rules.bid_rank(kind, bid)
        if best is not None:
            may_equal = seat == dealer and rules.dealer_may_equal
            if rank < best[0] or (rank == best[0] and not may_equal):
                values = {
                    "who": who(index, seat),
                    "call": shown(call_text(kind, bid)),
                    "best": shown(call_text(best[2], best[3])),
                    "seat": best[1],
                }
                if may_equal:
                    message = _("%(who)s: %(call)s must at least equal %(best)s (seat %(seat)s)")
                else:
                    message = _("%(who)s: %(call)s must be higher than %(best)s (seat %(seat)s)")
                raise fail(message % values)
        best = (rank, seat, kind, bid)
    if best is None:
        if rules.dealer_may_pass:
            raise fail(_("every seat passed: record the hand as thrown in instead"))
        raise fail(_("every seat passed, but the dealer must bid when all the others pass"))
    return _Contract(bidder=best[1], kind=best[2], bid=best[3])


def _contract(rules: Rules, hand: HandInput, number: int, dealer: int) -> _Contract:
    """Bidder, kind and bid, from the auction if there is one (checked against any given)."""
    if hand.bid is not None and not _is_int(hand.bid):
        raise HandError(number, "bid", _whole_number_error("bid", hand.bid))
    if hand.bidder is not None:
        error = _seat_error(number, "bidder", hand.bidder, rules)
        if error is not None:
            raise error
    if hand.auction is not None:
        won = _auction(rules, hand.auction, number, dealer)
        if hand.bidder is not None and hand.bidder != won.bidder:
            raise HandError(
                number,
                "bidder",
                _("bidder %(bidder)s does not match the auction, won by seat %(seat)s")
                % {"bidder": shown(hand.bidder), "seat": won.bidder},
            )
        if hand.kind != won.kind:
            raise HandError(number, "kind", _kind_mismatch(hand.kind, call_text(won.kind, won.bid)))
        if won.kind not in ("kaiser", "kaiser40") and hand.bid is not None and hand.bid != won.bid:
            raise HandError(
                number,
                "bid",
                _("bid %(bid)s does not match the auction, won by %(won)s")
                % {"bid": shown(hand.bid), "won": won.bid},
            )
        return won
    if hand.bidder is None:
        raise HandError(number, "bidder", _("bidder is missing: the seat that won the auction"))
    problem = _kind_error(rules, hand.kind)
    if problem is not None:
        raise HandError(number, "kind", problem)
    if hand.kind == "kaiser":
        return _Contract(hand.bidder, "kaiser", KAISER_POINTS)
    if hand.kind == "kaiser40":
        return _Contract(hand.bidder, "kaiser40", KAISER_40_POINTS)
    if hand.bid is None:
        raise HandError(number, "bid", _("bid is missing"))
    problem = _bid_range_error(rules, hand.bid)
    if problem is not None:
        raise HandError(number, "bid", problem)
    return _Contract(hand.bidder, hand.kind, hand.bid)


def _counts(rules: Rules, number: int, field: str, values: Any) -> tuple[int, ...]:
    """`values` checked as trick counts adding up to a hand: one per side for `tricks`, one
    per seat for `seat_tricks`."""
    per_side = field == "tricks"
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise HandError(number, field, _number_list_error(field, values))
    size = rules.side_count if per_side else rules.seats
    if len(values) != size:
        if per_side:
            message = _("tricks needs %(size)s numbers, one per side (got %(count)s)")
        else:
            message = _("seat_tricks needs %(size)s numbers, one per seat (got %(count)s)")
        raise HandError(number, field, message % {"size": size, "count": len(values)})
    for value in values:
        if not _is_int(value):
            raise HandError(
                number,
                field,
                _("%(field)s must be whole numbers (got %(value)s)")
                % {"field": field, "value": shown(value)},
            )
        if value < 0:
            raise HandError(
                number,
                field,
                _("%(field)s cannot be negative (got %(value)s)")
                % {"field": field, "value": shown(value)},
            )
    if sum(values) != rules.tricks_per_hand:
        if per_side:
            message = _("tricks must add up to %(total)s (got %(sum)s)")
        else:
            message = _("seat_tricks must add up to %(total)s (got %(sum)s)")
        raise HandError(
            number, field, message % {"total": rules.tricks_per_hand, "sum": shown(sum(values))}
        )
    return tuple(values)


def _tricks(
    rules: Rules, hand: HandInput, number: int, contract: _Contract
) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Tricks per side, and per seat when given (needed for a solo kaiser and a kaiser 40)."""
    if hand.seat_tricks is None:
        if contract.kind == "kaiser40":
            raise HandError(
                number,
                "seat_tricks",
                _("seat_tricks is missing: a kaiser 40 needs the tricks per seat"),
            )
        if contract.kind == "kaiser" and rules.kaiser_bid == "solo":
            raise HandError(
                number,
                "seat_tricks",
                _("seat_tricks is missing: a solo kaiser needs the tricks per seat"),
            )
        if hand.tricks is None:
            raise HandError(number, "tricks", _("tricks is missing: the tricks each side took"))
        return _counts(rules, number, "tricks", hand.tricks), None
    seat_tricks = _counts(rules, number, "seat_tricks", hand.seat_tricks)
    tricks = tuple(sum(seat_tricks[seat] for seat in side) for side in rules.sides)
    if hand.tricks is not None:
        given = _counts(rules, number, "tricks", hand.tricks)
        if given != tricks:
            raise HandError(
                number,
                "tricks",
                _("tricks %(given)s do not match seat_tricks, which make %(tricks)s")
                % {"given": list(given), "tricks": list(tricks)},
            )
    if contract.kind == "kaiser40":
        for seat in rules.partners(contract.bidder):
            if seat_tricks[seat]:
                raise HandError(
                    number,
                    "seat_tricks",
                    _(
                        "seat %(seat)s sits out the kaiser 40 of its partner, so it cannot take "
                        "a trick (got %(tricks)s)"
                    )
                    % {"seat": seat, "tricks": seat_tricks[seat]},
                )
    return tricks, seat_tricks


def _cards(
    rules: Rules, hand: HandInput, number: int, contract: _Contract, tricks: tuple[int, ...]
) -> tuple[int | None, int | None, int | None]:
    """Who took the five of hearts and the three of spades, and who was insulted (Joffre)."""
    sitting_out = contract.kind == "kaiser40" and bool(rules.partners(contract.bidder))
    taken: list[int | None] = []
    for field in ("five_hearts", "three_spades"):
        side = getattr(hand, field)
        values = {"field": field, "card": _card_name(field)}
        if side is None:
            # Translators: the card is "the five of hearts" or "the three of spades".
            if sitting_out:
                message = _(
                    "%(field)s is missing: the side that took %(card)s, or nobody if it "
                    "stayed in the partner's hand"
                )
            elif rules.blank_cards:
                message = _(
                    "%(field)s is missing: the side that took %(card)s, or nobody if a blank "
                    "card cancelled it"
                )
            else:
                message = _("%(field)s is missing: the side that took %(card)s")
            raise HandError(number, field, message % values)
        if side is NOBODY:
            if not (sitting_out or rules.blank_cards):
                raise HandError(
                    number,
                    field,
                    # Translators: the card is "the five of hearts" or "the three of spades".
                    _(
                        "%(field)s cannot be nobody: %(card)s goes to a side, unless it stays "
                        "in the hand of a kaiser 40 bidder's partner or a blank card cancels it"
                    )
                    % values,
                )
            taken.append(None)
            continue
        if not _is_int(side):
            raise HandError(number, field, _whole_number_error(field, side))
        if not 0 <= side < rules.side_count:
            raise HandError(number, field, _side_error(field, side, rules))
        if not tricks[side]:
            raise HandError(
                number,
                field,
                # Translators: the card is "the five of hearts" or "the three of spades".
                _("%(card)s went to side %(side)s, which took no trick")
                % {"card": _card_name(field), "side": side},
            )
        taken.append(side)
    five, three = taken
    insult = hand.insult
    if insult is not None:
        if not rules.joffre_insult:
            raise HandError(number, "insult", _("insult is only scored under joffre_insult"))
        if not _is_int(insult):
            raise HandError(number, "insult", _whole_number_error("insult", insult))
        if not 0 <= insult < rules.side_count:
            raise HandError(number, "insult", _side_error("insult", insult, rules))
        if five is None or five != three:
            raise HandError(
                number,
                "insult",
                _(
                    "an insult needs the five of hearts and the three of spades in one side's "
                    "tricks"
                ),
            )
    return five, three, insult


# ---------------------------------------------------------------------------------------------
# Scoring


def _points(
    rules: Rules, tricks: tuple[int, ...], five: int | None, three: int | None
) -> tuple[int, ...]:
    """What each side took: a point a trick, the heart bonus, the spade penalty; `cover_three`
    pins a side that took the three of spades with fewer than 3 tricks to the penalty alone."""
    points = list(tricks)
    if five is not None:
        points[five] += rules.heart_bonus
    if three is not None:
        points[three] += rules.spade_penalty
        if rules.cover_three and tricks[three] < 3:
            points[three] = rules.spade_penalty
    return tuple(points)


def _nonbidder_delta(rules: Rules, taken: int, before: int, bid_out: int | None) -> int:
    """A non-bidding side's score for the hand: its points, except that a gain counts 0 once it
    is at the bid-out (in force when the hand began), and stops at `nonbidder_cap`."""
    if taken <= 0:
        return taken
    if bid_out is not None and before >= bid_out:
        return 0
    if rules.nonbidder_cap is not None:
        return min(taken, max(0, rules.nonbidder_cap - before))
    return taken


def _contract_result(
    rules: Rules,
    contract: _Contract,
    taken: int,
    seat_tricks: tuple[int, ...] | None,
    five: int | None,
    three: int | None,
) -> tuple[bool, int]:
    """Whether the bidding side made its contract, taking `taken` points, and what that adds to
    its score (nothing for a kaiser, which decides the game instead)."""
    if contract.kind == "kaiser":
        if rules.kaiser_bid != "solo":
            return taken >= KAISER_POINTS, 0
        # Solo: the bidder alone takes 12 points, the partner no trick, and the three of spades
        # ends with an opponent (a three cancelled by a blank card is not known to).
        assert seat_tricks is not None
        side = rules.side_of(contract.bidder)
        if any(seat_tricks[s] for s in rules.partners(contract.bidder)):
            return False, 0
        if three is None or three == side:
            return False, 0
        alone = seat_tricks[contract.bidder] + (rules.heart_bonus if five == side else 0)
        return alone >= KAISER_POINTS, 0
    if contract.kind == "kaiser40":
        assert seat_tricks is not None
        made = seat_tricks[contract.bidder] == rules.tricks_per_hand
        return made, KAISER_40_POINTS if made else -KAISER_40_POINTS
    made = taken >= contract.bid
    times = 2 if contract.kind in NO_TRUMP_KINDS else 1
    counted = taken if rules.overtricks else contract.bid
    if made:
        return True, times * counted
    return False, 0 if rules.set_scores_zero else -times * contract.bid


@dataclass
class _Table:
    """A game between two hands."""

    scores: list[int]
    target: int
    bid_out: int | None
    dealer: int
    finished: bool = False
    winner: int | None = None
    reason: str | None = None


def _best(sides: Sequence[int], scores: Sequence[int]) -> int:
    """The side with the highest score; `sides` come in clockwise order from the bidding side,
    and `max` keeps the first of equals, which is the rulebook's tie-break."""
    return max(sides, key=lambda side: scores[side])


def _game_end(
    rules: Rules,
    table: _Table,
    contract: _Contract,
    made: bool,
    before: Sequence[int],
    bid_out: int | None,
    five: int | None,
) -> tuple[int, str] | None:
    """The winner and reason if this hand ends the game (rulebook: the six steps, in order)."""
    after = table.scores
    bidding = rules.side_of(contract.bidder)
    clockwise = [(bidding + k) % rules.side_count for k in range(rules.side_count)]
    others = clockwise[1:]
    # 1. A kaiser wins or loses the game outright.
    if contract.kind == "kaiser":
        return (bidding if made else _best(others, after)), "kaiser"
    # 2. A non-bidding side already at the bid-out takes the five of hearts.
    if (
        rules.bid_out_heart_wins
        and bid_out is not None
        and five is not None
        and five != bidding
        and before[five] >= bid_out
    ):
        return five, "heart"
    # 3. The bidding side made its bid and reached the target (it wins ties with the others).
    if made and after[bidding] >= table.target:
        return bidding, "target"
    lose_at = rules.lose_at
    # 4. The bidding side fell to lose_at.
    if lose_at is not None and after[bidding] <= lose_at:
        return _best(others, after), "minus"
    # 5. A non-bidding side reached the target, where a side may win without bidding.
    if not rules.win_requires_bid:
        over = [side for side in others if after[side] >= table.target]
        if over:
            return _best(over, after), "target"
    # 6. A non-bidding side fell to lose_at: the best of the rest wins.
    if lose_at is not None:
        lost = {side for side in others if after[side] <= lose_at}
        if lost:
            return _best([side for side in clockwise if side not in lost], after), "minus"
    return None


def _play(rules: Rules, table: _Table, hand: HandInput, number: int) -> HandScore:
    """Validate and score hand `number` on `table`, which it moves on to after the hand."""
    if table.finished:
        raise HandError(number, "hand", _("the game is already over"))
    dealer = table.dealer
    if hand.dealer is not None:
        error = _seat_error(number, "dealer", hand.dealer, rules)
        if error is not None:
            raise error
        if hand.dealer != dealer:
            raise HandError(
                number,
                "dealer",
                _("dealer should be seat %(dealer)s (got %(value)s)")
                % {"dealer": dealer, "value": hand.dealer},
            )
    if not isinstance(hand.thrown_in, bool):
        raise HandError(number, "thrown_in", _thrown_in_error(hand.thrown_in))
    for name in HAND_HABITS:
        value = getattr(hand, name)
        if value is not None:
            problem = hand_habit_error(name, value, hand.thrown_in)
            if problem is not None:
                raise HandError(number, name, problem)
    before = tuple(table.scores)
    bid_out = table.bid_out  # the one in force when the hand began, whatever this hand does
    if hand.thrown_in:
        # Redealt by the same dealer; nothing scores.
        return HandScore(
            number=number,
            dealer=dealer,
            thrown_in=True,
            delta=(0,) * rules.side_count,
            scores=before,
            target=table.target,
            bid_out=bid_out,
        )

    contract = _contract(rules, hand, number, dealer)
    tricks, seat_tricks = _tricks(rules, hand, number, contract)
    five, three, insult = _cards(rules, hand, number, contract, tricks)
    points = _points(rules, tricks, five, three)
    bidding = rules.side_of(contract.bidder)
    made, bidder_delta = _contract_result(
        rules, contract, points[bidding], seat_tricks, five, three
    )
    delta = [0] * rules.side_count
    if contract.kind != "kaiser":  # a kaiser wins or loses the game and leaves the scores be
        for side in range(rules.side_count):
            delta[side] = (
                bidder_delta
                if side == bidding
                else _nonbidder_delta(rules, points[side], before[side], bid_out)
            )
        if insult is not None:
            delta[insult] -= INSULT_POINTS  # on top of everything, whatever the bid or limits
    sold = None
    if rules.dealer_sells:
        # The dealer accepted another seat's bid: the dealer's side scores the bid on top of
        # everything, made or set. A dealer who took the contract over is the bidder.
        sold = contract.bidder != dealer
        if sold:
            delta[rules.side_of(dealer)] += contract.bid

    raised = (
        made
        and contract.kind in NO_TRUMP_KINDS
        and rules.nt_target is not None
        and table.target != rules.nt_target  # not raised yet (nt_target is above target)
    )
    if raised:
        # The raised target counts already for this hand; the raised bid-out from the next.
        assert rules.nt_target is not None
        table.target = rules.nt_target
        table.bid_out = rules.nt_bid_out
    table.scores = [score + change for score, change in zip(before, delta, strict=True)]
    end = _game_end(rules, table, contract, made, before, bid_out, five)
    if end is None:
        table.dealer = (dealer + 1) % rules.seats
    else:
        table.finished = True
        table.winner, table.reason = end
    return HandScore(
        number=number,
        dealer=dealer,
        thrown_in=False,
        delta=tuple(delta),
        scores=tuple(table.scores),
        target=table.target,
        bid_out=bid_out,
        bidder=contract.bidder,
        side=bidding,
        bid=contract.bid,
        kind=contract.kind,
        tricks=tricks,
        seat_tricks=seat_tricks,
        points=points,
        made=made,
        five_hearts=five,
        three_spades=three,
        insult=insult,
        target_raised=raised,
        sold=sold,
    )


def first_dealer_check(rules: Rules, first_dealer: Any) -> None:
    if not _is_int(first_dealer) or not 0 <= first_dealer < rules.seats:
        raise RecordError(
            "first_dealer",
            _("must be a seat from 0 to %(last)s (got %(value)s)")
            % {"last": rules.seats - 1, "value": shown(first_dealer)},
        )


def _game(rules: Rules, table: _Table, hands: tuple[HandScore, ...]) -> GameScore:
    return GameScore(
        rules=rules,
        hands=hands,
        scores=tuple(table.scores),
        target=table.target,
        bid_out=table.bid_out,
        finished=table.finished,
        winner=table.winner,
        reason=table.reason,
        next_dealer=None if table.finished else table.dealer,
    )


def game_score(rules: Rules, hands: Sequence[HandInput], first_dealer: int = 0) -> GameScore:
    """Score `hands` in order, the first dealt by `first_dealer`.

    Each hand is validated against the rules and the game so far (dealer rotation, auction,
    tricks adding up, special cards only to a side that took a trick, seat tricks where a kaiser
    needs them, nothing after the game is over, ...); the first bad hand raises HandError.
    Pure and deterministic: scoring a prefix of the hands gives the prefix of the result.
    """
    first_dealer_check(rules, first_dealer)
    table = _Table(
        scores=[0] * rules.side_count,
        target=rules.target,
        bid_out=rules.bid_out,
        dealer=first_dealer,
    )
    scored = tuple(_play(rules, table, hand, number) for number, hand in enumerate(hands, 1))
    return _game(rules, table, scored)


def game_play(game: GameScore, hand: HandInput) -> GameScore:
    """`game` with one more hand scored: the same as re-scoring all its hands plus `hand`,
    without doing so. Raises HandError for a hand the game cannot take."""
    rules = game.rules
    table = _Table(
        scores=list(game.scores),
        target=game.target,
        bid_out=game.bid_out,
        dealer=game.next_dealer if game.next_dealer is not None else 0,
        finished=game.finished,
        winner=game.winner,
        reason=game.reason,
    )
    scored = _play(rules, table, hand, len(game.hands) + 1)
    return _game(rules, table, (*game.hands, scored))
