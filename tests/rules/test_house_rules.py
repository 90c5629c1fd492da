"""The house rules of other Kaiser engines, a table of cases per setting: each row is a worked
example of docs/rules.md ("House rules of other engines"), scored by hand there. Every setting's
default scores the hand as the standard game does (the last rows of each table)."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import HandError, RulesError, game_play, record_score

from .helpers import hand, rules_of, standing

# (case, preset, settings, scores before, the hand, scores after, finished, winner)
Case = tuple[str, str, dict[str, Any], tuple[int, int], Any, tuple[int, int], bool, int | None]

BOTH_REACH = hand(0, 7, (5, 3), 0, 0)  # side 0 takes 7 points, side 1 takes 3
LEVEL = hand(1, 7, (3, 5), 1, 1)  # side 1 bids and takes 7, side 0 takes 3

BOTH_CROSS: list[Case] = [
    (
        "bidder wins",
        "kaisergame.com",
        {"both_cross": "bidder"},
        (45, 50),
        BOTH_REACH,
        (52, 53),
        True,
        0,
    ),
    ("higher score wins", "kaisergame.com", {}, (45, 50), BOTH_REACH, (52, 53), True, 1),
    ("drawn", "kaisergame.com", {"both_cross": "tie"}, (45, 50), BOTH_REACH, (52, 53), True, None),
    ("level: the first side", "kaisergame.com", {}, (49, 45), LEVEL, (52, 52), True, 0),
    (
        "level, bidder wins",
        "kaisergame.com",
        {"both_cross": "bidder"},
        (49, 45),
        LEVEL,
        (52, 52),
        True,
        1,
    ),
    (
        "level, drawn",
        "kaisergame.com",
        {"both_cross": "tie"},
        (49, 45),
        LEVEL,
        (52, 52),
        True,
        None,
    ),
    (
        "one side over: it wins",
        "kaisergame.com",
        {"both_cross": "tie"},
        (40, 50),
        BOTH_REACH,
        (47, 53),
        True,
        1,
    ),
    (
        "standard: bidder wins",
        "standard",
        {"bid_out": None},
        (45, 50),
        BOTH_REACH,
        (52, 53),
        True,
        0,
    ),
    (
        "standard, higher",
        "standard",
        {"bid_out": None, "both_cross": "higher"},
        (45, 50),
        BOTH_REACH,
        (52, 53),
        True,
        1,
    ),
]

SIDE_0_LOSES_ONE = hand(1, 8, (2, 6), 1, 0)  # side 1 takes 11, side 0 takes 2 - 3 = -1

BID_OUT_LOSSES: list[Case] = [
    ("a loss counts (default)", "standard", {}, (46, 20), SIDE_0_LOSES_ONE, (45, 31), False, None),
    (
        "a loss ignored",
        "standard",
        {"bid_out_keeps_losses": False},
        (46, 20),
        SIDE_0_LOSES_ONE,
        (46, 31),
        False,
        None,
    ),
    (
        "below the bid-out, it counts",
        "standard",
        {"bid_out_keeps_losses": False},
        (44, 20),
        SIDE_0_LOSES_ONE,
        (43, 31),
        False,
        None,
    ),
]

SHORT = hand(0, 6, (6, 2), 1, 1)  # side 0 takes 6, side 1 takes 2 + 5 - 3 = 4
TO_TARGET = {"bid_out_bidder_to_target": True, "min_bid": 6}

BIDDER_TO_TARGET: list[Case] = [
    ("short of the target: nothing", "standard", TO_TARGET, (45, 20), SHORT, (45, 24), False, None),
    ("without the setting", "standard", {"min_bid": 6}, (45, 20), SHORT, (51, 24), False, None),
    (
        "a set still loses",
        "standard",
        TO_TARGET,
        (45, 20),
        hand(0, 8, (6, 2), 1, 1),
        (37, 24),
        False,
        None,
    ),
    ("to the target: gains and wins", "standard", TO_TARGET, (46, 20), SHORT, (52, 24), True, 0),
    ("below the bid-out: gains", "standard", TO_TARGET, (40, 20), SHORT, (46, 24), False, None),
]

DEFENDER_SET = hand(0, 7, (3, 5), 1, 0)  # side 0 takes 0, set; side 1 takes 10

DEFENDER: list[Case] = [
    ("past the target: nothing", "dcm454", {}, (20, 48), DEFENDER_SET, (13, 48), False, None),
    ("to the target exactly: all", "dcm454", {}, (20, 42), DEFENDER_SET, (13, 52), False, None),
    (
        "without the rule",
        "dcm454",
        {"defender_all_or_nothing": False},
        (20, 48),
        DEFENDER_SET,
        (13, 58),
        False,
        None,
    ),
    # A made no trump raises the target to 64 first: 48 + 2 = 50 is not past it.
    (
        "the raised target",
        "dcm454",
        {},
        (20, 48),
        hand(0, 7, (6, 2), 0, 0, "no"),
        (36, 50),
        False,
        None,
    ),
]

NT_HAND = hand(0, 7, (5, 3), 0, 1, "no")  # side 0 takes 10 in no trump: + 20
TRUMP_8 = hand(0, 8, (5, 3), 0, 1)  # side 0 takes 10 in trumps: + 10

NT_TARGET_FOR: list[Case] = [
    (
        "no-trump hand short of 62",
        "standard",
        {"nt_target_for": "hand"},
        (40, 20),
        NT_HAND,
        (60, 20),
        False,
        None,
    ),
    (
        "no-trump hand to 62",
        "standard",
        {"nt_target_for": "hand"},
        (48, 20),
        NT_HAND,
        (68, 20),
        True,
        0,
    ),
    (
        "no-trump hand 52 to 61 does not win",
        "standard",
        {"nt_target_for": "hand"},
        (33, 20),
        NT_HAND,
        (53, 20),
        False,
        None,
    ),
    (
        "trump hand after a no-trump one",
        "standard",
        {"nt_target_for": "hand"},
        (44, 20),
        TRUMP_8,
        (54, 20),
        True,
        0,
    ),
]

SPECIAL: list[Case] = [
    (
        "13 no set",
        "kaisergame.com",
        {},
        (10, 10),
        hand(0, 13, (8, 0), 0, 0, "no"),
        (-42, 10),
        False,
        None,
    ),
    (
        "13 no made",
        "kaisergame.com",
        {"heart_bonus": 6},
        (10, 10),
        hand(0, 13, (7, 1), 0, 1, "no"),
        (62, 8),
        True,
        0,
    ),
    (
        "14 no set",
        "kaisergame.com",
        {},
        (0, 0),
        hand(0, 14, (6, 2), 0, 1, "no"),
        (-1000, -1),
        False,
        None,
    ),
]

ALL = {
    "both_cross": BOTH_CROSS,
    "bid_out_keeps_losses": BID_OUT_LOSSES,
    "bid_out_bidder_to_target": BIDDER_TO_TARGET,
    "defender_all_or_nothing": DEFENDER,
    "nt_target_for": NT_TARGET_FOR,
    "special_bids": SPECIAL,
}
ROWS = [(f"{name}: {case[0]}", *case[1:]) for name, cases in ALL.items() for case in cases]


@pytest.mark.parametrize(
    ("preset", "settings", "before", "played", "after", "finished", "winner"),
    [row[1:] for row in ROWS],
    ids=[row[0] for row in ROWS],
)
def test_house_rule(
    preset: str,
    settings: dict[str, Any],
    before: tuple[int, int],
    played: Any,
    after: tuple[int, int],
    finished: bool,
    winner: int | None,
) -> None:
    game = game_play(standing(rules_of(preset, **settings), before), played)
    assert game.scores == after
    assert game.finished is finished
    assert game.winner == winner
    if finished:
        assert game.reason == "target"


@pytest.mark.parametrize(
    ("nt_target_for", "target", "finished"), [("game", 62, False), ("hand", 52, True)]
)
def test_a_trump_hand_after_a_no_trump_one(nt_target_for: str, target: int, finished: bool) -> None:
    rules = rules_of("standard", nt_target_for=nt_target_for)
    game = game_play(standing(rules, (30, 20)), NT_HAND)  # made in no trump: 50
    assert (game.scores, game.target) == ((50, 20), target)
    game = game_play(game, hand(0, 8, (5, 3), 0, 1))  # made in trumps: 60
    assert (game.scores, game.finished) == ((60, 20), finished)


@pytest.mark.parametrize(
    ("settings", "call", "field", "message"),
    [
        ({}, "13 no", "bid", "bid must be between 7 and 12 (got 13)"),
        ({"bid_13_no": 52}, "14 no", "bid", "bid must be between 7 and 12 (got 14)"),
        ({"bid_13_no": 52}, "13", "bid", "bid must be between 7 and 12 (got 13)"),
    ],
)
def test_special_bids_only_where_played(
    settings: dict[str, Any], call: str, field: str, message: str
) -> None:
    number, *kind = call.split()
    played = hand(0, int(number), (8, 0), 0, 0, kind[0] if kind else "trump")
    with pytest.raises(HandError) as caught:
        game_play(standing(rules_of("standard", **settings), (0, 0)), played)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_special_bids_in_an_auction() -> None:
    rules = rules_of("kaisergame.com")
    played = hand(None, None, (8, 0), 0, 0, "no", auction=("12 no", "13 no", "pass", "14 no"))
    game = game_play(standing(rules, (0, 0), dealer=3), played)
    assert (game.hands[-1].bidder, game.hands[-1].bid, game.scores) == (3, 14, (10, -1000))


# no_trump_named after (dcm454): (case, preset, calls from seat 0 with seat 3 dealing, the kind
# played, the bidder, the kind scored, the scores after, from 0-0).
NAMED_AFTER = [
    (
        "a plain bid played in no trump",
        "dcm454",
        ("8", "pass", "pass", "pass"),
        "no",
        0,
        "no",
        (16, 2),
    ),
    (
        "a plain bid played in trumps",
        "dcm454",
        ("8", "pass", "pass", "pass"),
        "trump",
        0,
        "trump",
        (8, 2),
    ),
    (
        "a non-dealer equals in no trump",
        "dcm454",
        ("8", "8 no", "pass", "pass"),
        "no",
        1,
        "no",
        (8, -16),
    ),
    ("and another after it", "dcm454", ("8", "8 no", "8 no", "pass"), "no", 2, "no", (16, 2)),
    (
        "the dealer takes a no-trump call",
        "dcm454",
        ("8 no", "pass", "pass", "8"),
        "no",
        3,
        "no",
        (8, -16),
    ),
    (
        "the dealer takes it, kind as called",
        "dcm454",
        ("8 no", "pass", "pass", "8"),
        "trump",
        3,
        "no",
        (8, -16),
    ),
]


@pytest.mark.parametrize(
    ("preset", "calls", "kind", "bidder", "scored", "after"),
    [case[1:] for case in NAMED_AFTER],
    ids=[case[0] for case in NAMED_AFTER],
)
def test_no_trump_named_after_the_auction(
    preset: str,
    calls: tuple[str, ...],
    kind: str,
    bidder: int,
    scored: str,
    after: tuple[int, int],
) -> None:
    # Side 0 takes 6 tricks, the five and the three (8 points), side 1 2 tricks (2 points).
    played = hand(None, None, (6, 2), 0, 0, kind, auction=calls)
    game = game_play(standing(rules_of(preset), (0, 0), dealer=3), played)
    scored_hand = game.hands[-1]
    assert (scored_hand.bidder, scored_hand.kind, game.scores) == (bidder, scored, after)


@pytest.mark.parametrize(
    ("preset", "calls", "kind", "field", "message"),
    [
        (
            "dcm454",
            ("8", "8", "pass", "pass"),
            "trump",
            "auction",
            "auction call 2 (seat 1): '8' must be higher than '8' (seat 0)",
        ),
        (
            "standard",
            ("8", "pass", "pass", "pass"),
            "no",
            "kind",
            "kind no does not match the auction, won by '8'",
        ),
    ],
)
def test_no_trump_named_refusals(
    preset: str, calls: tuple[str, ...], kind: str, field: str, message: str
) -> None:
    played = hand(None, None, (6, 2), 0, 0, kind, auction=calls)
    with pytest.raises(HandError) as caught:
        game_play(standing(rules_of(preset), (0, 0), dealer=3), played)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_no_trump_named_after_needs_no_low_or_kaiser_bids() -> None:
    with pytest.raises(RulesError) as caught:
        rules_of("dcm454", low_no_trump=True)
    assert caught.value.setting == "no_trump_named"


@pytest.mark.parametrize(
    ("preset", "message"),
    [("dcm454", None), ("standard", "hand 1: kind no does not match the auction, won by '8'")],
)
def test_a_record_names_no_trump_after_its_auction(preset: str, message: str | None) -> None:
    played = {
        "auction": ["8", "pass", "pass", "pass"],
        "kind": "no",
        "tricks": [2, 6],
        "five_hearts": 1,
        "three_spades": 0,
    }
    record = {"rules": {"preset": preset}, "seats": ["A", "B", "C", "D"], "hands": [played]}
    if message is None:
        result = record_score(record)
        assert result["hands"][0]["kind"] == "no"
        assert result["scores"] == [-1, 22]
    else:
        with pytest.raises(HandError) as caught:
            record_score(record)
        assert str(caught.value) == message
