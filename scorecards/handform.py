"""Reading a hand from the table sheet's form post (form-encoded, the same fields for htmx, a
plain post and the offline outbox's JSON-accepting post) into a `HandInput`.

Only the *shape* of the input is checked here (whole numbers, known kinds, a UUID key); whether
the hand is possible is the rules engine's call, through `game_score`. Nothing here adds up
points. Field names are the contract of `POST /games/<id>/hands/`:

    idempotency_key, number, thrown_in, bidder, bid, kind, tricks_<side>, tricks_bidder,
    seat_tricks_<seat>, five_hearts, three_spades, insult, auction (repeated or comma-separated),
    sold ("accepted" / "took_over", where the dealer sells the contract), and the table habits
    misdeal, passing, kitty, announced (scorecards/habits.py)

A special card's value is a side number, or "nobody" (a kaiser 40 partner's unplayed card, or
one cancelled by a blank card); left empty, the engine asks for it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from kaiser_league.inputs import InputError, number_parse
from scorecards.call_words import call_words_read
from scorecards.habits import hand_habits_post, hand_with_habits
from scorecards.rules import BID_KINDS, NOBODY, HandInput, KaiserError, Rules
from scorecards.rules.calls import Card

NOBODY_VALUE = "nobody"  # the form value of a special card no side took
# Where the dealer sells the contract (Lost Heir): they accepted the highest bid, or took the
# contract over by equalling it and so became the bidder.
SOLD_ACCEPTED, SOLD_TOOK_OVER = "accepted", "took_over"
MAX_WHOLE = 9999  # no field of a hand needs more; the engine judges what is possible
TRUE_VALUES = {"1", "on", "true", "yes"}

# The engine's field names mapped to the form field an error is shown beside.
ENGINE_FIELDS = {
    "hand": "hand",
    "tricks": "tricks",
    "seat_tricks": "seat_tricks",
    "bidder": "bidder",
    "bid": "bid",
    "kind": "kind",
    "five_hearts": "five_hearts",
    "three_spades": "three_spades",
    "insult": "insult",
    "auction": "auction",
    "number": "number",
    "dealer": "hand",
    "thrown_in": "thrown_in",
    "idempotency_key": "idempotency_key",
    "misdeal": "misdeal",
    "passing": "passing",
    "kitty": "kitty",
    "announced": "announced",
}


@dataclass
class HandForm:
    """A parsed hand post: `hand` is None when the shape is wrong; `errors` maps form fields to
    messages; `filled` names the fields the player has set (to tell "not yet tapped" from
    "wrong")."""

    hand: HandInput | None
    errors: dict[str, list[str]] = field(default_factory=dict)
    idempotency_key: uuid.UUID | None = None
    number: int | None = None
    filled: set[str] = field(default_factory=set)
    values: dict[str, Any] = field(default_factory=dict)
    # Table habits (scorecards.habits), set on `hand` too.
    habits: dict[str, Any] = field(default_factory=dict)

    def add_error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def add_engine_error(self, error: KaiserError) -> None:
        self.add_error(ENGINE_FIELDS.get(error.field, "hand"), engine_message(error))


def missing_label(field: str) -> str:
    labels = {
        "bidder": _("the bidder"),
        "bid": _("the bid"),
        "tricks": _("the tricks"),
        "seat_tricks": _("the tricks per seat"),
        "five_hearts": _("who took the 5 of hearts"),
        "three_spades": _("who took the 3 of spades"),
    }
    return labels.get(field, field)


def engine_message(error: KaiserError) -> str:
    """The engine's message for `error`, already in the user's language (the engine translates
    its messages through gettext when it raises them)."""
    return error.message


def _text(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    return value.strip() if isinstance(value, str) else ""


def _whole(form: HandForm, data: Mapping[str, Any], name: str, *, error: str = "") -> int | None:
    """An optional whole number field (None when empty); an error names it otherwise."""
    raw = _text(data, name)
    if raw == "":
        return None
    form.filled.add(error or name)
    try:
        return number_parse(raw, field=error or name, minimum=-MAX_WHOLE, maximum=MAX_WHOLE)
    except InputError:
        form.add_error(error or name, _("must be a whole number"))
        return None


def _card(form: HandForm, data: Mapping[str, Any], name: str) -> Card:
    """A special card's side; "nobody" when no side took it (left in a kaiser 40 partner's hand,
    or cancelled by a blank card); None when not tapped, which the engine asks for."""
    if _text(data, name).lower() == NOBODY_VALUE:
        form.filled.add(name)
        return NOBODY
    return _whole(form, data, name)


def _habits(form: HandForm, data: Mapping[str, Any], *, thrown_in: bool) -> None:
    habits, errors = hand_habits_post(data, thrown_in=thrown_in)
    form.habits = habits
    form.values.update(habits)
    for name, messages in errors.items():
        for message in messages:
            form.add_error(name, message)


def _sold_bidder(
    form: HandForm, data: Mapping[str, Any], rules: Rules, bidder: int | None, dealer: int | None
) -> int | None:
    """The bidder where the dealer sells: the dealer when they took the contract over."""
    sold = _text(data, "sold")
    if not rules.dealer_sells or not sold:
        return bidder
    form.filled.add("sold")
    if sold not in (SOLD_ACCEPTED, SOLD_TOOK_OVER):
        form.add_error("sold", _("Choose one of the values offered."))
    elif dealer is None:
        form.add_error("sold", _("the game is over: nobody deals"))
    elif sold == SOLD_TOOK_OVER:
        return dealer
    elif bidder == dealer:
        form.add_error("sold", _("the dealer cannot accept their own bid: choose “took it over”"))
    return bidder


def hand_form_parse(
    data: Mapping[str, Any],
    rules: Rules,
    *,
    key_required: bool = True,
    dealer: int | None = None,
) -> HandForm:
    """Read a posted hand (a QueryDict or a plain dict of strings) against `rules`' sides and
    seats; `dealer` is the seat dealing this hand, known on the server (the bidder when the
    dealer took a sold contract over). `form.hand` is set only when every field has the right
    shape."""
    form = HandForm(hand=None)
    raw_key = _text(data, "idempotency_key")
    if raw_key:
        try:
            # uuid.UUID reads any Unicode digit as hex; a key is plain ASCII (and short).
            if not raw_key.isascii() or len(raw_key) > 45:
                raise ValueError(raw_key[:45])
            form.idempotency_key = uuid.UUID(raw_key)
        except ValueError:
            form.add_error("idempotency_key", _("must be a UUID"))
    elif key_required:
        form.add_error("idempotency_key", _("is required"))
    form.number = _whole(form, data, "number")
    if form.number is not None and form.number < 1:
        form.add_error("number", _("must be 1 or more"))
    form.filled.discard("number")

    if _text(data, "thrown_in").lower() in TRUE_VALUES:
        form.filled.add("thrown_in")
        _habits(form, data, thrown_in=True)
        if not form.errors:
            form.hand = HandInput(thrown_in=True, **form.habits)
        return form

    bidder = _sold_bidder(form, data, rules, _whole(form, data, "bidder"), dealer)
    bid = _whole(form, data, "bid")
    kind = _text(data, "kind") or "trump"
    if _text(data, "kind"):
        form.filled.add("kind")
    if kind not in BID_KINDS:
        form.add_error("kind", _("must be one of %(kinds)s") % {"kinds": ", ".join(BID_KINDS)})
    sides = rules.side_count

    tricks: list[int | None] = [
        _whole(form, data, f"tricks_{side}", error="tricks") for side in range(sides)
    ]
    bidding_tricks = _whole(form, data, "tricks_bidder", error="tricks")
    if bidding_tricks is not None and bidder is not None and 0 <= bidder < rules.seats:
        # The sheet shows one control, the bidding side's tricks; with two sides the other
        # side took the rest of the hand (the engine still checks the total).
        side = rules.side_of(bidder)
        tricks[side] = bidding_tricks
        if sides == 2 and 0 <= bidding_tricks <= rules.tricks_per_hand:
            tricks[1 - side] = rules.tricks_per_hand - bidding_tricks
    if sides == 2 and sum(t is None for t in tricks) == 1:
        given = next(t for t in tricks if t is not None)
        if 0 <= given <= rules.tricks_per_hand:
            tricks = [rules.tricks_per_hand - given if t is None else t for t in tricks]

    seat_tricks = [
        _whole(form, data, f"seat_tricks_{seat}", error="seat_tricks")
        for seat in range(rules.seats)
    ]
    five = _card(form, data, "five_hearts")
    three = _card(form, data, "three_spades")
    insult = _whole(form, data, "insult")

    raw_calls = data.getlist("auction") if hasattr(data, "getlist") else [data.get("auction")]
    raw_calls = [raw.strip() for raw in raw_calls if isinstance(raw, str)]
    calls: list[str] = []
    if len(raw_calls) > 1:
        # One box per seat: a box left empty is that seat's pass.
        if any(raw_calls):
            calls = [call or "pass" for call in raw_calls]
    elif raw_calls:
        calls = [call.strip() for call in raw_calls[0].split(",") if call.strip()]
    # A call typed in the viewer's words ("passe", "8 sans") is read in the engine's.
    calls = [call_words_read(call) for call in calls]
    if calls:
        form.filled.add("auction")
    if len(calls) > 2 * rules.seats or any(len(call) > 20 for call in calls):
        form.add_error("auction", _("too many or too long calls"))

    form.values = {
        "sold": _text(data, "sold"),
        "bidder": bidder,
        "bid": bid,
        "kind": kind,
        "tricks": tricks,
        "bidding_tricks": bidding_tricks,
        "seat_tricks": seat_tricks,
        "five_hearts": five,
        "three_spades": three,
        "insult": insult,
        "auction": calls,
    }
    _habits(form, data, thrown_in=False)
    if form.errors:
        return form
    form.hand = HandInput(
        bidder=bidder,
        bid=bid,
        kind=kind,
        tricks=tuple(t for t in tricks if t is not None) if None not in tricks else None,
        seat_tricks=(
            tuple(t or 0 for t in seat_tricks) if any(t is not None for t in seat_tricks) else None
        ),
        five_hearts=five,
        three_spades=three,
        insult=insult,
        auction=tuple(calls) if calls else None,
    )
    form.hand = hand_with_habits(form.hand, form.habits)
    return form


def _stored_card(record: Mapping[str, Any], name: str) -> Card:
    """A stored special card as the form holds it: null in a record is NOBODY."""
    if name in record and record[name] is None:
        return NOBODY
    return record.get(name)


def hand_form_initial(
    record: Mapping[str, Any], rules: Rules, *, dealer: int | None = None
) -> dict[str, Any]:
    """Form values for a stored hand record (to correct it): the same keys as `form.values`,
    with its table habits; `dealer` is the seat that dealt it."""
    tricks = list(record.get("tricks") or [None] * rules.side_count)
    bidder = record.get("bidder")
    bidding_tricks = None
    if bidder is not None and record.get("tricks"):
        bidding_tricks = record["tricks"][rules.side_of(bidder)]
    return {
        "thrown_in": bool(record.get("thrown_in")),
        "bidder": bidder,
        "bid": record.get("bid"),
        "kind": record.get("kind", "trump"),
        "tricks": tricks,
        "bidding_tricks": bidding_tricks,
        "seat_tricks": list(record.get("seat_tricks") or [None] * rules.seats),
        "five_hearts": _stored_card(record, "five_hearts"),
        "three_spades": _stored_card(record, "three_spades"),
        "insult": record.get("insult"),
        "auction": list(record.get("auction") or []),
        "sold": _sold_initial(record, rules, dealer),
        **{name: record.get(name) for name in ("misdeal", "passing", "kitty", "announced")},
    }


def _sold_initial(record: Mapping[str, Any], rules: Rules, dealer: int | None) -> str:
    if not rules.dealer_sells or record.get("thrown_in") or dealer is None:
        return ""
    if record.get("bidder") is None:
        return ""
    return SOLD_TOOK_OVER if record.get("bidder") == dealer else SOLD_ACCEPTED
