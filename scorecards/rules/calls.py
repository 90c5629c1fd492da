"""Constants of a hand and the calls of the auction ("8 no", "kaiser").

docs/rules.md: "Bids". Pure: data in, data out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import Any

from scorecards.rules.errors import shown
from scorecards.rules.i18n import _

KAISER_POINTS = 12  # what a kaiser bid must take, and the `bid` it is shown as
KAISER_40_POINTS = 40  # won or lost by a kaiser 40, and the `bid` it is shown as
INSULT_POINTS = 5  # Joffre's insult
NO_TRUMP_KINDS = ("no", "low")  # doubled, and the first one made raises the target
# The most hands one game holds (docs/game-record.md, "Bounds"): no real game comes near,
# and every page, import and backup of a game stays small because of it.
MAX_HANDS = 500


class Nobody(Enum):
    """The type of NOBODY."""

    NOBODY = "nobody"

    def __repr__(self) -> str:
        return "NOBODY"


NOBODY = Nobody.NOBODY


Card = int | Nobody | None
"""A special card that no side took: left in a kaiser 40 partner's unplayed hand, or cancelled
by a blank card (`blank_cards`). A record writes it `null`; None on a HandInput means "not
given", which is refused on a played hand (the card must be told, even when nobody took it)."""


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
