"""Lost Heir and its three settings (rulebook: "Points taken in a hand", "Scoring a hand"):
the dealer sells the contract or takes it over, a set scores nothing, a blank card cancels a
special card (recorded as nobody), and four may play each for themself."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import NOBODY, HandError, HandInput, game_play, game_score, record_score

from .helpers import hand, last, rules_of, standing


def lost_heir(before: tuple = (0, 0), dealer: int = 0, **overrides: Any):
    return standing(rules_of("lost-heir", **overrides), before, dealer=dealer)


CASES = [
    # name, dealer, hand, points, delta, made, sold
    (
        "sold, made: the bid to the dealer",
        1,
        hand(0, 3, (5, 3), 0, 1),
        (10, 0),
        (10, 3),
        True,
        True,
    ),
    ("sold, set: bidder nothing", 1, hand(0, 6, (3, 5), 1, 0), (0, 10), (0, 16), False, True),
    ("taken over by the dealer", 1, hand(1, 5, (2, 6), 1, 0), (-1, 11), (-1, 11), True, False),
    ("dealer took it over, set", 1, hand(1, 9, (5, 3), 1, 0), (2, 8), (2, 0), False, False),
    ("partner's bid sold", 2, hand(0, 3, (5, 3), 1, 0), (2, 8), (3, 8), False, True),
    ("partner's made bid sold", 2, hand(0, 3, (5, 3), 0, 1), (10, 0), (13, 0), True, True),
    ("five cancelled", 1, hand(0, 4, (5, 3), NOBODY, 1), (5, 0), (5, 4), True, True),
    ("three cancelled", 1, hand(0, 4, (5, 3), 1, NOBODY), (5, 8), (5, 12), True, True),
    ("both cancelled", 0, hand(0, 8, (8, 0), NOBODY, NOBODY), (8, 0), (8, 0), True, False),
]


@pytest.mark.parametrize(
    ("dealer", "played", "points", "delta", "made", "sold"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_lost_heir_hands(
    dealer: int, played: HandInput, points: tuple, delta: tuple, made: bool, sold: bool
) -> None:
    scored = last(game_play(lost_heir(dealer=dealer), played))
    assert (scored.points, scored.delta, scored.made, scored.sold) == (points, delta, made, sold)
    assert scored.as_result()["sold"] is sold


def test_each_setting_alone() -> None:
    sells = game_play(
        standing(rules_of(dealer_sells=True), (0, 0), dealer=1), hand(0, 7, (6, 2), 0, 1)
    )
    assert last(sells).delta == (11, -1 + 7)
    zero = game_play(standing(rules_of(set_scores_zero=True), (0, 0)), hand(0, 8, (3, 5), 1, 0))
    assert last(zero).delta == (0, 10)
    no_trump_set = game_play(
        standing(rules_of(set_scores_zero=True), (0, 0)), hand(0, 8, (3, 5), 1, 0, "no")
    )
    assert last(no_trump_set).delta == (0, 10)
    blank = game_play(standing(rules_of(blank_cards=True), (0, 0)), hand(0, 7, (6, 2), NOBODY, 1))
    assert last(blank).points == (6, -1)
    assert last(game_play(standing(rules_of(), (0, 0)), hand(0, 7, (6, 2), 0, 1))).sold is None


def test_the_dealer_takes_over_by_equalling_in_the_auction() -> None:
    rules = rules_of("lost-heir")
    # Dealer seat 3: seat 0 bids 3, seat 2 bids 4, the dealer equals it.
    took = HandInput(auction=("3", "pass", "4", "4"), tricks=(3, 5), five_hearts=1, three_spades=0)
    scored = last(game_play(standing(rules, (0, 0), dealer=3), took))
    assert (scored.bidder, scored.sold, scored.delta) == (3, False, (0, 10))
    sold = HandInput(
        auction=("3", "pass", "4", "pass"), tricks=(3, 5), five_hearts=1, three_spades=0
    )
    scored = last(game_play(standing(rules, (0, 0), dealer=3), sold))
    assert (scored.bidder, scored.sold, scored.delta) == (2, True, (0, 14))


def test_everyone_passing_throws_the_hand_in() -> None:
    rules = rules_of("lost-heir")
    with pytest.raises(HandError, match="record the hand as thrown in"):
        game_play(standing(rules, (0, 0)), HandInput(auction=("pass",) * 4))
    thrown = game_play(standing(rules, (0, 0), dealer=2), HandInput(thrown_in=True))
    assert thrown.next_dealer == 2


def test_four_each_for_themself() -> None:
    rules = rules_of("lost-heir", partnership="individual")
    assert (rules.side_count, rules.sides) == (4, ((0,), (1,), (2,), (3,)))
    played = HandInput(bidder=2, bid=3, tricks=(1, 2, 4, 1), five_hearts=2, three_spades=1)
    scored = last(game_play(standing(rules, (0, 0, 0, 0), dealer=1), played))
    assert scored.delta == (1, -1 + 3, 9, 1)


def test_first_to_25_and_the_bidder_wins_a_tie_of_both() -> None:
    rules = rules_of("lost-heir")
    game = game_play(standing(rules, (20, 22), dealer=1), hand(0, 3, (5, 3), 0, 1))
    assert (game.scores, game.winner, game.reason) == ((30, 25), 0, "target")
    game = game_play(standing(rules, (20, 22), dealer=1), hand(0, 11, (5, 3), 0, 1))
    assert (game.scores, game.winner, game.reason) == ((20, 33), 1, "target")


def test_mcloughlins_48_cards() -> None:
    rules = rules_of("lost-heir", tricks_per_hand=12, max_bid=17)
    game = game_score(rules, [hand(0, 14, (12, 0), 0, 0)], first_dealer=0)
    assert last(game).delta == (14, 0)
    assert last(game_score(rules, [hand(1, 17, (0, 12), 1, 1)], first_dealer=0)).delta == (17, 0)


NOBODY_REFUSED = [
    ("standard", {}, "five_hearts"),
    ("lost-heir", {"blank_cards": False}, "three_spades"),
]


@pytest.mark.parametrize(("preset", "overrides", "field"), NOBODY_REFUSED)
def test_nobody_needs_blank_cards(preset: str, overrides: dict, field: str) -> None:
    rules = rules_of(preset, **overrides)
    cards = {"five_hearts": 0, "three_spades": 1, field: NOBODY}
    played = HandInput(bidder=0, bid=rules.min_bid, tricks=(6, 2), **cards)
    with pytest.raises(HandError) as caught:
        game_score(rules, [played])
    assert caught.value.field == field


def test_a_blank_cancelled_card_is_still_written() -> None:
    record = {
        "rules": {"preset": "lost-heir"},
        "seats": ["Ann", "Cat", "Bob", "Dan"],
        "hands": [{"bidder": 1, "bid": 3, "tricks": [2, 6], "three_spades": 0}],
    }
    with pytest.raises(HandError) as caught:
        record_score(record)
    assert caught.value.field == "five_hearts"
    assert "or nobody if a blank card cancelled it" in str(caught.value)
    record["hands"][0]["five_hearts"] = None
    assert record_score(record)["hands"][0]["five_hearts"] is None
