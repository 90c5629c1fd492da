"""The fast path of a whole record (`record_quick`): it changes how fast `record_score` answers,
never what it answers. Every document it writes is the general path's, key for key and in the
same order; every record it leaves (None) is scored, or refused, by the general path."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecards.rules import (
    GameRecord,
    HandInput,
    KaiserError,
    RulesError,
    game_score,
    record_parse,
    record_score,
    rules_build,
)
from scorecards.rules import record_plan as quick_module
from scorecards.rules.record_quick import record_quick

from .strategies import game_strategy, played

ENOUGH = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEATS = ("Ann", "Cat", "Bob", "Dan", "Eve", "Fay")
HAND_FIELDS = ("bidder", "bid", "kind", "tricks", "five_hearts", "three_spades", "auction")
# Values put in a hand's field: the plain ones and every kind of odd one.
ODD_VALUES: list[Any] = [True, False, 1.0, "1", -1, 0, 1, 2, 7, 8, 13, 99, None, [], [8, 0]]
ODD_VALUES += [[4, 4], [True, 7], ["8", "pass", "pass", "pass"], [["8"], "pass", "pass", "pass"]]


def general(record: Any) -> dict[str, Any]:
    """The general path's document (what `record_score` was before the fast path)."""
    parsed = record_parse(record)
    game = game_score(parsed.rules, parsed.hands, parsed.first_dealer)
    return game.as_result(parsed.seats)


def as_record(rules: Any, first: int, hands: list[HandInput]) -> dict[str, Any]:
    return GameRecord(
        rules=rules, seats=SEATS[: rules.seats], first_dealer=first, hands=tuple(hands)
    ).to_dict()


def same_answer(record: Any) -> None:
    """`record_score` answers as the general path: the same document (in the same order, as the
    command prints it) or the same refusal; the fast path answers only where it agrees."""
    try:
        expected: Any = json.dumps(general(copy.deepcopy(record)))
    except KaiserError as error:
        expected = (type(error), str(error), error.field)
        with pytest.raises(KaiserError) as caught:
            record_score(record)
        assert (type(caught.value), str(caught.value), caught.value.field) == expected
        assert record_quick(record) is None
        assert record_quick(record, played_only=True) is None
        return
    assert json.dumps(record_score(record)) == expected
    quick = record_quick(record)
    assert quick is None or json.dumps(quick) == expected
    # What a reader of figures takes of the hands played: the same, read off the document.
    played = record_quick(record, played_only=True)
    if quick is None:
        assert played is None
        return
    assert played is not None
    assert played.pop("hands") == [
        (hand["bidder"], hand["side"], bool(hand["made"]), hand["kind"])
        for hand in quick.pop("hands")
        if not hand["thrown_in"]
    ]
    assert played == quick


@ENOUGH
@given(game_strategy())
def test_a_game_is_scored_as_the_general_path_scores_it(game: Any) -> None:
    rules, first, hands = game
    kept, _ = played(rules, first, hands)
    same_answer(as_record(rules, first, kept))
    # Running past the end is refused by the general path, in its words.
    same_answer(as_record(rules, first, hands))


@ENOUGH
@given(game_strategy(), st.data())
def test_a_hand_changed_is_answered_as_the_general_path_answers(game: Any, data: Any) -> None:
    rules, first, hands = game
    kept, _ = played(rules, first, hands)
    record = as_record(rules, first, kept)
    if not record["hands"]:
        return
    number = data.draw(st.integers(0, len(record["hands"]) - 1))
    field = data.draw(
        st.sampled_from((*HAND_FIELDS, "thrown_in", "dealer", "seat_tricks", "misdeal", "unknown"))
    )
    value = data.draw(
        st.sampled_from([*ODD_VALUES, ["pass"] * rules.seats, "trump", "no", "kaiser"])
    )
    record["hands"][number][field] = value
    same_answer(record)


@pytest.mark.parametrize(
    "change",
    [
        {"rules": {"kaiser_40": 1}},  # a number is not true, whatever a memo holds
        {"rules": {"kaiser_40": True, "min_bid": 7.0}},
        {"rules": {"preset": "nowhere"}},
        {"rules": None},
        {"rules": []},
        {"seats": ["Ann", "Cat", "Bob"]},
        {"seats": ["Ann", "Cat", "Bob", " "]},
        {"first_dealer": True},
        {"first_dealer": 4},
        {"format": "kaiser-game/2"},
        {"hands": {}},
        {"played_on": "2026-02-30"},
        {"pot": {"per_set": 0}},
    ],
)
def test_a_record_changed_is_refused_as_the_general_path_refuses(change: dict[str, Any]) -> None:
    record_score({"rules": {"kaiser_40": True}, "seats": list(SEATS[:4]), "hands": []})
    record = {"rules": {"kaiser_40": True}, "seats": list(SEATS[:4]), "hands": [], **change}
    same_answer(record)


def test_the_document_shares_no_list_with_the_record_or_itself() -> None:
    hand = {"bidder": 1, "bid": 8, "tricks": [3, 5], "five_hearts": 1, "three_spades": 0}
    record = {"seats": list(SEATS[:4]), "hands": [hand, {"thrown_in": True}, dict(hand)]}
    result = record_score(record)
    first, thrown, third = result["hands"]
    assert first["tricks"] is not hand["tricks"]
    assert first["scores"] is not thrown["scores"] and thrown["scores"] is not third["scores"]
    assert result["scores"] is not third["scores"]
    first["tricks"].append(0)
    thrown["scores"][0] = 99
    assert hand["tricks"] == [3, 5] and third["scores"] == [0, 20]


def test_its_memos_stay_small_whatever_the_records() -> None:
    for target in range(52, 52 + quick_module._RULES_KEPT + 20):
        record_score(
            {"rules": {"target": target, "nt_target": None}, "seats": list(SEATS[:4]), "hands": []}
        )
    assert len(quick_module._RULES) <= quick_module._RULES_KEPT
    rules = rules_build()
    for record in ({"hands": []}, {"rules": {}, "hands": []}):
        record["seats"] = list(SEATS[:4])
        record_score(record)
    for plan in [quick_module._STANDARD[0], *(plan for _, plan in quick_module._RULES.values())]:
        assert all(len(auctions) <= quick_module._AUCTIONS_KEPT for auctions in plan[2])
    with pytest.raises(RulesError):
        record_score({"rules": {"target": 600}, "seats": list(SEATS[:4]), "hands": []})
    assert rules == rules_build()


def test_a_rules_object_changed_between_records_is_read_again() -> None:
    rules = rules_build({"kaiser_40": True}).as_dict()
    record = {"rules": rules, "seats": list(SEATS[:4]), "hands": []}
    record_score(record)
    rules["kaiser_40"] = 1  # equal to true, but not a truth value
    same_answer(record)
    rules["kaiser_40"] = False
    assert record_score(record) == general(record)
    del rules["kaiser_40"]
    rules["kaiser40"] = False  # a setting it does not know
    same_answer(record)
    same_answer({"rules": {"kaiser_40": None}, "seats": list(SEATS[:4]), "hands": []})


def test_a_record_with_its_day_takes_the_fast_path() -> None:
    hand = {"bidder": 1, "bid": 8, "tricks": [3, 5], "five_hearts": 1, "three_spades": 0}
    record = {"seats": list(SEATS[:4]), "played_on": "2026-11-20", "hands": [hand]}
    assert record_quick(record) is None  # the day not checked by the caller
    quick = record_quick(record, played_on_checked=True)
    assert quick is not None and json.dumps(quick) == json.dumps(general(record))
    same_answer(record)
    for day in ("2026-02-30", "20261120", None, 20261120):
        same_answer({**record, "played_on": day, "seats": ["Ann"]})
        same_answer({**record, "played_on": day})
