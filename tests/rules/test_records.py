"""`kaiser-game/1` records in and `kaiser-result/1` out (spec: game-record.md)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from scorecards.rules import (
    GameRecord,
    HandError,
    KaiserError,
    RecordError,
    RulesError,
    record_parse,
    record_score,
    rules_build,
)

SPEC_RECORD: dict[str, Any] = {
    "format": "kaiser-game/1",
    "rules": {"preset": "standard", "min_bid": 6},
    "seats": ["Ann", "Cat", "Bob", "Dan"],
    "first_dealer": 3,
    "hands": [
        {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
        {
            "bidder": 1,
            "bid": 7,
            "kind": "no",
            "tricks": [3, 5],
            "five_hearts": 1,
            "three_spades": 1,
        },
        {"thrown_in": True},
        {
            "auction": ["pass", "7", "pass", "8 no"],
            "tricks": [4, 4],
            "five_hearts": 0,
            "three_spades": 0,
        },
    ],
}


def with_(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(SPEC_RECORD)
    for key, value in changes.items():
        if value is ...:
            del record[key]
        else:
            record[key] = value
    return record


def test_spec_output_example() -> None:
    """game-record.md's output, for a record holding only the first hand."""
    result = record_score(with_(hands=SPEC_RECORD["hands"][:1]))
    assert result == {
        "format": "kaiser-result/1",
        "sides": [["Ann", "Bob"], ["Cat", "Dan"]],
        "hands": [
            {
                "number": 1,
                "dealer": 3,
                "bidder": 0,
                "side": 0,
                "bid": 8,
                "kind": "trump",
                "tricks": [6, 2],
                "points": [11, -1],
                "made": True,
                "delta": [11, -1],
                "scores": [11, -1],
                "target": 52,
                "thrown_in": False,
                # beyond the spec's keys:
                "five_hearts": 0,
                "three_spades": 1,
            }
        ],
        "scores": [11, -1],
        "target": 52,
        "bid_out": 45,
        "finished": False,
        "winner": None,
        "reason": None,
        "next_dealer": 0,
    }


def test_spec_input_example() -> None:
    result = record_score(SPEC_RECORD)
    hands = result["hands"]
    assert [h["dealer"] for h in hands] == [3, 0, 1, 1]
    assert (hands[1]["points"], hands[1]["delta"], hands[1]["target"]) == ([3, 7], [3, 14], 62)
    assert hands[2]["thrown_in"] is True
    last = hands[3]
    assert (last["bidder"], last["bid"], last["kind"], last["made"]) == (1, 8, "no", False)
    assert result["next_dealer"] == 2


def test_empty_game_record() -> None:
    result = record_score(with_(hands=[], first_dealer=2))
    assert result["hands"] == []
    assert (result["scores"], result["next_dealer"], result["finished"]) == ([0, 0], 2, False)


def test_defaults_rules_and_first_dealer() -> None:
    record = with_(rules=..., first_dealer=..., format=...)
    parsed = record_parse(record)
    assert parsed.rules == rules_build()
    assert parsed.first_dealer == 0


def test_unknown_top_level_fields_are_ignored() -> None:
    assert record_score(with_(notes="played at the Legion", date="1999-02-03"))


def top(name: str, changes: dict, error: type, prefix: str, fragment: str = ""):
    return pytest.param(changes, error, prefix, fragment, id=name)


BAD_TOP = [
    top("format", {"format": "kaiser-game/2"}, RecordError, "format: expected 'kaiser-game/1'"),
    top("rules not an object", {"rules": ["standard"]}, RulesError, "rules: expected an object"),
    top("bad setting", {"rules": {"min_bid": "7"}}, RulesError, "rules: min_bid must be"),
    top("unknown preset", {"rules": {"preset": "x"}}, RulesError, "rules: unknown preset 'x'"),
    top("rules null", {"rules": None}, RulesError, "rules: rules must not be null"),
    top("seats null", {"seats": None}, RecordError, "seats: expected a list of 4 names"),
    top("hands null", {"hands": None}, RecordError, "hands: expected a list of hands"),
    top("format null", {"format": None}, RecordError, "format: expected 'kaiser-game/1'"),
    top("seats missing", {"seats": ...}, RecordError, "seats: seats is missing"),
    top("seats not a list", {"seats": "Ann"}, RecordError, "seats: expected a list of 4 names"),
    top("too few names", {"seats": ["Ann", "Cat", "Bob"]}, RecordError, "seats: expected 4 names"),
    top(
        "names for the rules",
        {"rules": {"preset": "three-player"}},
        RecordError,
        "seats: expected 3 names (got 4)",
    ),
    top("empty name", {"seats": ["Ann", " ", "Bob", "Dan"]}, RecordError, "seats: seat 1 needs"),
    top("name not text", {"seats": ["Ann", 2, "Bob", "Dan"]}, RecordError, "seats: seat 1 needs"),
    top("first dealer", {"first_dealer": 4}, RecordError, "first_dealer: must be a seat"),
    top("first dealer bool", {"first_dealer": True}, RecordError, "first_dealer: must be a seat"),
    top("first dealer null", {"first_dealer": None}, RecordError, "first_dealer: must be a seat"),
    top("hands missing", {"hands": ...}, RecordError, "hands: expected a list of hands"),
    top("hands not a list", {"hands": {"1": {}}}, RecordError, "hands: expected a list"),
    top("hand not an object", {"hands": ["thrown in"]}, HandError, "hand 1: expected an object"),
]


@pytest.mark.parametrize(("changes", "error", "prefix", "fragment"), BAD_TOP)
def test_bad_top_level(changes: dict, error: type, prefix: str, fragment: str) -> None:
    with pytest.raises(error) as caught:
        record_score(with_(**changes))
    assert str(caught.value).startswith(prefix)
    assert fragment in str(caught.value)
    if not isinstance(caught.value, HandError):
        assert caught.value.field == prefix.split(":")[0]


@pytest.mark.parametrize("record", [[], "game", None], ids=["list", "text", "null"])
def test_record_must_be_an_object(record: Any) -> None:
    with pytest.raises(RecordError, match=r"^format: expected a kaiser-game/1 record"):
        record_score(record)


def test_the_first_bad_hand_is_named() -> None:
    """Hand 2 breaks a game rule and hand 3 has a field of the wrong type: hand 2 is named."""
    hands = copy.deepcopy(SPEC_RECORD["hands"])
    hands[1]["tricks"] = [3, 6]
    hands[2] = {"thrown_in": "yes"}
    with pytest.raises(HandError) as caught:
        record_score(with_(hands=hands))
    assert str(caught.value) == "hand 2: tricks must add up to 8 (got 9)"


def test_a_hand_after_the_end_is_named_before_a_later_bad_one() -> None:
    hands = [{"bidder": 0, "bid": 5, "tricks": [8, 0], "five_hearts": 0, "three_spades": 0}] * 5
    hands = [*hands, {"bidder": "x"}]
    with pytest.raises(HandError, match=r"^hand 5: the game is already over$"):
        record_score(with_(rules={"preset": "hetu"}, hands=hands))


def test_game_record_round_trip() -> None:
    parsed = record_parse(SPEC_RECORD)
    again = record_parse(parsed.to_dict())
    assert again == parsed
    assert isinstance(again, GameRecord)
    assert record_score(parsed.to_dict()) == record_score(SPEC_RECORD)


def test_hand_numbers_count_thrown_in_hands() -> None:
    hands = [*copy.deepcopy(SPEC_RECORD["hands"]), {"thrown_in": True}, {"tricks": [9, -1]}]
    with pytest.raises(HandError) as caught:
        record_score(with_(hands=hands))
    assert str(caught.value) == "hand 6: bidder is missing: the seat that won the auction"


@pytest.mark.parametrize(
    "error",
    [
        HandError(3, "tricks", "tricks must add up to 8 (got 9)"),
        RulesError("min_bid must be a whole number", "min_bid"),
        RecordError("seats", "seats: expected 4 names"),
        KaiserError("something", "field"),
    ],
    ids=["hand", "rules", "record", "base"],
)
def test_errors_survive_pickling(error: KaiserError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert (str(again), again.field, again.message) == (str(error), error.field, error.message)
    assert isinstance(again, ValueError)


def test_error_shapes() -> None:
    hand = HandError(3, "tricks", "tricks must add up to 8 (got 9)")
    assert (str(hand), hand.number, hand.field) == (
        "hand 3: tricks must add up to 8 (got 9)",
        3,
        "tricks",
    )
    rules = RulesError("min_bid must be a whole number", "min_bid")
    assert (str(rules), rules.field, rules.setting) == (
        "rules: min_bid must be a whole number",
        "rules",
        "min_bid",
    )
    # The field may be given in the message or not; it is there once either way.
    for message in ("seats: expected 4 names", "expected 4 names"):
        record = RecordError("seats", message)
        assert (str(record), record.message) == ("seats: expected 4 names", "expected 4 names")
