"""Properties of whole games, over random valid rules and hands (Hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecards.rules import (
    GameRecord,
    HandInput,
    Rules,
    game_score,
    record_score,
    rules_build,
)

from .strategies import game_strategy, hand_strategy, played, rules_strategy

# Modest, so that the whole file runs in a few seconds.
ENOUGH = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
Game = tuple[Rules, int, list[HandInput]]


@ENOUGH
@given(game_strategy())
def test_valid_games_never_raise(game: Game) -> None:
    rules, first, hands = game
    kept, incremental = played(rules, first, hands)
    whole = game_score(rules, kept, first)
    assert whole == incremental  # hand by hand or all at once: the same game
    if len(kept) < len(hands):
        assert whole.finished


@ENOUGH
@given(game_strategy())
def test_scores_are_the_sum_of_the_deltas(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    totals = [0] * rules.side_count
    for hand in score.hands:
        totals = [total + change for total, change in zip(totals, hand.delta, strict=True)]
        assert list(hand.scores) == totals
    assert list(score.scores) == totals


STANDARD_POINTS = st.sampled_from(
    ["standard", "pagat", "yarotsky", "bid-out-47", "saskatchewan", "cap-49"]
).map(lambda preset: rules_build({"preset": preset}))


@ENOUGH
@given(game_strategy(STANDARD_POINTS))
def test_standard_points_add_up_to_ten(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    for hand in score.hands:
        if not hand.thrown_in:
            assert hand.points is not None and sum(hand.points) == 10


@ENOUGH
@given(game_strategy())
def test_a_thrown_in_hand_changes_nothing_and_keeps_the_dealer(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    before = (0,) * rules.side_count
    target = rules.target
    for index, hand in enumerate(score.hands):
        if hand.thrown_in:
            assert hand.delta == (0,) * rules.side_count
            assert (hand.scores, hand.target, hand.made, hand.bidder) == (
                before,
                target,
                None,
                None,
            )
            following = score.hands[index + 1] if index + 1 < len(score.hands) else None
            if following is not None:
                assert following.dealer == hand.dealer
            else:
                assert score.next_dealer == hand.dealer
        before, target = hand.scores, hand.target


@ENOUGH
@given(game_strategy())
def test_the_deal_passes_left(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    dealer = first
    for hand in score.hands:
        assert hand.dealer == dealer
        if not hand.thrown_in:
            dealer = (dealer + 1) % rules.seats
    assert score.next_dealer == (None if score.finished else dealer)


@ENOUGH
@given(game_strategy())
def test_the_target_is_raised_at_most_once(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    targets = [rules.target] + [hand.target for hand in score.hands]
    raises = [hand for hand in score.hands if hand.target_raised]
    assert len(raises) <= 1
    assert len(set(targets)) == 1 + len(raises)
    for hand in raises:
        assert hand.made and hand.kind in ("no", "low") and hand.target == rules.nt_target
    assert targets == sorted(targets)


@ENOUGH
@given(game_strategy(), st.data())
def test_scoring_a_prefix_gives_the_prefix(game: Game, data: st.DataObject) -> None:
    rules, first, hands = game
    kept, score = played(rules, first, hands)
    cut = data.draw(st.integers(0, len(kept)))
    prefix = game_score(rules, kept[:cut], first)
    assert prefix.hands == score.hands[:cut]
    if cut:
        assert prefix.scores == score.hands[cut - 1].scores
        assert prefix.target == score.hands[cut - 1].target


@ENOUGH
@given(game_strategy())
def test_the_end_of_the_game_is_consistent(game: Game) -> None:
    rules, first, hands = game
    _, score = played(rules, first, hands)
    assert score.finished == (score.winner is not None) == (score.reason is not None)
    assert (score.next_dealer is None) == score.finished
    if score.reason == "target":
        assert score.scores[score.winner] >= score.target
    if score.reason == "kaiser":
        assert score.hands[-1].kind == "kaiser"
    if score.reason == "minus":
        assert rules.lose_at is not None and min(score.scores) <= rules.lose_at
    if score.reason == "heart":
        assert rules.bid_out_heart_wins and score.hands[-1].five_hearts == score.winner
    for hand in score.hands:
        if hand.kind == "kaiser":
            assert hand.delta == (0,) * rules.side_count
            assert hand is score.hands[-1]


@ENOUGH
@given(game_strategy())
def test_limits_on_non_bidders(game: Game) -> None:
    """At the bid-out a non-bidder gains nothing; under a cap it gains no further than it. A
    sold contract's bid comes to the dealer's side on top of those limits."""
    rules, first, hands = game
    _, score = played(rules, first, hands)
    before = (0,) * rules.side_count
    for hand in score.hands:
        for side in range(rules.side_count):
            if hand.thrown_in or side == hand.side:
                continue
            sale = hand.bid if hand.sold and side == rules.side_of(hand.dealer) else 0
            if hand.bid_out is not None and before[side] >= hand.bid_out:
                assert hand.delta[side] - sale <= 0
            if rules.nonbidder_cap is not None and hand.delta[side] - sale > 0:
                assert hand.scores[side] - sale <= rules.nonbidder_cap
        before = hand.scores


@ENOUGH
@given(rules_strategy())
def test_rules_as_dict_round_trip(rules: Rules) -> None:
    data = rules.as_dict()
    assert rules_build(data) == rules
    assert json.loads(json.dumps(data)) == data


@ENOUGH
@given(st.data())
def test_hand_input_round_trip(data: st.DataObject) -> None:
    rules = data.draw(rules_strategy())
    hand = data.draw(hand_strategy(rules, data.draw(st.integers(0, rules.seats - 1))))
    raw = json.loads(json.dumps(hand.to_dict()))
    assert HandInput.from_dict(raw, 1) == hand


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_strategy())
def test_records_round_trip(game: Game) -> None:
    rules, first, hands = game
    kept, score = played(rules, first, hands)
    names = tuple(f"Player {seat}" for seat in range(rules.seats))
    record = GameRecord(rules=rules, seats=names, first_dealer=first, hands=tuple(kept))
    text = json.dumps(record.to_dict())
    assert record_score(json.loads(text)) == score.as_result(names)
