"""Hands as entered: reading a hand's fields, and refusing a hand the rules or the game cannot
take, with a message naming the hand and a `.field` naming the input."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import NOBODY, HandError, HandInput, game_play, game_score

from .helpers import hand, last, rules_of, standing

STANDARD_HAND = {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}


def bad(name: str, changes: dict, field: str, message: str, preset: str = "standard", **rules: Any):
    return pytest.param(preset, rules, changes, field, message, id=name)


# Each case: the standard hand above with `changes` (None deletes a field), as hand 1.
BAD_HANDS = [
    # The contract.
    bad("bidder missing", {"bidder": None}, "bidder", "bidder is missing"),
    bad(
        "bidder off the table", {"bidder": 4}, "bidder", "bidder must be a seat from 0 to 3 (got 4)"
    ),
    bad("bidder negative", {"bidder": -1}, "bidder", "bidder must be a seat from 0 to 3 (got -1)"),
    bad("bid missing", {"bid": None}, "bid", "bid is missing"),
    bad("bid too high", {"bid": 13}, "bid", "bid must be between 7 and 12 (got 13)"),
    bad("bid too low", {"bid": 6}, "bid", "bid must be between 7 and 12 (got 6)"),
    bad("pagat bid 5", {"bid": 5}, "bid", "bid must be between 6 and 12 (got 5)", "pagat"),
    bad("no trump off", {"kind": "no"}, "kind", "no_trump is off", "les-rois"),
    bad("low off", {"kind": "low"}, "kind", "low_no_trump is off"),
    bad("kaiser off", {"kind": "kaiser"}, "kind", "kaiser_bid is off"),
    bad("kaiser 40 off", {"kind": "kaiser40"}, "kind", "kaiser_40 is off"),
    # Tricks.
    bad("tricks missing", {"tricks": None}, "tricks", "tricks is missing"),
    bad("tricks add up", {"tricks": [6, 3]}, "tricks", "tricks must add up to 8 (got 9)"),
    bad("tricks too few", {"tricks": [6, 1]}, "tricks", "tricks must add up to 8 (got 7)"),
    bad("tricks per side", {"tricks": [6, 2, 0]}, "tricks", "tricks needs 2 numbers, one per side"),
    bad("tricks negative", {"tricks": [9, -1]}, "tricks", "tricks cannot be negative (got -1)"),
    bad(
        "seat tricks add up",
        {"tricks": None, "seat_tricks": [3, 1, 3, 2]},
        "seat_tricks",
        "seat_tricks must add up to 8 (got 9)",
    ),
    bad(
        "seat tricks per seat",
        {"tricks": None, "seat_tricks": [6, 2]},
        "seat_tricks",
        "seat_tricks needs 4 numbers, one per seat (got 2)",
    ),
    bad(
        "tricks disagree with seat tricks",
        {"tricks": [5, 3], "seat_tricks": [3, 1, 3, 1]},
        "tricks",
        "tricks [5, 3] do not match seat_tricks, which make [6, 2]",
    ),
    bad("two players add to 16", {"tricks": [6, 2]}, "tricks", "add up to 16 (got 8)", seats=2),
    # Special cards.
    bad("five missing", {"five_hearts": None}, "five_hearts", "five_hearts is missing"),
    bad("three missing", {"three_spades": None}, "three_spades", "three_spades is missing"),
    bad(
        "five off the table",
        {"five_hearts": 7},
        "five_hearts",
        "five_hearts must be a side from 0 to 1 (got 7)",
    ),
    bad(
        "three off the table",
        {"three_spades": -1},
        "three_spades",
        "three_spades must be a side from 0 to 1 (got -1)",
    ),
    bad(
        "five to a side with no trick",
        {"tricks": [8, 0], "five_hearts": 1},
        "five_hearts",
        "five_hearts: the five of hearts went to side 1, which took no trick",
    ),
    bad(
        "three to a side with no trick",
        {"tricks": [0, 8], "five_hearts": 1, "three_spades": 0},
        "three_spades",
        "three_spades: the three of spades went to side 0, which took no trick",
    ),
    # Joffre's insult.
    bad(
        "insult off", {"insult": 1, "three_spades": 0}, "insult", "only scored under joffre_insult"
    ),
    bad(
        "insult split cards",
        {"insult": 1},
        "insult",
        "an insult needs the five of hearts and the three of spades in one side's tricks",
        "joffre",
    ),
    bad(
        "insult off the table",
        {"insult": 2, "three_spades": 0},
        "insult",
        "insult must be a side from 0 to 1 (got 2)",
        "joffre",
    ),
    # Special bids.
    bad(
        "solo kaiser without seat tricks",
        {"kind": "kaiser", "bid": None, "tricks": [7, 1]},
        "seat_tricks",
        "seat_tricks is missing: a solo kaiser needs the tricks per seat",
        "yarotsky",
    ),
    bad(
        "kaiser 40 without seat tricks",
        {"kind": "kaiser40", "tricks": [8, 0]},
        "seat_tricks",
        "seat_tricks is missing: a kaiser 40 needs the tricks per seat",
        kaiser_40=True,
    ),
    bad(
        "kaiser 40 partner takes a trick",
        {"kind": "kaiser40", "tricks": None, "seat_tricks": [7, 0, 1, 0]},
        "seat_tricks",
        "seat_tricks: seat 2 sits out the kaiser 40 of its partner, so it cannot take a trick "
        "(got 1)",
        kaiser_40=True,
    ),
    bad(
        "kaiser 40 card nowhere without a partner",
        {"kind": "kaiser40", "tricks": None, "seat_tricks": [8, 0, 0], "five_hearts": None},
        "five_hearts",
        "five_hearts is missing",
        "three-player",
        kaiser_40=True,
    ),
    bad(
        "card nowhere on a normal hand",
        {"five_hearts": None, "three_spades": None},
        "five_hearts",
        "five_hearts is missing",
        kaiser_40=True,
    ),
    bad(
        "kaiser 40 bid must still be a number",
        {"kind": "kaiser40", "bid": "all", "tricks": None, "seat_tricks": [8, 0, 0, 0]},
        "bid",
        "bid must be a whole number (got 'all')",
        kaiser_40=True,
    ),
    # Dealer.
    bad("wrong dealer", {"dealer": 1}, "dealer", "dealer should be seat 0 (got 1)"),
    bad(
        "dealer off the table", {"dealer": 4}, "dealer", "dealer must be a seat from 0 to 3 (got 4)"
    ),
]


@pytest.mark.parametrize(("preset", "rules", "changes", "field", "message"), BAD_HANDS)
def test_bad_hand(preset: str, rules: dict, changes: dict, field: str, message: str) -> None:
    raw = {**STANDARD_HAND, **changes}
    raw = {key: value for key, value in raw.items() if value is not None}
    game = standing(rules_of(preset, **rules), (0,) * rules_of(preset, **rules).side_count)
    with pytest.raises(HandError) as caught:
        game_play(game, HandInput.from_dict(raw, 1))
    error = caught.value
    assert str(error).startswith("hand 1: ")
    assert message in str(error)
    assert error.field == field
    assert error.number == 1


def test_error_names_the_hand_number() -> None:
    hands = [hand(0, 9, (6, 2), 1, 0)] * 6 + [hand(0, 7, (6, 3), 0, 1)]
    with pytest.raises(HandError) as caught:
        game_score(rules_of(bid_out=None, lose_at=None), hands)
    assert str(caught.value) == "hand 7: tricks must add up to 8 (got 9)"
    assert (caught.value.number, caught.value.field) == (7, "tricks")
    assert caught.value.message == "tricks must add up to 8 (got 9)"


def test_valid_hands_pass() -> None:
    rules = rules_of()
    assert last(game_play(standing(rules, (0, 0)), HandInput.from_dict(STANDARD_HAND, 1))).made


def test_kaiser_40_card_in_the_partners_hand_is_allowed() -> None:
    rules = rules_of(kaiser_40=True)
    raw = {"bidder": 1, "kind": "kaiser40", "seat_tricks": [0, 8, 0, 0], "five_hearts": None}
    raw["three_spades"] = 1
    scored = last(game_play(standing(rules, (0, 0)), HandInput.from_dict(raw, 1)))
    assert (scored.five_hearts, scored.points, scored.delta) == (None, (0, 5), (0, 40))


# Reading a hand's fields: wrong types are refused by from_dict already.
def wrong(name: str, raw: Any, field: str, message: str):
    return pytest.param(raw, field, message, id=name)


WRONG_TYPES = [
    wrong("not an object", [0, 8], "hand", "expected an object with the hand's fields"),
    wrong("thrown_in text", {"thrown_in": "yes"}, "thrown_in", "thrown_in must be true or false"),
    wrong("thrown_in null", {"thrown_in": None}, "thrown_in", "thrown_in must not be null"),
    wrong("bidder true", {"bidder": True}, "bidder", "bidder must be a whole number (got True)"),
    wrong("bid text", {"bid": "8"}, "bid", "bid must be a whole number (got '8')"),
    wrong("bid float", {"bid": 8.0}, "bid", "bid must be a whole number (got 8.0)"),
    wrong("kind unknown", {"kind": "notrump"}, "kind", "kind must be one of trump, no, low"),
    wrong("kind number", {"kind": 1}, "kind", "kind must be one of"),
    wrong("tricks text", {"tricks": "6,2"}, "tricks", "tricks must be a list of whole numbers"),
    wrong("tricks bool", {"tricks": [6, True]}, "tricks", "tricks must be a list of whole numbers"),
    wrong("seat_tricks", {"seat_tricks": [1.5]}, "seat_tricks", "seat_tricks must be a list"),
    wrong("five text", {"five_hearts": "0"}, "five_hearts", "five_hearts must be a whole number"),
    wrong("three bool", {"three_spades": False}, "three_spades", "three_spades must be a whole"),
    wrong("insult text", {"insult": "1"}, "insult", "insult must be a whole number"),
    wrong("dealer text", {"dealer": "2"}, "dealer", "dealer must be a whole number"),
    wrong("auction text", {"auction": "8 pass"}, "auction", "auction must be a list of calls"),
    wrong("auction number", {"auction": [8, "pass"]}, "auction", "auction call 1 must be text"),
    wrong("auction null call", {"auction": ["pass", None]}, "auction", "auction call 2 must be"),
    wrong(
        "kind disagrees with auction",
        {"kind": "trump", "auction": ["pass", "8 no", "pass", "pass"]},
        "kind",
        "kind trump does not match the auction, won by '8 no'",
    ),
]


@pytest.mark.parametrize(("raw", "field", "message"), WRONG_TYPES)
def test_from_dict_refuses_wrong_types(raw: Any, field: str, message: str) -> None:
    with pytest.raises(HandError) as caught:
        HandInput.from_dict(raw, 4)
    assert str(caught.value).startswith("hand 4: ")
    assert message in str(caught.value)
    assert caught.value.field == field


def test_from_dict_ignores_unknown_keys() -> None:
    raw = {**STANDARD_HAND, "note": "Ann misdealt first", "confirmed": True}
    assert HandInput.from_dict(raw, 1) == HandInput.from_dict(STANDARD_HAND, 1)


NOT_NULL = ["thrown_in", "dealer", "bidder", "bid", "kind", "auction", "tricks", "seat_tricks"]
NOT_NULL += ["insult"]


@pytest.mark.parametrize("field", NOT_NULL)
def test_null_is_not_leaving_a_field_out(field: str) -> None:
    with pytest.raises(HandError) as caught:
        HandInput.from_dict({**STANDARD_HAND, field: None}, 2)
    assert caught.value.field == field
    assert str(caught.value) == f"hand 2: {field} must not be null (leave it out instead)"


def test_a_special_card_given_as_null_is_nobody() -> None:
    read = HandInput.from_dict({**STANDARD_HAND, "five_hearts": None}, 1)
    assert read.five_hearts is NOBODY
    assert read.to_dict()["five_hearts"] is None
    left_out = HandInput.from_dict({"bidder": 0, "bid": 8, "tricks": [6, 2]}, 1)
    assert (left_out.five_hearts, left_out.three_spades) == (None, None)
    assert "five_hearts" not in left_out.to_dict()


K40 = {"bidder": 0, "kind": "kaiser40", "seat_tricks": [8, 0, 0, 0], "three_spades": 0}


def test_a_kaiser_40_card_left_out_is_refused() -> None:
    rules = rules_of(kaiser_40=True)
    with pytest.raises(HandError) as caught:
        game_score(rules, [HandInput.from_dict(K40, 1)])
    assert caught.value.field == "five_hearts"
    assert "five_hearts is missing" in str(caught.value)
    written = {**K40, "five_hearts": None}
    scored = game_score(rules, [HandInput.from_dict(written, 1)])
    assert scored.hands[0].made and scored.hands[0].five_hearts is None
    assert HandInput.from_dict(written, 1).to_dict() == written


def test_legacy_records_read_a_left_out_kaiser_40_card_as_nobody() -> None:
    read = HandInput.from_dict(K40, 1, legacy=True)
    assert read.five_hearts is NOBODY and read.three_spades == 0
    auction = {**K40, "kind": None, "auction": ["pass", "pass", "pass", "kaiser 40"]}
    del auction["kind"], auction["three_spades"]
    read = HandInput.from_dict(auction, 1, legacy=True)
    assert (read.five_hearts, read.three_spades) == (NOBODY, NOBODY)
    # Only a kaiser 40's cards: anywhere else a card left out is still missing.
    assert HandInput.from_dict(STANDARD_HAND | {"five_hearts": 1}, 1, legacy=True).five_hearts == 1
    plain = {"bidder": 0, "bid": 8, "tricks": [6, 2]}
    assert HandInput.from_dict(plain, 1, legacy=True).five_hearts is None


def test_from_dict_reads_every_field() -> None:
    raw = {
        "thrown_in": False,
        "dealer": 3,
        "auction": ["pass", "7", "pass", "8 no"],
        "bidder": 3,
        "bid": 8,
        "kind": "no",
        "tricks": [2, 6],
        "seat_tricks": [1, 2, 1, 4],
        "five_hearts": 1,
        "three_spades": 0,
        "insult": 1,
    }
    read = HandInput.from_dict(raw, 1)
    assert read == HandInput(
        dealer=3,
        auction=("pass", "7", "pass", "8 no"),
        bidder=3,
        bid=8,
        kind="no",
        tricks=(2, 6),
        seat_tricks=(1, 2, 1, 4),
        five_hearts=1,
        three_spades=0,
        insult=1,
    )
    # Written back without the defaults: thrown_in false, and the kind the auction gives.
    assert read.to_dict() == {k: v for k, v in raw.items() if k not in ("thrown_in", "kind")}


def test_kind_comes_from_the_auction() -> None:
    read = HandInput.from_dict({"auction": ["pass", "8 low", "pass", "pass"]}, 1)
    assert read.kind == "low"
    assert HandInput(auction=("kaiser 40", "pass", "pass", "pass")).kind == "kaiser40"
    assert HandInput(auction=["pass", "pass", "pass", "9"]).auction == ("pass", "pass", "pass", "9")


@pytest.mark.parametrize(
    "raw",
    [
        {"thrown_in": True},
        {"thrown_in": True, "dealer": 2},
        STANDARD_HAND,
        {**STANDARD_HAND, "kind": "no"},
        {"auction": ["pass", "8 no", "pass", "pass"], "tricks": [2, 6], "five_hearts": 1},
        {"bidder": 1, "kind": "kaiser40", "seat_tricks": [0, 8, 0, 0], "three_spades": 1},
    ],
    ids=["thrown in", "thrown in with dealer", "trump", "no", "auction", "kaiser 40"],
)
def test_to_dict_round_trip(raw: dict) -> None:
    read = HandInput.from_dict(raw, 1)
    assert read.to_dict() == raw
    assert HandInput.from_dict(read.to_dict(), 1) == read


def test_lists_become_tuples() -> None:
    made = HandInput(bidder=0, bid=8, tricks=[6, 2], seat_tricks=[3, 1, 3, 1])  # type: ignore[arg-type]
    assert made.tricks == (6, 2) and made.seat_tricks == (3, 1, 3, 1)
    assert hash(made) == hash(HandInput(bidder=0, bid=8, tricks=(6, 2), seat_tricks=(3, 1, 3, 1)))
