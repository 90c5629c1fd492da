"""Every refusal of a hand names its field in its words as well as the hand: `hand 1: auction:
...`, `hand 1: five_hearts: ...`, `hand 1: seat_tricks: ...`. A reader of a record's error (the
command's output, an import's report) finds the field without knowing `.field`."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import (
    PRESETS,
    HandError,
    HandInput,
    KaiserError,
    game_score,
    record_score,
    rules_build,
)

GOOD = {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}
SEATS = ["Ann", "Cat", "Bob", "Dan"]

# (case, rules, hand changes, field, the whole message in English)
CASES: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    (
        "every seat passed",
        {},
        {"bidder": None, "bid": None, "auction": ["pass"] * 4},
        "auction",
        "hand 1: auction: every seat passed, but the dealer must bid when all the others pass",
    ),
    (
        "every seat passed where the dealer may pass",
        {"dealer_may_pass": True},
        {"bidder": None, "bid": None, "auction": ["pass"] * 4},
        "auction",
        "hand 1: auction: every seat passed: record the hand as thrown in instead",
    ),
    (
        "the five of hearts to a side with no trick",
        {},
        {"tricks": [8, 0], "five_hearts": 1, "three_spades": 0},
        "five_hearts",
        "hand 1: five_hearts: the five of hearts went to side 1, which took no trick",
    ),
    (
        "the three of spades to a side with no trick",
        {},
        {"tricks": [8, 0], "five_hearts": 0, "three_spades": 1},
        "three_spades",
        "hand 1: three_spades: the three of spades went to side 1, which took no trick",
    ),
    (
        "a kaiser 40 partner who took a trick",
        {"kaiser_40": True},
        {"kind": "kaiser40", "bid": None, "tricks": None, "seat_tricks": [7, 0, 1, 0]},
        "seat_tricks",
        "hand 1: seat_tricks: seat 2 sits out the kaiser 40 of its partner, so it cannot take "
        "a trick (got 1)",
    ),
    (
        "a kind these rules do not play",
        {},
        {"kind": "low"},
        "kind",
        "hand 1: kind: low bids are not played under these rules (low_no_trump is off)",
    ),
    # Refusals that named their field already, unchanged.
    ("tricks", {}, {"tricks": [6, 3]}, "tricks", "hand 1: tricks must add up to 8 (got 9)"),
    ("bid", {}, {"bid": 3}, "bid", "hand 1: bid must be between 7 and 12 (got 3)"),
]


@pytest.mark.parametrize(
    ("rules", "changes", "field", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_refusal_names_its_field_and_hand(
    rules: dict[str, Any], changes: dict[str, Any], field: str, message: str
) -> None:
    hand = {key: value for key, value in {**GOOD, **changes}.items() if value is not None}
    with pytest.raises(HandError) as caught:
        record_score({"rules": rules, "seats": SEATS, "hands": [hand]})
    assert str(caught.value) == message
    assert caught.value.field == field
    assert caught.value.number == 1
    assert f" {field}" in str(caught.value)


def test_with_names_the_field_still_leads() -> None:
    rules = rules_build({"kaiser_40": True})
    played = HandInput(
        bidder=0, kind="kaiser40", seat_tricks=(7, 0, 1, 0), five_hearts=0, three_spades=0
    )
    with pytest.raises(HandError) as caught:
        game_score(rules, [played], seat_names=SEATS)
    assert str(caught.value) == (
        "hand 1: seat_tricks: Bob sits out the kaiser 40 of their partner, so cannot take a trick "
        "(got 1)"
    )


# Every field of a hand, and values of every kind for it: most make a refusal.
FIELDS = ("bidder", "bid", "kind", "tricks", "seat_tricks", "five_hearts", "three_spades")
FIELDS += ("insult", "auction", "dealer", "thrown_in", "misdeal", "passing", "kitty", "announced")
VALUES: list[Any] = [True, 1.0, "1", -1, 0, 1, 3, 8, 13, 14, 40, 99, None, [], [8, 0], [4, 4]]
VALUES += [[True, 7], [7, 0, 1, 0], [0, 0, 8, 0], ["pass"] * 4, ["8", "8", "pass", "pass"]]
VALUES += [["x", "pass", "pass", "pass"], "trump", "no", "low", "kaiser", "kaiser40", "redeal"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_refusal_of_a_hand_names_its_field(preset: str) -> None:
    seats = [f"Player {seat}" for seat in range(PRESETS[preset]["seats"])]
    refusals = 0
    for field in FIELDS:
        for value in VALUES:
            for left_out in (None, "bid", "tricks"):
                played = {**GOOD, field: value}
                if left_out not in (None, field):
                    del played[left_out]
                try:
                    record_score({"rules": {"preset": preset}, "seats": seats, "hands": [played]})
                except HandError as error:
                    refusals += 1
                    assert error.field in str(error), (played, str(error))
                except KaiserError:
                    pass
    assert refusals > 500
