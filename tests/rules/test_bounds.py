"""Every numeric setting has a range, checked by the engine itself, whoever sends the value (a
form, an import, a backup): any value in range is accepted, any value outside is refused naming
the setting (rulebook: "Settings are checked"; docs/rules.md lists the ranges)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecards.rules import BOUNDS, RulesError, rules_build, settings_catalogue


def companions(name: str, value: int) -> dict[str, Any]:
    """`name` set to `value`, with whatever else a valid combination needs (a min_bid of 30
    needs a max_bid of 30 and a hand that holds 30 points, and so on)."""
    wide = {"tricks_per_hand": 16, "heart_bonus": 20}
    return {
        "seats": {},
        "tricks_per_hand": {"max_bid": min(12, value + 5), "min_bid": 1},
        "min_bid": {**wide, "max_bid": value},
        "max_bid": {**wide, "min_bid": 1},
        "target": {"nt_target": None},
        "nt_target": {"target": 10},
        "bid_out": {"nt_target": None},
        "nt_bid_out": {},
        "lose_at": {},
        "nonbidder_cap": {},
        "heart_bonus": {"max_bid": 8},
        "spade_penalty": {},
        "bid_13_no": {},
        "bid_14_no": {},
    }[name] | {name: value}


@st.composite
def in_range(draw: st.DrawFn) -> tuple[str, int]:
    name = draw(st.sampled_from(sorted(BOUNDS)))
    low, high = BOUNDS[name]
    return name, draw(st.integers(low, high))


@st.composite
def out_of_range(draw: st.DrawFn) -> tuple[str, int]:
    name = draw(st.sampled_from(sorted(BOUNDS)))
    low, high = BOUNDS[name]
    value = draw(st.integers(max_value=low - 1) | st.integers(min_value=high + 1))
    return name, value


@given(in_range())
def test_any_value_in_range_is_accepted(case: tuple[str, int]) -> None:
    name, value = case
    assert getattr(rules_build(companions(name, value)), name) == value


@given(out_of_range())
def test_any_value_out_of_range_is_refused_naming_the_setting(case: tuple[str, int]) -> None:
    name, value = case
    with pytest.raises(RulesError) as caught:
        rules_build(companions(name, value))
    assert caught.value.setting == name
    assert str(caught.value).startswith(f"rules: {name} must be")


HUGE = st.integers(min_value=2**64) | st.integers(max_value=-(2**64))


@given(st.sampled_from(sorted(BOUNDS)), HUGE)
def test_huge_numbers_are_refused_without_their_digits(name: str, value: int) -> None:
    with pytest.raises(RulesError) as caught:
        rules_build({name: value})
    assert caught.value.setting == name
    assert "too large" in str(caught.value)
    assert len(str(caught.value)) < 200


def test_five_thousand_digits() -> None:
    with pytest.raises(RulesError, match=r"target must be 6 to 500 \(got a number too large"):
        rules_build({"target": 10**5000})


REFUSED = [
    ({"heart_bonus": 3_000_000_000}, "heart_bonus", "heart_bonus must be 0 to 20"),
    ({"max_bid": 1_200_000}, "max_bid", "max_bid must be 1 to 36 (got 1200000)"),
    ({"max_bid": 14}, "max_bid", "max_bid must not be above 13, the points a hand holds"),
    ({"preset": "hetu", "max_bid": 15}, "max_bid", "must not be above 14"),
    ({"tricks_per_hand": 6}, "max_bid", "must not be above 11"),
    ({"heart_bonus": 0}, "max_bid", "must not be above 8"),
    (
        {"target": 1, "min_bid": 1},
        "target",
        "target must be 6 to 500 (got 1): no known Kaiser engine plays to less than 6",
    ),
    ({"target": 5}, "target", "target must be 6 to 500 (got 5)"),
    ({"bid_14_no": 1001}, "bid_14_no", "(got 1001): the most any known engine scores"),
    ({"max_bid": 14}, "max_bid", "13 no and 14 no are the settings bid_13_no and bid_14_no"),
    ({"target": 501, "nt_target": None}, "target", "500"),
    ({"nt_target": 501}, "nt_target", "nt_target must be 11 to 500"),
    ({"bid_out": 0}, "bid_out", "bid_out must be 1 to 500 (got 0)"),
    ({"nt_bid_out": 501}, "nt_bid_out", "nt_bid_out must be 1 to 500 (got 501)"),
    ({"lose_at": -501}, "lose_at", "lose_at must be -500 to -1"),
    ({"nonbidder_cap": 0}, "nonbidder_cap", "nonbidder_cap must be 1 to 500"),
    ({"spade_penalty": 3}, "spade_penalty", "spade_penalty must be -20 to 0 (got 3)"),
    ({"heart_bonus": -5}, "heart_bonus", "heart_bonus must be 0 to 20 (got -5)"),
    ({"tricks_per_hand": 17}, "tricks_per_hand", "tricks_per_hand must be 1 to 16"),
    ({"seats": 60}, "seats", "seats must be 2 to 6 (got 60)"),
]


@pytest.mark.parametrize(("data", "setting", "fragment"), REFUSED, ids=[str(c[0]) for c in REFUSED])
def test_refused(data: dict, setting: str, fragment: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_build(data)
    assert caught.value.setting == setting
    assert fragment in str(caught.value)


ACCEPTED = [
    {"target": 6, "min_bid": 1},  # kaiser-lib plays to 6
    {"target": 10, "min_bid": 1},  # a short game is still a game: Lost Heir bids from 1
    {"preset": "lost-heir", "tricks_per_hand": 12, "max_bid": 17},  # McLoughlin's 48 cards
    {"seats": 2, "max_bid": 21},  # 16 tricks and the five of hearts
    {"target": 500, "nt_target": None, "lose_at": -500},
    {"heart_bonus": 20, "spade_penalty": -20, "max_bid": 12},
]


def test_a_derived_bid_out_stays_within_the_limit() -> None:
    assert rules_build({"bid_out": 495}).nt_bid_out == 500
    assert rules_build({"target": 10, "nt_target": 466}).nt_bid_out == 500


@pytest.mark.parametrize("data", ACCEPTED, ids=[str(d) for d in ACCEPTED])
def test_accepted(data: dict) -> None:
    rules = rules_build(data)
    for name, value in data.items():
        if name != "preset":
            assert getattr(rules, name) == value


def test_every_number_setting_has_a_range() -> None:
    numbers = {s.key for s in settings_catalogue() if s.kind in ("int", "optional_int")}
    assert numbers == set(BOUNDS)
