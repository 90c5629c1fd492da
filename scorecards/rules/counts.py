"""The tricks and the special cards of one hand, checked against the rules and the contract.

docs/rules.md: "Points in a hand". Pure: data in, data out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorecards.rules.calls import (
    NOBODY,
    _card_name,
    _is_int,
)
from scorecards.rules.errors import HandError, field_named, shown
from scorecards.rules.hands import HandInput
from scorecards.rules.i18n import _
from scorecards.rules.presets import Rules
from scorecards.rules.validation import (
    Names,
    _Contract,
    _number_list_error,
    _players,
    _side_error,
    _whole_number_error,
)


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
    rules: Rules, hand: HandInput, number: int, contract: _Contract, names: Names = None
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
                values: dict[str, object] = {"seat": seat, "tricks": seat_tricks[seat]}
                if names is not None:
                    values["player"] = names[seat]
                    message = _(
                        "%(player)s sits out the kaiser 40 of their partner, so cannot take a "
                        "trick (got %(tricks)s)"
                    )
                else:
                    message = _(
                        "seat %(seat)s sits out the kaiser 40 of its partner, so it cannot take "
                        "a trick (got %(tricks)s)"
                    )
                raise HandError(number, "seat_tricks", field_named("seat_tricks", message % values))
    return tricks, seat_tricks


def _cards(
    rules: Rules,
    hand: HandInput,
    number: int,
    contract: _Contract,
    tricks: tuple[int, ...],
    names: Names = None,
) -> tuple[int | None, int | None, int | None]:
    """Who took the five of hearts and the three of spades, and who was insulted (Joffre)."""
    sitting_out = contract.kind == "kaiser40" and bool(rules.partners(contract.bidder))
    taken: list[int | None] = []
    for field in ("five_hearts", "three_spades"):
        side = getattr(hand, field)
        if side is None:
            values = {"field": field, "card": _card_name(field)}
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
                values = {"field": field, "card": _card_name(field)}
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
            values = {"card": _card_name(field), "side": side}
            if names is not None:
                values["players"] = _players(rules, names, side)
                # Translators: the card is "the five of hearts" or "the three of spades"; the
                # players are names ("Ann & Bob").
                message = _("%(card)s went to %(players)s, who took no trick")
            else:
                # Translators: the card is "the five of hearts" or "the three of spades".
                message = _("%(card)s went to side %(side)s, which took no trick")
            raise HandError(number, field, field_named(field, message % values))
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
