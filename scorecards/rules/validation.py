"""The refusals of one hand in words: which field, which value, and why, naming sides and
seats. Pure: data in, data out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorecards.rules.calls import (
    _is_int,
    _kind_off,
)
from scorecards.rules.errors import HandError, shown
from scorecards.rules.habits import HAND_HABITS
from scorecards.rules.i18n import _
from scorecards.rules.presets import BID_KINDS, Rules


@dataclass(frozen=True)
class _Contract:
    bidder: int
    kind: str
    bid: int  # 12 for kaiser, 40 for kaiser 40


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


_HABIT_KEYS = frozenset(HAND_HABITS)


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


Names = tuple[str, ...] | None  # the players' names in seat order, when the caller gives them


def _players(rules: Rules, names: Names, side: int) -> str:
    """The players of `side` as a message names them ("Ann & Bob")."""
    assert names is not None
    return " & ".join(names[seat] for seat in rules.sides[side])


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


def _bid_range_error(rules: Rules, bid: int, kind: str = "trump") -> str | None:
    if rules.min_bid <= bid <= rules.max_bid:
        return None
    if kind == "no" and (
        (bid == 13 and rules.bid_13_no is not None) or (bid == 14 and rules.bid_14_no is not None)
    ):
        return None  # a special bid above max_bid (kaiser-lib's 13 no and 14 no)
    return _("bid must be between %(min_bid)s and %(max_bid)s (got %(bid)s)") % {
        "min_bid": rules.min_bid,
        "max_bid": rules.max_bid,
        "bid": shown(bid),
    }
