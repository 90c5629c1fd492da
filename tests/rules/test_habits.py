"""Table habits a record carries without changing a score: a misdeal's reason, card passing,
the kitty, a bid announced high or low, and the pot fed by each set bid (docs/game-record.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given

from scorecards.rules import (
    HandError,
    HandInput,
    Pot,
    RecordError,
    game_score,
    pot_account,
    record_parse,
    record_score,
    rules_build,
)

from .helpers import hand
from .strategies import game_strategy, played

SEATS = ["Ann", "Cat", "Bob", "Dan"]
PLAYED = {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}
SET = {"bidder": 1, "bid": 9, "tricks": [4, 4], "five_hearts": 1, "three_spades": 1}
RECORD: dict[str, Any] = {
    "format": "kaiser-game/1",
    "rules": {"preset": "saskatchewan"},
    "seats": SEATS,
    "passing": "rotation",
    "kitty": "bidder",
    "pot": {"per_set": 25},
    "hands": [
        {"thrown_in": True, "misdeal": "four-tens"},
        {**PLAYED, "passing": "left", "kitty": "bidder", "announced": "high"},
        {**SET, "passing": "3-2-1"},
        {**PLAYED, "kind": "low", "announced": "low"},
    ],
}


def test_habits_are_kept_and_change_no_score() -> None:
    parsed = record_parse(RECORD)
    assert parsed.to_dict()["hands"] == RECORD["hands"]
    assert {key: parsed.to_dict()[key] for key in ("passing", "kitty", "pot")} == {
        "passing": "rotation",
        "kitty": "bidder",
        "pot": {"per_set": 25},
    }
    assert record_parse(parsed.to_dict()) == parsed
    plain = copy.deepcopy(RECORD)
    for key in ("passing", "kitty", "pot"):
        del plain[key]
    for one in plain["hands"]:
        for key in ("misdeal", "passing", "kitty", "announced"):
            one.pop(key, None)
    with_habits, without = record_score(RECORD), record_score(plain)
    assert with_habits.pop("pot") == {
        "per_set": 25,
        "fed": [{"hand": 3, "seat": 1}],
        "total": 25,
        "winners": None,
        "balance": [0, -25, 0, 0],
    }
    assert with_habits == without


def bad_hand(name: str, changes: dict, field: str, fragment: str) -> Any:
    return pytest.param(changes, field, fragment, id=name)


BAD_HANDS = [
    bad_hand("misdeal unknown", {"thrown_in": True, "misdeal": "bored"}, "misdeal", "one of"),
    bad_hand("misdeal on a played hand", {**PLAYED, "misdeal": "no-ace"}, "misdeal", "thrown-in"),
    bad_hand("misdeal number", {"thrown_in": True, "misdeal": 3}, "misdeal", "one of"),
    bad_hand("misdeal null", {"thrown_in": True, "misdeal": None}, "misdeal", "must not be null"),
    bad_hand("passing unknown", {**PLAYED, "passing": "up"}, "passing", "3-2-1"),
    bad_hand("passing call of 9", {**PLAYED, "passing": "9-1"}, "passing", "3-2-1"),
    bad_hand("kitty unknown", {**PLAYED, "kitty": "eaten"}, "kitty", "one of"),
    bad_hand("announced sideways", {**PLAYED, "announced": "middle"}, "announced", "high, low"),
    bad_hand("announced thrown in", {"thrown_in": True, "announced": "low"}, "announced", "played"),
]


@pytest.mark.parametrize(("changes", "field", "fragment"), BAD_HANDS)
def test_bad_hand_habits_are_refused_naming_the_field(
    changes: dict, field: str, fragment: str
) -> None:
    record = {"seats": SEATS, "hands": [PLAYED, changes]}
    with pytest.raises(HandError) as caught:
        record_score(record)
    assert (caught.value.number, caught.value.field) == (2, field)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"passing": "sideways"}, "passing"),
        ({"passing": None}, "passing"),
        ({"kitty": 2}, "kitty"),
        ({"pot": 25}, "pot"),
        ({"pot": {"per_set": 0}}, "pot"),
        ({"pot": {"per_set": 10**9}}, "pot"),
        ({"pot": {"per_set": True}}, "pot"),
        ({"pot": {}}, "pot"),
    ],
)
def test_bad_game_habits_are_refused_naming_the_field(changes: dict, field: str) -> None:
    with pytest.raises(RecordError) as caught:
        record_parse({"seats": SEATS, "hands": [], **changes})
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_the_web_path_checks_habits_too() -> None:
    with pytest.raises(HandError) as caught:
        game_score(
            rules_build(),
            [
                HandInput(
                    bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1, misdeal="no-ace"
                )
            ],
        )
    assert caught.value.field == "misdeal"


def test_the_winners_collect_the_pot() -> None:
    rules = rules_build({"preset": "standard", "target": 20, "nt_target": None})
    hands = [
        hand(1, 9, (4, 4), 1, 1),  # seat 1 set: feeds
        hand(2, 10, (4, 4), 1, 1),  # seat 2 set: feeds
        hand(3, 7, (2, 6), 1, 0),
        hand(0, 7, (8, 0), 0, 0),
        hand(1, 8, (0, 8), 1, 1),
        hand(3, 8, (0, 8), 1, 1),  # side 1 makes it to 28 and wins
    ]
    game = game_score(rules, hands)
    assert game.finished and game.winner == 1
    account = pot_account(game, Pot(per_set=25))
    assert account.fed == ((1, 1), (2, 2))
    assert account.total == 50
    assert account.winners == (1, 3)
    assert account.balance == (0, -25 + 25, -25, 25)
    assert sum(account.balance) == 0


@given(game_strategy())
def test_the_pot_adds_up(case: Any) -> None:
    rules, first, hands = case
    _kept, game = played(rules, first, hands)
    account = pot_account(game, Pot(per_set=7))
    sets = [h for h in game.hands if not h.thrown_in and h.made is False]
    assert account.total == 7 * len(sets)
    assert [seat for _number, seat in account.fed] == [h.bidder for h in sets]
    if game.finished:
        assert sum(account.balance) == 0
    else:
        assert sum(account.balance) == -account.total and account.winners is None
