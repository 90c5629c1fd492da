"""The auction (rulebook: "Bids"): one call per seat from the dealer's left, each bid above the
highest so far, the dealer last, allowed to equal (`dealer_may_equal`) and bound to bid when the
others pass, unless `dealer_may_pass` throws the hand in."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import HandError, HandInput, call_parse, call_text, game_play

from .helpers import last, rules_of, standing

# Seat 3 deals, so the calls come from seats 0, 1, 2 and then 3, the dealer.
DEALER = 3


def auction_hand(calls: list[str], **fields: Any) -> HandInput:
    bidder_side = fields.pop("side", None)
    tricks = fields.pop("tricks", (8, 0) if bidder_side != 1 else (0, 8))
    five = three = 0 if tricks[0] else 1
    return HandInput(
        auction=tuple(calls), tricks=tricks, five_hearts=five, three_spades=three, **fields
    )


def won(name: str, calls: list[str], contract: tuple, preset: str = "standard", **rules: Any):
    return pytest.param(preset, rules, calls, contract, id=name)


WON = [
    won("dealer forced to bid", ["pass", "pass", "pass", "7"], (3, "trump", 7)),
    won("dealer forced, any kind", ["pass", "pass", "pass", "7 no"], (3, "no", 7)),
    won("first seat alone", ["8", "pass", "pass", "pass"], (0, "trump", 8)),
    won("raised twice", ["7", "7 no", "8", "pass"], (2, "trump", 8)),
    won("dealer equals", ["7", "8", "pass", "8"], (3, "trump", 8)),
    won("dealer goes over", ["7", "8", "pass", "8 no"], (3, "no", 8)),
    won("dealer passes", ["7", "8", "pass", "pass"], (1, "trump", 8)),
    won("no over trump", ["pass", "9", "9 no", "pass"], (2, "no", 9)),
    won("low over no", ["7 no", "7 low", "pass", "pass"], (1, "low", 7), "saskatchewan"),
    won(
        "dealer equals low with no",
        ["pass", "7 low", "pass", "7 no"],
        (3, "no", 7),
        "saskatchewan",
        low_ranks_equal=True,
    ),
    won("kaiser over 12", ["12", "kaiser", "pass", "pass"], (1, "kaiser", 12), "yarotsky"),
    won(
        "kaiser 40 over kaiser",
        ["kaiser", "kaiser 40", "pass", "pass"],
        (1, "kaiser40", 40),
        "yarotsky",
        kaiser_40=True,
    ),
    won("spelling does not matter", [" PASS", "8  No", "pass", "Pass"], (1, "no", 8)),
    won("pagat bids 6", ["6", "pass", "pass", "pass"], (0, "trump", 6), "pagat"),
    won("quebec bids 4", ["pass", "4", "pass", "pass"], (1, "trump", 4), "les-rois"),
]


@pytest.mark.parametrize(("preset", "rules", "calls", "contract"), WON)
def test_auction_winner(preset: str, rules: dict, calls: list[str], contract: tuple) -> None:
    rules_ = rules_of(preset, **rules)
    bidder, kind, bid = contract
    if kind in ("kaiser", "kaiser40"):
        played = HandInput(
            auction=tuple(calls), seat_tricks=(0, 8, 0, 0), five_hearts=1, three_spades=1
        )
    else:
        played = auction_hand(calls, side=rules_.side_of(bidder))
    scored = last(game_play(standing(rules_, (0, 0), dealer=DEALER), played))
    assert (scored.bidder, scored.kind, scored.bid) == (bidder, kind, bid)


def refused(name: str, calls: list, message: str, preset: str = "standard", **rules: Any):
    return pytest.param(preset, rules, calls, message, id=name)


REFUSED = [
    refused("too few calls", ["pass", "8", "pass"], "auction needs 4 calls, one per seat from"),
    refused("too many calls", ["pass"] * 5, "auction needs 4 calls"),
    refused(
        "not higher",
        ["8", "7", "pass", "pass"],
        "auction call 2 (seat 1): '7' must be higher than '8' (seat 0)",
    ),
    refused("equal, not the dealer", ["8", "8", "pass", "pass"], "'8' must be higher than '8'"),
    refused("no under no", ["8 no", "pass", "8", "pass"], "'8' must be higher than '8 no'"),
    refused(
        "dealer under",
        ["8", "pass", "pass", "7"],
        "auction call 4 (the dealer, seat 3): '7' must at least equal '8' (seat 0)",
    ),
    refused(
        "dealer may not equal",
        ["8", "pass", "pass", "8"],
        "(the dealer, seat 3): '8' must be higher than '8'",
        "yarotsky",
    ),
    refused(
        "low equal to no",
        ["7 no", "7 low", "pass", "pass"],
        "'7 low' must be higher than '7 no'",
        "saskatchewan",
        low_ranks_equal=True,
    ),
    refused(
        "all pass",
        ["pass", "pass", "pass", "pass"],
        "auction: every seat passed, but the dealer must bid when all the others pass",
    ),
    refused(
        "all pass where the dealer may pass",
        ["pass", "pass", "pass", "pass"],
        "auction: every seat passed: record the hand as thrown in instead",
        dealer_may_pass=True,
    ),
    refused("above max", ["13", "pass", "pass", "pass"], "auction call 1 (seat 0): bid must be"),
    refused("below min", ["pass", "6", "pass", "pass"], "bid must be between 7 and 12 (got 6)"),
    refused("not a call", ["8 hearts", "pass", "pass", "pass"], "auction call 1 (seat 0) is not"),
    refused("empty call", ["", "pass", "pass", "pass"], "is not a call"),
    refused("low not played", ["8 low", "pass", "pass", "pass"], "low_no_trump is off"),
    refused("no not played", ["8 no", "pass", "pass", "pass"], "no_trump is off", "les-rois"),
    refused("kaiser not played", ["kaiser", "pass", "pass", "pass"], "kaiser_bid is off"),
    refused("kaiser 40 not played", ["pass", "kaiser 40", "pass", "pass"], "kaiser_40 is off"),
]


@pytest.mark.parametrize(("preset", "rules", "calls", "message"), REFUSED)
def test_auction_refused(preset: str, rules: dict, calls: list, message: str) -> None:
    game = standing(rules_of(preset, **rules), (0, 0), dealer=DEALER)
    with pytest.raises(HandError) as caught:
        game_play(game, auction_hand(calls))
    assert message in str(caught.value)
    assert str(caught.value).startswith("hand 1: ")
    assert caught.value.field == "auction"


def test_dealer_may_pass_allows_a_throw_in() -> None:
    rules = rules_of(dealer_may_pass=True)
    game = game_play(standing(rules, (0, 0), dealer=DEALER), HandInput(thrown_in=True))
    assert last(game).thrown_in and game.next_dealer == DEALER


AGREE = [
    pytest.param({"bidder": 1}, "bidder", "bidder 1 does not match the auction, won by seat 2"),
    pytest.param({"bid": 9}, "bid", "bid 9 does not match the auction, won by 8"),
    pytest.param({"kind": "no"}, "kind", "kind no does not match the auction, won by '8'"),
]


@pytest.mark.parametrize(("given", "field", "message"), AGREE, ids=["bidder", "bid", "kind"])
def test_given_fields_must_agree_with_the_auction(given: dict, field: str, message: str) -> None:
    game = standing(rules_of(), (0, 0), dealer=DEALER)
    played = auction_hand(["7", "pass", "8", "pass"], **given)
    with pytest.raises(HandError) as caught:
        game_play(game, played)
    assert message in str(caught.value)
    assert caught.value.field == field


def test_agreeing_fields_are_fine() -> None:
    game = standing(rules_of(), (0, 0), dealer=DEALER)
    played = auction_hand(["7", "pass", "8", "pass"], bidder=2, bid=8, kind="trump")
    assert last(game_play(game, played)).bidder == 2


def test_bid_given_with_a_kaiser_auction_is_ignored() -> None:
    game = standing(rules_of("yarotsky"), (0, 0), dealer=DEALER)
    played = HandInput(
        auction=("pass", "kaiser", "pass", "pass"),
        bid=7,
        seat_tricks=(1, 7, 0, 0),
        five_hearts=1,
        three_spades=0,
    )
    scored = last(game_play(game, played))
    assert (scored.bidder, scored.kind, scored.bid, scored.made) == (1, "kaiser", 12, True)


def test_auction_follows_the_dealer() -> None:
    # Dealer 1: the calls come from seats 2, 3, 0, 1.
    game = standing(rules_of(), (0, 0), dealer=1)
    played = auction_hand(["pass", "pass", "9", "pass"])
    assert last(game_play(game, played)).bidder == 0


def test_six_seat_auction() -> None:
    rules = rules_of("hetu", seats=6, partnership="triples", dealer_may_pass=True)
    played = HandInput(
        auction=("pass", "pass", "pass", "pass", "pass", "7"),
        tricks=(1, 7),
        five_hearts=1,
        three_spades=1,
    )
    scored = last(game_play(standing(rules, (0, 0), dealer=3), played))
    assert (scored.bidder, scored.side) == (3, 1)


CALLS = [
    ("pass", None),
    ("8", ("trump", 8)),
    ("8 trump", ("trump", 8)),
    ("12 no", ("no", 12)),
    ("7 low", ("low", 7)),
    ("kaiser", ("kaiser", 12)),
    ("kaiser 40", ("kaiser40", 40)),
    ("kaiser40", ("kaiser40", 40)),
    ("  Kaiser   40 ", ("kaiser40", 40)),
]


@pytest.mark.parametrize(("text", "parsed"), CALLS, ids=[text.strip() for text, _ in CALLS])
def test_call_parse(text: str, parsed: tuple | None) -> None:
    assert call_parse(text) == parsed
    if parsed is not None:
        assert call_parse(call_text(*parsed)) == parsed


@pytest.mark.parametrize("text", ["", "no", "8 hearts", "8no", "kaiser 41", "-8", "pas"])
def test_call_parse_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        call_parse(text)
