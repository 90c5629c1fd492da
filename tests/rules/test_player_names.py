"""Given the players' names, the engine's messages name sides and seats by their players
("Ann & Bob") instead of by number; without them, by number as before."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import (
    HandError,
    HandInput,
    RecordError,
    game_play,
    game_score,
    rules_build,
)

from .helpers import standing

NAMES = ["Ann", "Cat", "Bob", "Dan"]
FIVE_TO_EMPTY = HandInput(bidder=0, bid=8, tricks=(8, 0), five_hearts=1, three_spades=0)

CASES = [
    (
        "a card to a side without a trick",
        {},
        FIVE_TO_EMPTY,
        "five_hearts: the five of hearts went to Cat & Dan, who took no trick",
        "five_hearts: the five of hearts went to side 1, which took no trick",
    ),
    (
        "an auction call too low",
        {},
        HandInput(auction=("8", "7", "pass", "9"), tricks=(8, 0), five_hearts=0, three_spades=0),
        "auction call 2 (Bob): '7' must be higher than '8' (Cat)",
        "auction call 2 (seat 2): '7' must be higher than '8' (seat 1)",
    ),
    (
        "the dealer's call",
        {},
        HandInput(auction=("8", "pass", "pass", "7"), tricks=(8, 0), five_hearts=0, three_spades=0),
        "auction call 4 (Ann, the dealer): '7' must at least equal '8' (Cat)",
        "auction call 4 (the dealer, seat 0): '7' must at least equal '8' (seat 1)",
    ),
    (
        "a bidder not the auction's",
        {},
        HandInput(
            bidder=2,
            auction=("8", "pass", "pass", "pass"),
            tricks=(8, 0),
            five_hearts=0,
            three_spades=0,
        ),
        "bidder 2 does not match the auction, won by Cat",
        "bidder 2 does not match the auction, won by seat 1",
    ),
    (
        "a partner sitting out",
        {"kaiser_40": True},
        HandInput(
            bidder=0, kind="kaiser40", seat_tricks=(7, 0, 1, 0), five_hearts=0, three_spades=0
        ),
        "seat_tricks: Bob sits out the kaiser 40 of their partner, so cannot take a trick (got 1)",
        "seat_tricks: seat 2 sits out the kaiser 40 of its partner, so it cannot take a trick "
        "(got 1)",
    ),
    (
        "the wrong dealer",
        {},
        HandInput(dealer=2, bidder=0, bid=8, tricks=(8, 0), five_hearts=0, three_spades=0),
        "dealer should be Ann, seat 0 (got 2)",
        "dealer should be seat 0 (got 2)",
    ),
]


@pytest.mark.parametrize(
    ("overrides", "played", "named", "numbered"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_messages_name_the_players(
    overrides: dict, played: HandInput, named: str, numbered: str
) -> None:
    rules = rules_build(overrides)
    with pytest.raises(HandError) as caught:
        game_score(rules, [played], seat_names=NAMES)
    assert caught.value.message == named
    with pytest.raises(HandError) as caught:
        game_score(rules, [played])
    assert caught.value.message == numbered


def test_game_play_names_them_too() -> None:
    with pytest.raises(HandError, match="went to Cat & Dan, who took no trick"):
        game_play(standing(rules_build(), (0, 0)), FIVE_TO_EMPTY, seat_names=NAMES)


def test_each_for_themself_names_one_player() -> None:
    rules = rules_build({"preset": "three-player"})
    played = HandInput(bidder=0, bid=8, tricks=(8, 0, 0), five_hearts=2, three_spades=0)
    with pytest.raises(HandError, match="the five of hearts went to Bob, who took no trick"):
        game_score(rules, [played], seat_names=["Ann", "Cat", "Bob"])


@pytest.mark.parametrize("names", [["Ann"], NAMES * 2])
def test_one_name_a_seat(names: Any) -> None:
    with pytest.raises(RecordError, match="seats: expected 4 names"):
        game_score(rules_build(), [], seat_names=names)
