"""A record's common hand is read by a shorter path (`hands._plain`); it reads every hand as the
general reading does, and hands anything else over to it (a Mapping that is not a dict always
takes the general reading, so the two can be compared)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from scorecards.rules import HandError, HandInput

HANDS: list[dict[str, Any]] = [
    {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
    {"bidder": 1, "bid": 7, "kind": "no", "tricks": [2, 6], "five_hearts": 1, "three_spades": 1},
    {
        "auction": ["pass", "8 no", "pass", "pass"],
        "tricks": [2, 6],
        "five_hearts": 1,
        "three_spades": 0,
    },
    {
        "auction": ["8", "pass", "pass", "pass"],
        "bidder": 0,
        "bid": 8,
        "tricks": [5, 3],
        "five_hearts": 0,
        "three_spades": 0,
    },
    {
        "auction": ["8", "pass", "pass", "pass"],
        "kind": "no",
        "tricks": [5, 3],
        "five_hearts": 0,
        "three_spades": 0,
    },
    {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": None, "three_spades": 1},
    {
        "bidder": 0,
        "kind": "kaiser40",
        "seat_tricks": [8, 0, 0, 0],
        "five_hearts": 0,
        "three_spades": 0,
    },
    {"thrown_in": True},
    {"bidder": True, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
    {"bidder": 0, "bid": 8, "tricks": [6, 2.0], "five_hearts": 0, "three_spades": 1},
    {
        "bidder": 0,
        "bid": 8,
        "kind": "hearts",
        "tricks": [6, 2],
        "five_hearts": 0,
        "three_spades": 1,
    },
    {"bidder": None, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
    {"auction": ["8", 8, "pass", "pass"], "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
    {
        "auction": ["8 no", "pass", "pass", "pass"],
        "kind": "trump",
        "tricks": [6, 2],
        "five_hearts": 0,
        "three_spades": 1,
    },
]


def reading(raw: Any) -> HandInput | str:
    try:
        return HandInput.from_dict(raw, 3)
    except HandError as error:
        return str(error)


@pytest.mark.parametrize("raw", HANDS, ids=range(len(HANDS)))
def test_the_plain_reading_is_the_general_one(raw: dict[str, Any]) -> None:
    assert reading(raw) == reading(MappingProxyType(raw))
