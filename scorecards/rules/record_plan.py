"""What the fast path of a whole record (`record_quick`) remembers between records: the rules
objects met, each as its plan (the settings the fast path reads, in its order), and the valid
auctions met under each. Pure: data in, data out; every memo is bounded."""

from __future__ import annotations

from operator import is_, itemgetter
from typing import Any

from scorecards.rules.errors import KaiserError
from scorecards.rules.presets import Rules, rules_build
from scorecards.rules.quick import _auction_quick

_PLAIN_KINDS = frozenset(("trump", "no", "low"))  # the kinds of a plain hand

# `rules_build` of the `rules` objects met, by their settings: a club's records repeat one rules
# object, and checking it (every setting's type, range and combination) costs as much as scoring
# twenty hands. Only valid objects are kept, only so many, each as its `_plan` with the values it
# was built from. The key is the names and values as Python compares them, where `true` equals
# 1 and 7.0 equals 7: a value is the one remembered only when it is the same object, or of the
# same type (`_rules`).
_RULES: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
_RULES_KEPT = 256
# The valid auctions met under one Rules, by dealer then calls (`_auction_won`).
_Auctions = list[dict[tuple[str, ...], tuple[int, str, int]]]
_AUCTIONS_KEPT = 256  # valid auctions remembered per rules and dealer (`_auction_won`)
_ABSENT = object()  # a field left out (None is one given as null)
_PLAIN_VALUES = frozenset((int, str, bool, type(None)))
_STANDARD: list[tuple[Any, ...]] = []  # the plan of the standard game (no rules given)
# The names, values and plan of the last rules object met (one entry, replaced whole).
_LAST: list[tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]] = [((), (object(),), ())]


def _rules(data: Any) -> tuple[Any, ...] | None:
    """The `_plan` of `rules_build(data)`, remembered; None where `rules_build` would raise or
    the object is not a dict of plain values. `data` _ABSENT: no rules given, the standard game
    (None is rules given as null, which is refused)."""
    if data is _ABSENT:
        if not _STANDARD:
            _STANDARD.append(_plan(rules_build()))
        return _STANDARD[0]
    if type(data) is not dict:
        return None
    values = tuple(data.values())
    # The rules object of the record before, the same objects again (records written from one
    # Rules): no need to look further.
    last_names, last_values, last_plan = _LAST[0]
    if (
        len(values) == len(last_values)
        and all(map(is_, values, last_values))
        and all(map(is_, data, last_names))
    ):
        return last_plan
    key = (*data, *values)
    try:
        known, plan = _RULES[key]
    except KeyError:
        known = ()
    except TypeError:  # a value that is not hashable: not a plain one
        return None
    # The same objects (a record written from a Rules), else values of the same types.
    if known and (
        all(map(is_, values, known)) or list(map(type, values)) == list(map(type, known))
    ):
        _LAST[0] = (tuple(data), values, plan)
        return plan
    if not _PLAIN_VALUES.issuperset(map(type, values)):
        return None
    try:
        plan = _plan(rules_build(data))
    except KaiserError:
        return None
    if len(_RULES) < _RULES_KEPT:
        _RULES[key] = (values, plan)
    _LAST[0] = (tuple(data), values, plan)
    return plan


def _plan(rules: Rules) -> tuple[Any, ...]:
    """What `record_quick` reads of `rules`, in its order: the rules, whether `_simple`, the
    auctions met (`_Auctions`), the seats and sides, the kinds of a plain hand, the bids, the
    tricks, whether no trump is named in the auction, and the settings `scoring._scored` reads
    of a simple hand."""
    auctions: _Auctions = [{} for _seat in range(rules.seats)]
    return (
        rules,
        _simple(rules),
        auctions,
        rules.seats,
        rules.side_count,
        # Each side's names, taken from the seats' in one call (two seats or more a side).
        tuple(itemgetter(*side) for side in rules.sides) if rules.seats > rules.side_count else (),
        _PLAIN_KINDS.intersection(rules.kinds),
        rules.min_bid,
        rules.max_bid,
        rules.tricks_per_hand,
        rules.no_trump_named == "auction",
        rules.heart_bonus,
        rules.spade_penalty,
        rules.overtricks,
        rules.set_scores_zero,
        rules.target,
        rules.bid_out,
        rules.nt_target,
        rules.nt_bid_out,
        rules.bid_out_keeps_losses,
        rules.lose_at,
        rules.bid_out_heart_wins,
    )


def _simple(rules: Rules) -> bool:
    """Whether a plain hand under `rules` scores by the bid, the bid-out, the raised target and
    the doubling alone: the settings `record_quick` leaves to `scoring._scored` are off."""
    return (
        rules.nonbidder_cap is None
        and not rules.bid_out_bidder_to_target
        and not rules.defender_all_or_nothing
        and not rules.dealer_sells
        and not rules.cover_three
        and rules.nt_target_for == "game"
    )


def _auction_won(
    rules: Rules, auctions: _Auctions, calls: list[Any], dealer: int
) -> tuple[int, str, int] | None:
    """`quick._auction_quick` of an auction dealt by `dealer`, remembered in `auctions[dealer]`
    when valid (a table's auctions are a handful of calls in a handful of orders; `record_quick`
    looks there first)."""
    key = tuple(calls)
    won = _auction_quick(rules, key, dealer)
    known = auctions[dealer]
    if won is not None and len(known) < _AUCTIONS_KEPT:
        known[key] = won
    return won
