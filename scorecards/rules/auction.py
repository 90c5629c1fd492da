"""The auction and the contract of one hand, checked against the rules.

docs/rules.md: "Bids" (auction, bid order) and "Special bids". Pure: data in, data out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorecards.rules.calls import (
    KAISER_40_POINTS,
    KAISER_POINTS,
    _is_int,
    call_parse,
    call_text,
)
from scorecards.rules.errors import HandError, field_named, shown
from scorecards.rules.hands import HandInput
from scorecards.rules.i18n import _
from scorecards.rules.presets import BID_KINDS, Rules
from scorecards.rules.validation import (
    Names,
    _bid_range_error,
    _Contract,
    _kind_error,
    _kind_mismatch,
    _seat_error,
    _whole_number_error,
)


def _auction(
    rules: Rules, calls: Sequence[Any], number: int, dealer: int, names: Names = None
) -> _Contract:
    """The contract an auction arrives at (rulebook: "Bids"): one call per seat from the
    dealer's left, each bid above the highest so far, the dealer last and allowed to equal it
    (`dealer_may_equal`), and obliged to bid when everyone else passed."""

    def fail(message: str) -> HandError:
        return HandError(number, "auction", message)

    def who(index: int, seat: int) -> str:
        """The call at fault, as the start of a message."""
        values: dict[str, object] = {"index": index, "seat": seat}
        if names is not None:
            values["player"] = names[seat]
            if seat == dealer:
                return _("auction call %(index)s (%(player)s, the dealer)") % values
            return _("auction call %(index)s (%(player)s)") % values
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
            problem = _bid_range_error(rules, bid, kind)
        if problem is not None:
            # Translators: an auction call, then what is wrong with it.
            raise fail(_("%(who)s: %(problem)s") % {"who": who(index, seat), "problem": problem})
        rank = rules.bid_rank(kind, bid)
        if best is not None:
            may_equal = seat == dealer and rules.dealer_may_equal
            if rules.no_trump_named == "after":
                # dcm454: anyone may equal the highest bid by calling it in no trump; a dealer
                # who equals a no-trump call with a plain one takes it in no trump.
                may_equal = may_equal or kind == "no"
            if rank < best[0] or (rank == best[0] and not may_equal):
                values = {
                    "who": who(index, seat),
                    "call": shown(call_text(kind, bid)),
                    "best": shown(call_text(best[2], best[3])),
                    "seat": best[1],
                }
                if names is not None:
                    values["player"] = names[best[1]]
                    if may_equal:
                        message = _("%(who)s: %(call)s must at least equal %(best)s (%(player)s)")
                    else:
                        message = _("%(who)s: %(call)s must be higher than %(best)s (%(player)s)")
                elif may_equal:
                    message = _("%(who)s: %(call)s must at least equal %(best)s (seat %(seat)s)")
                else:
                    message = _("%(who)s: %(call)s must be higher than %(best)s (seat %(seat)s)")
                raise fail(message % values)
        if (
            rules.no_trump_named == "after"
            and best is not None
            and rank == best[0]
            and best[2] == "no"
        ):
            kind = "no"  # equalled a no-trump call (no_trump_named after): played in no trump
        best = (rank, seat, kind, bid)
    if best is None:
        if rules.dealer_may_pass:
            message = _("every seat passed: record the hand as thrown in instead")
        else:
            message = _("every seat passed, but the dealer must bid when all the others pass")
        raise fail(field_named("auction", message))
    return _Contract(bidder=best[1], kind=best[2], bid=best[3])


def _contract(
    rules: Rules, hand: HandInput, number: int, dealer: int, names: Names = None
) -> _Contract:
    """Bidder, kind and bid, from the auction if there is one (checked against any given)."""
    if hand.bid is not None and not _is_int(hand.bid):
        raise HandError(number, "bid", _whole_number_error("bid", hand.bid))
    if hand.bidder is not None:
        error = _seat_error(number, "bidder", hand.bidder, rules)
        if error is not None:
            raise error
    if hand.auction is not None:
        won = _auction(rules, hand.auction, number, dealer, names)
        if hand.bidder is not None and hand.bidder != won.bidder:
            values = {"bidder": shown(hand.bidder), "seat": won.bidder}
            if names is not None:
                values["player"] = names[won.bidder]
                message = _("bidder %(bidder)s does not match the auction, won by %(player)s")
            else:
                message = _("bidder %(bidder)s does not match the auction, won by seat %(seat)s")
            raise HandError(number, "bidder", message % values)
        if rules.no_trump_named == "after" and won.kind == "trump" and hand.kind == "no":
            # Named after the auction: a plain call's contract may be played in no trump.
            won = _Contract(bidder=won.bidder, kind="no", bid=won.bid)
        # "trump" alongside an auction is what the auction says: a dealer's plain call that
        # took a no-trump one is played in no trump (no_trump_named after).
        implied_no = rules.no_trump_named == "after" and won.kind == "no" and hand.kind == "trump"
        if hand.kind != won.kind and not implied_no:
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
        # A kind not played ("low bids are not played ...") is led by the field's name; an
        # unknown one is refused in words that name it ("kind must be one of ...").
        named = field_named("kind", problem) if hand.kind in BID_KINDS else problem
        raise HandError(number, "kind", named)
    if hand.kind == "kaiser":
        return _Contract(hand.bidder, "kaiser", KAISER_POINTS)
    if hand.kind == "kaiser40":
        return _Contract(hand.bidder, "kaiser40", KAISER_40_POINTS)
    if hand.bid is None:
        raise HandError(number, "bid", _("bid is missing"))
    problem = _bid_range_error(rules, hand.bid, hand.kind)
    if problem is not None:
        raise HandError(number, "bid", problem)
    return _Contract(hand.bidder, hand.kind, hand.bid)
