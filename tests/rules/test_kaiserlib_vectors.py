"""kaiser-lib's own test vectors (its src/Game/Game.test.ts with its mocks' deal), as our record
writes them, under the `kaisergame.com` preset: the hand its unit test plays scores what its test
expects, and the opening calls its test lists as valid are taken, the others refused. The
worked hand is in docs/rules.md ("Side by side with the peers");
bench/peers/kaiserlib_vectors.py replays the same vectors on the peer itself."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import HandError, record_score

SEATS = ["Ryan", "Cody", "Stacey", "Paul"]  # the test's players, Ryan dealing
CONFIG = {"preset": "kaisergame.com", "min_bid": 7, "target": 52}  # its MOCK_GAME_CONFIG

# (case, auction from the dealer's left, tricks per side, five of hearts, three of spades,
#  made, points, scores after): the hand its test plays, bids as its test makes them, and what
# the card play of its deal gives (side 0: seven tricks and both special cards), as the peer
# replay finds it.
HANDS: list[tuple[str, list[str], list[int], int, int, bool, list[int], list[int]]] = [
    (
        "4 player Game playthrough",
        ["7", "7 no", "8", "8"],  # the dealer takes the 8 by equalling it
        [7, 1],
        0,
        0,
        True,
        [9, 1],  # its MOCK_ROUND_SUMMARY teamPoints
        [9, 1],  # its MOCK_TEAM_SCORES
    ),
]


@pytest.mark.parametrize(
    ("auction", "tricks", "five", "three", "made", "points", "scores"),
    [case[1:] for case in HANDS],
    ids=[case[0] for case in HANDS],
)
def test_its_played_hand_scores_as_its_test_expects(
    auction: list[str],
    tricks: list[int],
    five: int,
    three: int,
    made: bool,
    points: list[int],
    scores: list[int],
) -> None:
    played = {"auction": auction, "tricks": tricks, "five_hearts": five, "three_spades": three}
    result = record_score({"rules": CONFIG, "seats": SEATS, "hands": [played]})
    hand = result["hands"][0]
    assert (hand["bidder"], hand["kind"], hand["bid"]) == (0, "trump", 8)
    assert (hand["made"], hand["points"], hand["scores"]) == (made, points, scores)
    assert not result["finished"]


# Its MOCK_VALID_BIDS: every call the first seat may make.
VALID_OPENINGS = ["pass", *(f"{n}{kind}" for n in range(7, 13) for kind in ("", " no"))]
VALID_OPENINGS += ["13 no", "14 no"]


def _opening(call: str) -> dict[str, Any]:
    calls = [call, "pass", "pass", "pass"] if call != "pass" else ["pass", "pass", "pass", "7"]
    played = {"auction": calls, "tricks": [4, 4], "five_hearts": 0, "three_spades": 1}
    return {"rules": CONFIG, "seats": SEATS, "hands": [played]}


@pytest.mark.parametrize("call", VALID_OPENINGS)
def test_its_valid_opening_calls_are_taken(call: str) -> None:
    record_score(_opening(call))


@pytest.mark.parametrize(
    ("case", "calls"),
    [
        ("a bid of 5 (its setPlayerBid refuses BidAmount.Five)", ["5", "pass", "pass", "pass"]),
        ("12 low: no low bids", ["12 low", "pass", "pass", "pass"]),
        ("15 no: above 14 no", ["15 no", "pass", "pass", "pass"]),
        ("13 in trumps: 13 is a no-trump bid", ["13", "pass", "pass", "pass"]),
        ("a fifth call, after the dealer's", ["7", "7 no", "8", "8", "10 no"]),
    ],
)
def test_the_calls_its_test_refuses_are_refused_naming_the_auction(
    case: str, calls: list[str]
) -> None:
    played = {"auction": calls, "tricks": [4, 4], "five_hearts": 0, "three_spades": 1}
    with pytest.raises(HandError) as caught:
        record_score({"rules": CONFIG, "seats": SEATS, "hands": [played]})
    assert caught.value.field == "auction"
    assert str(caught.value).startswith("hand 1: auction")
