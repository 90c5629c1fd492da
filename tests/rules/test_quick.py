"""The fast path of scoring (`quick._quick`) and the HandScore draft: they change how fast a hand
is scored, never what comes of it."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError, fields, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecards.rules import NOBODY, HandError, HandInput, HandScore, Rules, game_score
from scorecards.rules.quick import _quick
from scorecards.rules.scoring import _checked, _play, _Table

from .helpers import hand, rules_of
from .strategies import game_strategy

ENOUGH = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
Game = tuple[Rules, int, list[HandInput]]


class Seat(int):
    """An int subclass: a whole number to the general path, not a plain one to the fast path."""


# Values the fast path hands over to the general path, whatever the field.
ODD_VALUES: list[Any] = [True, False, 1.0, "1", -1, 99, Seat(0), Seat(1), [], (0,), None, NOBODY]
FIELDS = ("dealer", "bidder", "bid", "kind", "tricks", "seat_tricks", "five_hearts")
FIELDS += ("three_spades", "insult", "auction", "thrown_in", "misdeal")


def _table(rules: Rules, first: int) -> _Table:
    return _Table(
        scores=(0,) * rules.side_count, target=rules.target, bid_out=rules.bid_out, dealer=first
    )


def _both_paths(rules: Rules, table: _Table, one: HandInput, number: int) -> None:
    """The fast path accepts only what the general path accepts, and reads it the same."""
    quick = _quick(rules, one, table.dealer)
    try:
        general = _checked(rules, table, one, number)
    except (HandError, TypeError):  # a TypeError for an auction that is no list at all
        assert quick is None
        return
    assert quick is None or quick == general


@ENOUGH
@given(game_strategy())
def test_the_fast_path_reads_valid_hands_as_the_general_path(game: Game) -> None:
    rules, first, hands = game
    table = _table(rules, first)
    for number, one in enumerate(hands, 1):
        if table.finished:
            break
        _both_paths(rules, table, one, number)
        _play(rules, table, one, number)


@ENOUGH
@given(game_strategy(max_hands=8), st.data())
def test_the_fast_path_hands_over_odd_hands(game: Game, data: st.DataObject) -> None:
    rules, first, hands = game
    table = _table(rules, first)
    for number, one in enumerate(hands, 1):
        if table.finished:
            break
        name = data.draw(st.sampled_from(FIELDS))
        value = data.draw(st.sampled_from(ODD_VALUES + list(range(rules.seats))))
        odd = HandInput()
        for field in fields(HandInput):  # as given: no list turned into a tuple
            object.__setattr__(odd, field.name, getattr(one, field.name))
        object.__setattr__(odd, name, value)
        _both_paths(rules, table, odd, number)
        _play(rules, table, one, number)


@pytest.mark.parametrize(
    "one",
    [
        hand(0, 8, (6, 2), 0, 1),
        hand(0, 8, (6, 2), 0, 1, auction=("8", "pass", "pass", "pass")),
        hand(0, 8, (2, 1, 3, 2), 0, 1, per_seat=True),
    ],
    ids=["plain", "auction", "seat tricks"],
)
def test_the_fast_path_takes_the_common_hands(one: HandInput) -> None:
    rules = rules_of()
    table = _table(rules, 3)
    assert _quick(rules, one, 3) == _checked(rules, table, one, 1)
    assert _quick(rules, one, 3) is not None


@pytest.mark.parametrize(
    "changes",
    [
        {"bidder": True},
        {"bidder": Seat(0)},
        {"bid": Seat(8)},
        {"dealer": Seat(3)},
        {"five_hearts": Seat(0)},
        {"tricks": [6, 2]},
        {"misdeal": "other"},
        {"kind": "low"},
        {"auction": ("pass", "pass", "pass", "pass 8")},
    ],
)
def test_what_the_fast_path_leaves_is_scored_or_refused_the_same(changes: dict) -> None:
    rules = rules_of()
    one = hand(0, 8, (6, 2), 0, 1)
    for name, value in changes.items():
        object.__setattr__(one, name, value)  # as given: no list turned into a tuple
    assert _quick(rules, one, 3) is None
    try:
        expected: Any = _checked(rules, _table(rules, 3), one, 1)
    except HandError as error:
        with pytest.raises(HandError) as raised:
            game_score(rules, [one], 3)
        assert (str(raised.value), raised.value.field) == (str(error), error.field)
    else:
        assert expected is not None
        scored = game_score(rules, [one], 3).hands[0]
        assert (scored.bidder, scored.bid, scored.tricks, scored.five_hearts) == (
            expected[0],
            expected[2],
            expected[3],
            expected[5],
        )


def test_the_draft_is_the_hand_score_that_init_builds() -> None:
    rules = rules_of("standard", kaiser_bid="team", kaiser_40=True)
    game = game_score(
        rules,
        [
            hand(0, 8, (6, 2), 0, 1),
            HandInput(thrown_in=True),
            hand(1, 9, (2, 6), 1, 0, "no", auction=("9 no", "pass", "pass", "pass")),
            hand(3, None, (0, 0, 3, 5), 1, NOBODY, "kaiser40", per_seat=True),
        ],
        3,
    )
    names = [field.name for field in fields(HandScore)]
    for scored in game.hands:
        built = HandScore(**vars(scored))
        assert type(scored) is HandScore
        assert list(vars(scored)) == names  # every field, in field order
        assert scored == built and repr(scored) == repr(built) and hash(scored) == hash(built)
        assert pickle.loads(pickle.dumps(scored)) == built
        assert replace(scored, number=9) == replace(built, number=9)
        with pytest.raises(FrozenInstanceError):
            scored.number = 9  # type: ignore[misc]
