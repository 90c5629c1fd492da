"""Points taken and the score of a hand (rulebook: "Points taken in a hand", "Scoring a hand",
the target raise of "Targets and the end of the game", and the kaiser 40 of "Special bids")."""

from __future__ import annotations

from typing import Any

import pytest

from scorecards.rules import NOBODY, HandError, HandInput, game_play, game_score

from .helpers import hand, last, play, rules_of, standing


def case(
    name: str,
    played: HandInput,
    points: tuple,
    delta: tuple,
    made: bool,
    *,
    preset: str = "standard",
    before: tuple = (0, 0),
    **overrides: object,
) -> object:
    return pytest.param(preset, overrides, before, played, points, delta, made, id=name)


NO = "no"
SCORING = [
    # Points: a point a trick, +5 for the five of hearts, -3 for the three of spades.
    case("trump made keeps overtricks", hand(0, 7, (6, 2), 0, 1), (11, -1), (11, -1), True),
    case("trump made exactly", hand(2, 10, (8, 0), 0, 0), (10, 0), (10, 0), True),
    case("trump set loses the bid", hand(0, 9, (6, 2), 1, 0), (3, 7), (-9, 7), False),
    case("one short is set", hand(1, 8, (1, 7), 0, 0), (3, 7), (3, -8), False),
    case("no made doubles the points", hand(0, 7, (6, 2), 0, 1, NO), (11, -1), (22, -1), True),
    case("no set doubles the bid", hand(1, 9, (5, 3), 1, 0, NO), (2, 8), (2, -18), False),
    case(
        "low made doubles",
        hand(0, 7, (7, 1), 0, 0, "low"),
        (9, 1),
        (18, 1),
        True,
        preset="saskatchewan",
    ),
    case(
        "low set doubles",
        hand(3, 7, (3, 5), 0, 1, "low"),
        (8, 2),
        (8, -14),
        False,
        preset="saskatchewan",
    ),
    # overtricks off: a made bid scores only the bid.
    case("no overtricks", hand(0, 7, (7, 1), 0, 1), (12, -2), (7, -2), True, overtricks=False),
    case(
        "no overtricks, no", hand(0, 8, (8, 0), 0, 0, NO), (10, 0), (16, 0), True, overtricks=False
    ),
    case("no overtricks, set", hand(0, 9, (6, 2), 1, 0), (3, 7), (-9, 7), False, overtricks=False),
    # Non-bidders score what they took, negative too.
    case("non-bidder goes negative", hand(0, 7, (7, 1), 0, 1), (12, -2), (12, -2), True),
    # Bid-out at 45, from the score before the hand.
    case("bid-out: 45 gains 0", hand(0, 7, (6, 2), 0, 0), (8, 2), (8, 0), True, before=(10, 45)),
    case("bid-out: 44 gains", hand(0, 7, (6, 2), 0, 0), (8, 2), (8, 2), True, before=(10, 44)),
    case("bid-out: 50 gains 0", hand(0, 7, (5, 3), 0, 0), (7, 3), (7, 0), True, before=(10, 50)),
    case(
        "bid-out: loss counts", hand(0, 7, (7, 1), 0, 1), (12, -2), (12, -2), True, before=(0, 45)
    ),
    case(
        "bid-out: not the bidder", hand(0, 7, (8, 0), 0, 0), (10, 0), (10, 0), True, before=(48, 0)
    ),
    case(
        "bid-out 47",
        hand(0, 7, (6, 2), 0, 0),
        (8, 2),
        (8, 2),
        True,
        preset="bid-out-47",
        before=(10, 46),
    ),
    case(
        "bid-out null",
        hand(0, 7, (6, 2), 0, 0),
        (8, 2),
        (8, 2),
        True,
        before=(10, 50),
        bid_out=None,
    ),
    # nonbidder_cap 49: a non-bidder's gain stops at 49.
    case(
        "cap: stops at 49",
        hand(1, 7, (5, 3), 0, 0),
        (7, 3),
        (4, -7),
        False,
        preset="cap-49",
        before=(45, 0),
    ),
    case(
        "cap: 49 gains 0",
        hand(1, 7, (5, 3), 0, 0),
        (7, 3),
        (0, -7),
        False,
        preset="cap-49",
        before=(49, 0),
    ),
    case(
        "cap: 51 gains 0",
        hand(1, 7, (5, 3), 0, 0),
        (7, 3),
        (0, -7),
        False,
        preset="cap-49",
        before=(51, 0),
    ),
    case(
        "cap: loss counts",
        hand(1, 7, (1, 7), 1, 0),
        (-2, 12),
        (-2, 12),
        True,
        preset="cap-49",
        before=(49, 0),
    ),
    case(
        "cap: not the bidder",
        hand(0, 7, (8, 0), 0, 0),
        (10, 0),
        (10, 0),
        True,
        preset="cap-49",
        before=(45, 0),
    ),
    case(
        "cap under the bid-out",
        hand(1, 7, (5, 3), 0, 0),
        (7, 3),
        (0, -7),
        False,
        before=(46, 0),
        nonbidder_cap=49,
    ),
    case(
        "cap above the bid-out",
        hand(1, 7, (5, 3), 0, 0),
        (7, 3),
        (5, -7),
        False,
        before=(44, 0),
        nonbidder_cap=49,
    ),
    # Joffre's insult: -5 to the side that played the five, on top of everything.
    case(
        "insult: set bidder",
        hand(0, 8, (4, 4), 0, 0, insult=0),
        (6, 4),
        (-13, 4),
        False,
        preset="joffre",
    ),
    case(
        "insult: made bidder",
        hand(1, 9, (1, 7), 1, 1, insult=1),
        (1, 9),
        (1, 4),
        True,
        preset="joffre",
    ),
    case(
        "insult: non-bidder",
        hand(0, 6, (4, 4), 0, 0, insult=1),
        (6, 4),
        (6, -1),
        True,
        preset="joffre",
    ),
    case(
        "insult under the bid-out",
        hand(0, 7, (6, 2), 0, 0, insult=1),
        (8, 2),
        (8, -5),
        True,
        before=(0, 45),
        joffre_insult=True,
    ),
    case(
        "insult under the cap",
        hand(0, 7, (6, 2), 1, 1, insult=1),
        (6, 4),
        (-7, -5),
        False,
        preset="cap-49",
        before=(0, 49),
        joffre_insult=True,
    ),
    # cover_three: fewer than 3 tricks with the three of spades take exactly -3.
    case("cover: 2 tricks", hand(0, 7, (6, 2), 0, 1), (11, -3), (11, -3), True, cover_three=True),
    case(
        "cover: heart void", hand(0, 11, (6, 2), 1, 1), (6, -3), (-11, -3), False, cover_three=True
    ),
    case("cover: 3 tricks", hand(0, 7, (5, 3), 0, 1), (10, 0), (10, 0), True, cover_three=True),
    case("cover: the bidder", hand(0, 7, (2, 6), 0, 0), (-3, 6), (-7, 6), False, cover_three=True),
    # Other card values.
    case("hetu heart is 6", hand(0, 5, (2, 6), 0, 1), (8, 3), (8, 3), True, preset="hetu"),
    case("spade penalty -5", hand(0, 7, (6, 2), 0, 1), (11, -3), (11, -3), True, spade_penalty=-5),
    # Two, three and six seats.
    case(
        "two players", hand(1, 5, (6, 10), 1, 0), (3, 15), (3, 15), True, preset="les-rois", seats=2
    ),
    case(
        "three players",
        hand(2, 8, (1, 1, 6), 2, 0),
        (-2, 1, 11),
        (-2, 1, 11),
        True,
        preset="three-player",
        before=(0, 0, 0),
    ),
    case(
        "six seats in pairs",
        hand(4, 8, (2, 5, 1), 1, 2),
        (2, 10, -2),
        (2, 10, -2),
        True,
        before=(0, 0, 0),
        seats=6,
    ),
]


@pytest.mark.parametrize(
    ("preset", "overrides", "before", "played", "points", "delta", "made"), SCORING
)
def test_hand_scoring(
    preset: str,
    overrides: dict,
    before: tuple,
    played: HandInput,
    points: tuple,
    delta: tuple,
    made: bool,
) -> None:
    rules = rules_of(preset, **overrides)
    scored = last(game_play(standing(rules, before), played))
    assert scored.points == points
    assert scored.delta == delta
    assert scored.made is made
    assert scored.scores == tuple(b + d for b, d in zip(before, delta, strict=True))
    assert scored.side == rules.side_of(played.bidder)


def test_standard_points_add_up_to_ten() -> None:
    rules = rules_of()
    for tricks, five, three in [((8, 0), 0, 0), ((4, 4), 1, 0), ((1, 7), 0, 1)]:
        scored = last(game_play(standing(rules, (0, 0)), hand(0, 7, tricks, five, three)))
        assert sum(scored.points) == 10


# The target raise on the first made no or low bid.
def test_rulebook_raise_example() -> None:
    """At 40, a made 7 no taking 8 scores 16, making 56: the target is now 62, the game goes on."""
    game = game_play(standing(rules_of(), (40, 0)), hand(0, 7, (6, 2), 0, 0, "no"))
    scored = last(game)
    assert scored.delta == (16, 2)
    assert (scored.target, scored.target_raised) == (62, True)
    assert (game.target, game.bid_out, game.finished) == (62, 55, False)


def test_raised_target_counts_for_the_raising_hand() -> None:
    # 50 + 16 = 66 is past 62 (won), 40 + 22 = 62 reaches it (won); 44 + 16 = 60 does not.
    rules = rules_of()
    won = game_play(standing(rules, (50, 0)), hand(0, 7, (6, 2), 0, 0, "no"))
    assert (won.finished, won.winner, won.reason, won.target) == (True, 0, "target", 62)
    exact = game_play(standing(rules, (40, 0)), hand(0, 7, (6, 2), 0, 1, "no"))
    assert (exact.scores, exact.finished, exact.winner) == ((62, -1), True, 0)
    short = game_play(standing(rules, (44, 0)), hand(0, 7, (6, 2), 0, 0, "no"))
    assert (short.scores, short.finished) == ((60, 2), False)


def test_bid_out_of_the_raising_hand_is_the_old_one() -> None:
    # Side 1 stands at 50: at the bid-out of 45 when the hand began, though the raise lifts the
    # bid-out to 55 for the hands after.
    rules = rules_of()
    game = game_play(standing(rules, (10, 50)), hand(0, 7, (6, 2), 0, 0, "no"))
    assert last(game).delta == (16, 0)
    assert last(game).bid_out == 45
    assert game.bid_out == 55
    after = game_play(game, hand(2, 7, (6, 2), 0, 0))
    assert last(after).delta == (8, 2)  # 50 is under the raised bid-out of 55


def test_target_raised_once_only() -> None:
    rules = rules_of(nt_target=70, nt_bid_out=50)
    game = play(
        standing(rules, (0, 0)),
        hand(0, 7, (6, 2), 0, 0, "no"),
        hand(1, 7, (2, 6), 1, 1, "no"),
        hand(2, 7, (6, 2), 0, 0, "no"),
    )
    assert [h.target for h in game.hands] == [70, 70, 70]
    assert [h.target_raised for h in game.hands] == [True, False, False]
    assert game.bid_out == 50


RAISES = [
    ("trump does not raise", "standard", {}, hand(0, 7, (6, 2), 0, 0), 52),
    ("set no does not raise", "standard", {}, hand(0, 9, (6, 2), 1, 0, "no"), 52),
    ("made no raises", "standard", {}, hand(0, 7, (6, 2), 0, 0, "no"), 62),
    ("made low raises", "saskatchewan", {}, hand(0, 7, (6, 2), 0, 0, "low"), 62),
    ("non-bidder never raises", "standard", {}, hand(1, 12, (6, 2), 0, 0, "no"), 52),
    ("no nt_target", "pagat", {}, hand(0, 7, (6, 2), 0, 0, "no"), 52),
    (
        "no raise without overtricks either",
        "standard",
        {"overtricks": False},
        hand(0, 7, (6, 2), 0, 0, "no"),
        62,
    ),
]


@pytest.mark.parametrize(
    ("preset", "overrides", "played", "target"),
    [case[1:] for case in RAISES],
    ids=[case[0] for case in RAISES],
)
def test_raise(preset: str, overrides: dict, played: HandInput, target: int) -> None:
    rules = rules_of(preset, **overrides)
    game = game_play(standing(rules, (0, 0)), played)
    assert game.target == last(game).target == target


def test_raised_bid_out_follows_nt_bid_out() -> None:
    rules = rules_of("yarotsky")
    game = game_play(standing(rules, (0, 0)), hand(0, 7, (6, 2), 0, 0, "no"))
    assert (game.target, game.bid_out) == (62, 56)


# Kaiser 40: the bidder alone takes every trick, +40 or -40, counted like any score.
def k40(seat_tricks: tuple, five: Any, three: Any, bidder: int = 0) -> HandInput:
    return HandInput(
        bidder=bidder,
        kind="kaiser40",
        seat_tricks=seat_tricks,
        five_hearts=five,
        three_spades=three,
    )


KAISER_40 = [
    ("made", (0, 0), k40((8, 0, 0, 0), 0, 0), (10, 0), (40, 0), True),
    ("made, five unplayed", (0, 0), k40((8, 0, 0, 0), NOBODY, 0), (5, 0), (40, 0), True),
    ("made, both cards unplayed", (0, 0), k40((8, 0, 0, 0), NOBODY, NOBODY), (8, 0), (40, 0), True),
    ("set", (0, 0), k40((7, 1, 0, 0), 0, 1), (12, -2), (-40, -2), False),
    ("set, opponents score", (0, 0), k40((4, 3, 0, 1), 1, 0), (1, 9), (-40, 9), False),
    ("set, opponents at the bid-out", (0, 45), k40((4, 3, 0, 1), 1, 0), (1, 9), (-40, 0), False),
    ("bidder seat 3", (0, 0), k40((0, 0, 0, 8), NOBODY, 1, bidder=3), (0, 5), (0, 40), True),
]


@pytest.mark.parametrize(
    ("before", "played", "points", "delta", "made"),
    [case[1:] for case in KAISER_40],
    ids=[case[0] for case in KAISER_40],
)
def test_kaiser_40(
    before: tuple, played: HandInput, points: tuple, delta: tuple, made: bool
) -> None:
    rules = rules_of(kaiser_40=True)
    scored = last(game_play(standing(rules, before), played))
    assert (scored.points, scored.delta, scored.made) == (points, delta, made)
    assert (scored.bid, scored.kind) == (40, "kaiser40")
    assert scored.as_result()["bid"] == 40


@pytest.mark.parametrize(
    ("five", "three", "field"),
    [(None, None, "five_hearts"), (0, None, "three_spades"), (None, NOBODY, "five_hearts")],
)
def test_a_kaiser_40_card_not_told_is_asked_for(five: Any, three: Any, field: str) -> None:
    """Neither card tapped is not "both in the partner's hand": the sheet must ask."""
    rules = rules_of(kaiser_40=True)
    with pytest.raises(HandError) as caught:
        game_play(standing(rules, (0, 0)), k40((8, 0, 0, 0), five, three))
    assert caught.value.field == field
    assert "or nobody if it stayed in the partner's hand" in str(caught.value)


@pytest.mark.parametrize(
    ("rules", "played", "field"),
    [
        (rules_of(), hand(0, 8, (6, 2), NOBODY, 1), "five_hearts"),
        (rules_of(kaiser_40=True), hand(0, 8, (6, 2), 0, NOBODY), "three_spades"),
        # Alone at the table, no partner holds a card back.
        (
            rules_of("three-player", kaiser_40=True),
            HandInput(
                bidder=0, kind="kaiser40", seat_tricks=(8, 0, 0), five_hearts=NOBODY, three_spades=0
            ),
            "five_hearts",
        ),
    ],
    ids=["trump bid", "trump bid where kaiser 40 is played", "kaiser 40 without a partner"],
)
def test_nobody_only_where_a_card_can_stay_out(rules: Any, played: HandInput, field: str) -> None:
    with pytest.raises(HandError) as caught:
        game_score(rules, [played])
    assert caught.value.field == field
    assert "cannot be nobody" in str(caught.value)


def test_kaiser_40_can_win_and_lose_the_game() -> None:
    rules = rules_of(kaiser_40=True)
    won = game_play(standing(rules, (20, 0)), k40((8, 0, 0, 0), 0, 0))
    assert (won.scores, won.winner, won.reason) == ((60, 0), 0, "target")
    lost = game_play(standing(rules, (-20, 0)), k40((6, 2, 0, 0), 0, 0))
    assert (lost.scores, lost.winner, lost.reason) == ((-60, 2), 1, "minus")


def test_kaiser_40_alone_in_three_player() -> None:
    rules = rules_of("three-player", kaiser_40=True)
    game = game_play(
        standing(rules, (0, 0, 0)),
        HandInput(bidder=1, kind="kaiser40", seat_tricks=(0, 8, 0), five_hearts=1, three_spades=1),
    )
    assert last(game).delta == (0, 40, 0)


def test_bid_given_on_a_kaiser_is_ignored() -> None:
    rules = rules_of(kaiser_40=True)
    played = HandInput(
        bidder=0, bid=3, kind="kaiser40", seat_tricks=(8, 0, 0, 0), five_hearts=0, three_spades=0
    )
    assert last(game_play(standing(rules, (0, 0)), played)).bid == 40


def test_scores_are_the_sum_of_deltas() -> None:
    rules = rules_of()
    hands = [
        hand(0, 7, (6, 2), 0, 1),
        hand(1, 8, (3, 5), 1, 0),
        HandInput(thrown_in=True),
        hand(2, 9, (2, 6), 1, 1),
    ]
    game = game_score(rules, hands)
    totals = [0, 0]
    for scored in game.hands:
        totals = [t + d for t, d in zip(totals, scored.delta, strict=True)]
        assert list(scored.scores) == totals
    assert list(game.scores) == totals
