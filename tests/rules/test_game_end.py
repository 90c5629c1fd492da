"""The end of the game: the six steps in order, "best" and its tie-break, kaiser bids, and that
nothing follows the end (rulebook: "Targets and the end of the game", "Special bids"); and the
deal passing to the left."""

from __future__ import annotations

import pytest

from scorecards.rules import HandError, HandInput, RecordError, game_play, game_score

from .helpers import hand, last, play, rules_of, standing


def kaiser(bidder: int, seat_tricks: tuple, five: int, three: int) -> HandInput:
    return HandInput(
        bidder=bidder, kind="kaiser", seat_tricks=seat_tricks, five_hearts=five, three_spades=three
    )


def end(
    played: HandInput,
    before: tuple,
    preset: str = "standard",
    **overrides: object,
) -> object:
    game = game_play(standing(rules_of(preset, **overrides), before), played)
    return (game.winner, game.reason) if game.finished else None


def step(
    name: str,
    played: HandInput,
    before: tuple,
    outcome: tuple | None,
    preset: str = "standard",
    **overrides: object,
) -> object:
    return pytest.param(played, before, preset, overrides, outcome, id=name)


STEPS = [
    # 1. A kaiser wins or loses the game, whatever the scores; its delta is zero.
    step("kaiser made wins", kaiser(1, (1, 7, 0, 0), 1, 0), (50, -30), (1, "kaiser"), "yarotsky"),
    step("kaiser set loses", kaiser(1, (1, 3, 1, 3), 1, 0), (0, 51), (0, "kaiser"), "yarotsky"),
    step("solo: partner tricks", kaiser(1, (1, 4, 0, 3), 1, 0), (0, 0), (0, "kaiser"), "yarotsky"),
    step("solo: no five", kaiser(1, (1, 7, 0, 0), 0, 0), (0, 0), (0, "kaiser"), "yarotsky"),
    step("solo: no three", kaiser(1, (0, 8, 0, 0), 1, 1), (0, 0), (0, "kaiser"), "yarotsky"),
    # The solo kaiser as the rulebook words it: the bidder alone takes 12 points, the partner no
    # trick, and the three of spades ends with an opponent, whatever the deal or the bonuses.
    step(
        "solo, 16 tricks: the three kept",
        kaiser(1, (0, 16), 1, 1),
        (0, 0),
        (0, "kaiser"),
        "yarotsky",
        seats=2,
    ),
    step(
        "solo, 16 tricks: made",
        kaiser(1, (2, 14), 1, 0),
        (0, 0),
        (1, "kaiser"),
        "yarotsky",
        seats=2,
    ),
    step(
        "solo, 16 tricks: 12 without the five",
        kaiser(0, (12, 4), 1, 1),
        (0, 0),
        (0, "kaiser"),
        "yarotsky",
        seats=2,
    ),
    step(
        "solo, +6 heart: 6 tricks and the five",
        kaiser(1, (2, 6, 0, 0), 1, 0),
        (0, 0),
        (1, "kaiser"),
        "yarotsky",
        heart_bonus=6,
    ),
    step(
        "solo, +6 heart: the three kept",
        kaiser(1, (0, 8, 0, 0), 1, 1),
        (0, 0),
        (0, "kaiser"),
        "yarotsky",
        heart_bonus=6,
    ),
    step(
        "solo, six seats: both partners empty",
        kaiser(1, (1, 7, 0, 0, 0, 0), 1, 0),
        (0, 0, 0),
        (1, "kaiser"),
        "yarotsky",
        seats=6,
    ),
    step(
        "solo, six seats: a partner's trick",
        kaiser(1, (1, 6, 0, 0, 1, 0), 1, 0),
        (0, 0, 0),
        (2, "kaiser"),
        "yarotsky",
        seats=6,
    ),
    step(
        "team kaiser made",
        kaiser(3, (0, 4, 1, 3), 1, 0),
        (0, 0),
        (1, "kaiser"),
        "bid-out-47",
        kaiser_bid="team",
    ),
    step(
        "team kaiser set",
        kaiser(3, (2, 3, 0, 3), 1, 0),
        (0, 0),
        (0, "kaiser"),
        "bid-out-47",
        kaiser_bid="team",
    ),
    # 2. bid_out_heart_wins: a non-bidding side at the bid-out before the hand takes the five.
    step("heart wins", hand(0, 7, (6, 2), 1, 0), (0, 45), (1, "heart"), bid_out_heart_wins=True),
    step(
        "heart before target",
        hand(0, 7, (7, 1), 1, 1),
        (50, 45),
        (1, "heart"),
        bid_out_heart_wins=True,
    ),
    step("heart under bid-out", hand(0, 7, (6, 2), 1, 0), (0, 44), None, bid_out_heart_wins=True),
    step(
        "heart to bidder", hand(1, 7, (2, 6), 1, 0), (0, 45), (1, "target"), bid_out_heart_wins=True
    ),
    step("heart off", hand(0, 7, (6, 2), 1, 0), (0, 45), None),
    step(
        "heart, no bid-out",
        hand(0, 7, (6, 2), 1, 0),
        (0, 45),
        None,
        "cap-49",
        bid_out_heart_wins=True,
    ),
    # 3. The bidding side made its bid and reached the target.
    step("bidder reaches target", hand(0, 7, (6, 2), 0, 1), (41, 0), (0, "target")),
    step("bidder one short", hand(0, 7, (6, 2), 0, 1), (40, 0), None),
    step("set bidder over target", hand(0, 9, (6, 2), 1, 0), (60, 0), None),
    step(
        "both pass target", hand(0, 7, (6, 2), 0, 0), (45, 50), (0, "target"), "pagat", bid_out=None
    ),
    # 4. The bidding side fell to lose_at.
    step("bidder to lose_at", hand(0, 9, (6, 2), 1, 0), (-43, 0), (1, "minus")),
    step("bidder above lose_at", hand(0, 9, (6, 2), 1, 0), (-42, 0), None),
    step("no lose_at", hand(0, 9, (6, 2), 1, 0), (-60, 0), None, "pagat"),
    step("custom lose_at", hand(0, 9, (6, 2), 1, 0), (-20, 0), (1, "minus"), "pagat", lose_at=-25),
    # 5. Without win_requires_bid, a non-bidding side at the target wins.
    step(
        "non-bidder wins", hand(0, 9, (6, 2), 1, 0), (0, 45), (1, "target"), "pagat", bid_out=None
    ),
    step("bid required", hand(0, 9, (6, 2), 1, 0), (0, 45), None, bid_out=None),
    step("bid required, at 60", hand(0, 9, (6, 2), 1, 0), (0, 60), None, bid_out=None),
    # 6. A non-bidding side fell to lose_at: the best of the rest wins.
    step("non-bidder to lose_at", hand(0, 7, (7, 1), 0, 1), (0, -50), (0, "minus")),
    step("set bidder wins by it", hand(0, 12, (6, 2), 0, 1), (0, -51), (0, "minus")),
]


@pytest.mark.parametrize(("played", "before", "preset", "overrides", "outcome"), STEPS)
def test_end_steps(
    played: HandInput, before: tuple, preset: str, overrides: dict, outcome: tuple | None
) -> None:
    assert end(played, before, preset, **overrides) == outcome


def test_kaiser_changes_no_score() -> None:
    rules = rules_of("yarotsky")
    game = game_play(standing(rules, (30, 20)), kaiser(1, (1, 7, 0, 0), 1, 0))
    scored = last(game)
    assert (scored.bid, scored.kind, scored.made) == (12, "kaiser", True)
    assert scored.delta == (0, 0)
    assert game.scores == (30, 20)
    assert scored.points == (-2, 12)
    assert game.next_dealer is None


# "Best" is the highest score; on a tie the first side clockwise from the bidding side itself.
def three(
    name: str, played: HandInput, before: tuple, outcome: tuple, **overrides: object
) -> object:
    return pytest.param(played, before, overrides, outcome, id=name)


THREE_SIDES = [
    # Step 5 with sides 0 and 2 both reaching 52.
    three(
        "step 5, bidder 1: side 2 first", hand(1, 9, (3, 2, 3), 1, 1), (49, 0, 49), (2, "target")
    ),
    three(
        "step 5, bidder 2: side 0 first", hand(2, 9, (3, 3, 2), 2, 2), (49, 49, 0), (0, "target")
    ),
    three("step 5, best wins", hand(1, 9, (4, 2, 2), 1, 1), (49, 0, 50), (0, "target")),
    # Step 4: the bidder falls; the others tie.
    three(
        "step 4, bidder 0: side 1 first",
        hand(0, 12, (6, 1, 1), 1, 2),
        (-45, 10, 18),
        (1, "minus"),
        lose_at=-52,
    ),
    three(
        "step 4, bidder 1: side 2 first",
        hand(1, 12, (1, 6, 1), 0, 0),
        (10, -45, 12),
        (2, "minus"),
        lose_at=-52,
    ),
    # Step 6: a non-bidder falls; a bidding side tied with the other wins.
    three(
        "step 6, tied bidder wins",
        hand(1, 9, (1, 6, 1), 1, 2),
        (12, 2, -50),
        (1, "minus"),
        lose_at=-52,
    ),
    three(
        "step 6, best of the rest",
        hand(1, 9, (1, 6, 1), 1, 2),
        (20, 2, -50),
        (0, "minus"),
        lose_at=-52,
    ),
]


@pytest.mark.parametrize(("played", "before", "overrides", "outcome"), THREE_SIDES)
def test_three_sides(played: HandInput, before: tuple, overrides: dict, outcome: tuple) -> None:
    # No bid-out, so that the scores are simply before + points.
    assert end(played, before, "three-player", bid_out=None, **overrides) == outcome


def test_kaiser_set_with_three_sides_goes_to_the_best_other() -> None:
    # Six seats in pairs: sides 0+3, 1+4, 2+5. Seat 4 bids kaiser (side 1) and is set.
    rules = rules_of(seats=6, kaiser_bid="team")
    set_hand = HandInput(bidder=4, kind="kaiser", tricks=(2, 5, 1), five_hearts=1, three_spades=1)
    tied = game_play(standing(rules, (10, 30, 10)), set_hand)
    assert (tied.winner, tied.reason) == (2, "kaiser")  # clockwise from side 1: side 2 first
    ahead = game_play(standing(rules, (11, 30, 10)), set_hand)
    assert ahead.winner == 0


def test_win_requires_bid_wins_on_the_next_made_bid() -> None:
    # Standard: a side may sit above the target until it makes a bid.
    rules = rules_of(bid_out=None)
    game = play(standing(rules, (0, 50)), hand(0, 9, (6, 2), 1, 0))
    assert (game.scores, game.finished) == ((-9, 57), False)
    game = game_play(game, hand(1, 7, (2, 6), 1, 0))
    assert (game.winner, game.reason) == (1, "target")


# Nothing after the end.
def test_no_hand_after_the_game_is_over() -> None:
    rules = rules_of()
    game = game_play(standing(rules, (50, 0)), hand(0, 7, (6, 2), 0, 1))
    assert game.finished and game.next_dealer is None
    for after in (hand(1, 7, (2, 6), 1, 0), HandInput(thrown_in=True)):
        with pytest.raises(HandError) as caught:
            game_play(game, after)
        assert str(caught.value) == "hand 2: the game is already over"
        assert caught.value.number == 2


def test_game_score_refuses_hands_after_the_end() -> None:
    rules = rules_of("hetu")
    hands = [hand(0, 5, (8, 0), 0, 0) for _ in range(5)]  # 11 a hand: 44 after four
    with pytest.raises(HandError, match=r"^hand 5: the game is already over$"):
        game_score(rules, hands)
    assert game_score(rules, hands[:4]).finished


# The deal.
def test_deal_passes_left_and_stays_after_a_throw_in() -> None:
    rules = rules_of(seats=5)
    hands = [
        hand(0, 7, (4, 1, 1, 1, 1), 0, 1),
        HandInput(thrown_in=True),
        HandInput(thrown_in=True, dealer=4),
        hand(1, 7, (1, 4, 1, 1, 1), 1, 0, dealer=4),
        hand(1, 7, (1, 4, 1, 1, 1), 1, 0),
    ]
    game = game_score(rules, hands, first_dealer=3)
    assert [h.dealer for h in game.hands] == [3, 4, 4, 4, 0]
    assert game.next_dealer == 1


def test_wrong_dealer_is_named() -> None:
    rules = rules_of()
    hands = [hand(0, 7, (6, 2), 0, 1), hand(1, 7, (2, 6), 1, 0, dealer=1)]
    with pytest.raises(HandError) as caught:
        game_score(rules, hands, first_dealer=1)
    assert str(caught.value) == "hand 2: dealer should be seat 2 (got 1)"
    assert caught.value.field == "dealer"


def test_thrown_in_hand() -> None:
    rules = rules_of()
    game = game_score(rules, [hand(0, 7, (6, 2), 0, 1), HandInput(thrown_in=True)], 2)
    thrown = last(game)
    assert thrown.as_result() == {
        "number": 2,
        "dealer": 3,
        "thrown_in": True,
        "made": None,
        "delta": [0, 0],
        "scores": [11, -1],
        "target": 52,
    }
    assert game.next_dealer == 3


@pytest.mark.parametrize("first_dealer", [-1, 4, True, "0", None])
def test_first_dealer_must_be_a_seat(first_dealer: object) -> None:
    with pytest.raises(RecordError, match=r"^first_dealer: must be a seat from 0 to 3"):
        game_score(rules_of(), [], first_dealer)  # type: ignore[arg-type]


def test_empty_game() -> None:
    game = game_score(rules_of("three-player"), [], first_dealer=2)
    assert (game.scores, game.target, game.bid_out) == ((0, 0, 0), 52, 45)
    assert (game.finished, game.winner, game.reason, game.next_dealer) == (False, None, None, 2)
