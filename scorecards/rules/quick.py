"""The common hand checked in one pass: the fast path of `scoring._play`.

Most hands are plain: a bidder, a bid and its kind (or an auction), the tricks as a tuple of
whole numbers, the special cards given as sides, no table habits. `_quick` checks such a hand
against the same rules as the general path (the checks in `scoring._checked`, `auction`,
`counts`) and returns what they would return. At the first thing it does not accept, however
harmless, it returns None and the general path checks the hand from the start: so the fast path
never decides an error or its message, it only accepts hands. It reads the values with identity
and exact-type tests (`type(x) is int` leaves out bool, as `_is_int` does, and int subclasses,
which the general path takes), so that nothing here can raise or run a caller's code.

Pure: data in, data out.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from scorecards.rules.calls import KAISER_40_POINTS, KAISER_POINTS, NOBODY, call_parse
from scorecards.rules.hands import HandInput
from scorecards.rules.presets import Rules

Checked = tuple[
    int, str, int, tuple[int, ...], tuple[int, ...] | None, int | None, int | None, int | None
]
"""A hand that passed every check: bidder, kind, bid (12 for a kaiser, 40 for a kaiser 40),
tricks per side, tricks per seat (when given), and the sides that took the five of hearts, the
three of spades (None: nobody) and the insult."""

# `call_parse` of the calls met, by their text: an auction repeats a handful of calls ("pass",
# "8", "8 no"), and parsing one (a regular expression) is most of reading it. Only calls that
# parse are kept, and only so many, whatever a caller sends.
_CALLS: dict[str, tuple[str, int] | None] = {}
_CALLS_KEPT = 512


def _counts_plain(values: object, size: int, total: int) -> TypeGuard[tuple[int, ...]]:
    """`values` a tuple of `size` whole numbers, none negative, adding up to `total` (what
    `counts._counts` accepts, when given a tuple)."""
    if type(values) is not tuple or len(values) != size:
        return False
    for value in values:
        if type(value) is not int or value < 0:
            return False
    return sum(values) == total


def _auction_quick(rules: Rules, calls: object, dealer: int) -> tuple[int, str, int] | None:
    """The bidder, kind and bid of a valid auction, as `auction._auction` reads it: one call per
    seat from the dealer's left, each bid allowed and above the best so far, the dealer allowed
    to equal it (`dealer_may_equal`). None for anything else, a bad call or everyone passing."""
    seats = rules.seats
    if type(calls) is not tuple or len(calls) != seats:
        return None
    won: tuple[int, str, int] | None = None  # seat, kind, bid of the best bid so far
    best = (0, 0)  # its rank
    for index, call in enumerate(calls, 1):
        if type(call) is not str:
            return None
        if call == "pass":  # most calls: no need to look it up
            continue
        try:
            parsed = _CALLS[call]
        except KeyError:
            try:
                parsed = call_parse(call)
            except ValueError:
                return None
            if len(_CALLS) < _CALLS_KEPT:
                _CALLS[call] = parsed
        if parsed is None:  # a pass written otherwise ("Pass")
            continue
        kind, bid = parsed
        if kind not in rules.kinds:
            return None
        if kind != "kaiser" and kind != "kaiser40" and not rules.min_bid <= bid <= rules.max_bid:
            return None
        seat = (dealer + index) % seats
        rank = rules.bid_rank(kind, bid)
        if won is not None and (
            rank < best or (rank == best and not (seat == dealer and rules.dealer_may_equal))
        ):
            return None
        won, best = (seat, kind, bid), rank
    return won


def _quick(rules: Rules, hand: HandInput, dealer: int) -> Checked | None:
    """`hand`, dealt by `dealer` in a game not over, checked as `scoring._checked` checks it:
    its contract, tricks and cards as that returns them, or None if it is not a plain hand."""
    given_dealer: Any = hand.dealer
    if (
        hand.thrown_in is not False
        or (
            given_dealer is not None
            and (
                type(given_dealer) is not int
                or not 0 <= given_dealer < rules.seats
                or given_dealer != dealer
            )
        )
        or hand.misdeal is not None
        or hand.passing is not None
        or hand.kitty is not None
        or hand.announced is not None
    ):
        return None
    # The contract, as `auction._contract` makes it.
    bidder: Any = hand.bidder
    bid: Any = hand.bid
    kind: Any = hand.kind
    if bid is not None and type(bid) is not int:
        return None
    if hand.auction is not None:
        if rules.no_trump_named != "auction":
            return None  # read by the general path (`auction._auction`)
        won = _auction_quick(rules, hand.auction, dealer)
        if won is None:
            return None
        # What is given must agree with the auction (the bid, unless it is a kaiser's).
        if (
            (bidder is not None and (type(bidder) is not int or bidder != won[0]))
            or type(kind) is not str
            or kind != won[1]
            or (bid is not None and kind != "kaiser" and kind != "kaiser40" and bid != won[2])
        ):
            return None
        bidder, kind, bid = won
    else:
        if (
            type(bidder) is not int
            or not 0 <= bidder < rules.seats
            or type(kind) is not str
            or kind not in rules.kinds
        ):
            return None
        if kind == "kaiser":
            bid = KAISER_POINTS
        elif kind == "kaiser40":
            bid = KAISER_40_POINTS
        elif bid is None or not rules.min_bid <= bid <= rules.max_bid:
            return None

    total = rules.tricks_per_hand
    side_count = rules.side_count
    given: Any = hand.tricks
    seat_tricks: Any = hand.seat_tricks
    partners: tuple[int, ...] = ()
    if seat_tricks is None:
        # A kaiser 40 and a solo kaiser need the tricks per seat.
        if kind == "kaiser40" or (kind == "kaiser" and rules.kaiser_bid == "solo"):
            return None
        if not _counts_plain(given, side_count, total):
            return None
        tricks: tuple[int, ...] = given
    else:
        if not _counts_plain(seat_tricks, rules.seats, total):
            return None
        tricks = tuple([sum([seat_tricks[seat] for seat in side]) for side in rules.sides])
        if given is not None and not (_counts_plain(given, side_count, total) and given == tricks):
            return None
        if kind == "kaiser40":
            partners = rules.partners(bidder)  # they sit the kaiser 40 out: no trick
            for seat in partners:
                if seat_tricks[seat]:
                    return None

    # The special cards go to a side that took a trick, or to nobody where one may.
    five: Any = hand.five_hearts
    if type(five) is int:
        if not (0 <= five < side_count and tricks[five]):
            return None
    elif five is NOBODY and (partners or rules.blank_cards):
        five = None
    else:
        return None
    three: Any = hand.three_spades
    if type(three) is int:
        if not (0 <= three < side_count and tricks[three]):
            return None
    elif three is NOBODY and (partners or rules.blank_cards):
        three = None
    else:
        return None
    insult: Any = hand.insult
    if insult is not None and not (
        rules.joffre_insult
        and type(insult) is int
        and 0 <= insult < side_count
        and five is not None
        and five == three
    ):
        return None
    return bidder, kind, bid, tricks, seat_tricks, five, three, insult
