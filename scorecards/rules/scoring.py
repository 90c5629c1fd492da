"""Scoring: each hand, checked against the rules and the game so far (`auction`, `counts`,
`validation`), is scored, and the game is played hand by hand to its end.

docs/rules.md: "Scoring a hand", "Winning and losing" and "Special bids". Everything here is
pure: data in, data out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorecards.rules.auction import _contract
from scorecards.rules.calls import (
    INSULT_POINTS,
    KAISER_40_POINTS,
    KAISER_POINTS,
    NO_TRUMP_KINDS,
    _is_int,
)
from scorecards.rules.counts import _cards, _tricks
from scorecards.rules.errors import HandError, RecordError, shown
from scorecards.rules.habits import HAND_HABITS, hand_habit_error
from scorecards.rules.hands import GameScore, HandInput, HandScore
from scorecards.rules.i18n import _
from scorecards.rules.presets import Rules
from scorecards.rules.validation import (
    Names,
    _Contract,
    _seat_error,
    _thrown_in_error,
)


def _points(
    rules: Rules, tricks: tuple[int, ...], five: int | None, three: int | None
) -> tuple[int, ...]:
    """What each side took: a point a trick, the heart bonus, the spade penalty; `cover_three`
    pins a side that took the three of spades with fewer than 3 tricks to the penalty alone."""
    points = list(tricks)
    if five is not None:
        points[five] += rules.heart_bonus
    if three is not None:
        points[three] += rules.spade_penalty
        if rules.cover_three and tricks[three] < 3:
            points[three] = rules.spade_penalty
    return tuple(points)


def _nonbidder_delta(rules: Rules, taken: int, before: int, bid_out: int | None) -> int:
    """A non-bidding side's score for the hand: its points, except that a gain counts 0 once it
    is at the bid-out (in force when the hand began), and stops at `nonbidder_cap`."""
    if taken <= 0:
        return taken
    if bid_out is not None and before >= bid_out:
        return 0
    if rules.nonbidder_cap is not None:
        return min(taken, max(0, rules.nonbidder_cap - before))
    return taken


def _contract_result(
    rules: Rules,
    contract: _Contract,
    taken: int,
    seat_tricks: tuple[int, ...] | None,
    five: int | None,
    three: int | None,
) -> tuple[bool, int]:
    """Whether the bidding side made its contract, taking `taken` points, and what that adds to
    its score (nothing for a kaiser, which decides the game instead)."""
    if contract.kind == "kaiser":
        if rules.kaiser_bid != "solo":
            return taken >= KAISER_POINTS, 0
        # Solo: the bidder alone takes 12 points, the partner no trick, and the three of spades
        # ends with an opponent (a three cancelled by a blank card is not known to).
        assert seat_tricks is not None
        side = rules.side_of(contract.bidder)
        if any(seat_tricks[s] for s in rules.partners(contract.bidder)):
            return False, 0
        if three is None or three == side:
            return False, 0
        alone = seat_tricks[contract.bidder] + (rules.heart_bonus if five == side else 0)
        return alone >= KAISER_POINTS, 0
    if contract.kind == "kaiser40":
        assert seat_tricks is not None
        made = seat_tricks[contract.bidder] == rules.tricks_per_hand
        return made, KAISER_40_POINTS if made else -KAISER_40_POINTS
    made = taken >= contract.bid
    times = 2 if contract.kind in NO_TRUMP_KINDS else 1
    counted = taken if rules.overtricks else contract.bid
    if made:
        return True, times * counted
    return False, 0 if rules.set_scores_zero else -times * contract.bid


@dataclass
class _Table:
    """A game between two hands."""

    scores: list[int]
    target: int
    bid_out: int | None
    dealer: int
    names: Names = None
    finished: bool = False
    winner: int | None = None
    reason: str | None = None


def _best(sides: Sequence[int], scores: Sequence[int]) -> int:
    """The side with the highest score; `sides` come in clockwise order from the bidding side,
    and `max` keeps the first of equals, which is the rulebook's tie-break."""
    return max(sides, key=lambda side: scores[side])


def _game_end(
    rules: Rules,
    table: _Table,
    contract: _Contract,
    made: bool,
    before: Sequence[int],
    bid_out: int | None,
    five: int | None,
) -> tuple[int, str] | None:
    """The winner and reason if this hand ends the game (rulebook: the six steps, in order)."""
    after = table.scores
    bidding = rules.side_of(contract.bidder)
    clockwise = [(bidding + k) % rules.side_count for k in range(rules.side_count)]
    others = clockwise[1:]
    # 1. A kaiser wins or loses the game outright.
    if contract.kind == "kaiser":
        return (bidding if made else _best(others, after)), "kaiser"
    # 2. A non-bidding side already at the bid-out takes the five of hearts.
    if (
        rules.bid_out_heart_wins
        and bid_out is not None
        and five is not None
        and five != bidding
        and before[five] >= bid_out
    ):
        return five, "heart"
    # 3. The bidding side made its bid and reached the target (it wins ties with the others).
    if made and after[bidding] >= table.target:
        return bidding, "target"
    lose_at = rules.lose_at
    # 4. The bidding side fell to lose_at.
    if lose_at is not None and after[bidding] <= lose_at:
        return _best(others, after), "minus"
    # 5. A non-bidding side reached the target, where a side may win without bidding.
    if not rules.win_requires_bid:
        over = [side for side in others if after[side] >= table.target]
        if over:
            return _best(over, after), "target"
    # 6. A non-bidding side fell to lose_at: the best of the rest wins.
    if lose_at is not None:
        lost = {side for side in others if after[side] <= lose_at}
        if lost:
            return _best([side for side in clockwise if side not in lost], after), "minus"
    return None


def _play(rules: Rules, table: _Table, hand: HandInput, number: int) -> HandScore:
    """Validate and score hand `number` on `table`, which it moves on to after the hand."""
    if table.finished:
        raise HandError(number, "hand", _("the game is already over"))
    dealer = table.dealer
    if hand.dealer is not None:
        error = _seat_error(number, "dealer", hand.dealer, rules)
        if error is not None:
            raise error
        if hand.dealer != dealer:
            values: dict[str, object] = {"dealer": dealer, "value": hand.dealer}
            if table.names is not None:
                values["player"] = table.names[dealer]
                message = _("dealer should be %(player)s, seat %(dealer)s (got %(value)s)")
            else:
                message = _("dealer should be seat %(dealer)s (got %(value)s)")
            raise HandError(number, "dealer", message % values)
    if not isinstance(hand.thrown_in, bool):
        raise HandError(number, "thrown_in", _thrown_in_error(hand.thrown_in))
    if hand.misdeal or hand.passing or hand.kitty or hand.announced:
        for name in HAND_HABITS:
            value = getattr(hand, name)
            if value is not None:
                problem = hand_habit_error(name, value, hand.thrown_in)
                if problem is not None:
                    raise HandError(number, name, problem)
    before = tuple(table.scores)
    bid_out = table.bid_out  # the one in force when the hand began, whatever this hand does
    if hand.thrown_in:
        # Redealt by the same dealer; nothing scores.
        return HandScore(
            number=number,
            dealer=dealer,
            thrown_in=True,
            delta=(0,) * rules.side_count,
            scores=before,
            target=table.target,
            bid_out=bid_out,
        )

    names = table.names
    contract = _contract(rules, hand, number, dealer, names)
    tricks, seat_tricks = _tricks(rules, hand, number, contract, names)
    five, three, insult = _cards(rules, hand, number, contract, tricks, names)
    points = _points(rules, tricks, five, three)
    bidding = rules.side_of(contract.bidder)
    made, bidder_delta = _contract_result(
        rules, contract, points[bidding], seat_tricks, five, three
    )
    delta = [0] * rules.side_count
    if contract.kind != "kaiser":  # a kaiser wins or loses the game and leaves the scores be
        for side in range(rules.side_count):
            delta[side] = (
                bidder_delta
                if side == bidding
                else _nonbidder_delta(rules, points[side], before[side], bid_out)
            )
        if insult is not None:
            delta[insult] -= INSULT_POINTS  # on top of everything, whatever the bid or limits
    sold = None
    if rules.dealer_sells:
        # The dealer accepted another seat's bid: the dealer's side scores the bid on top of
        # everything, made or set. A dealer who took the contract over is the bidder.
        sold = contract.bidder != dealer
        if sold:
            delta[rules.side_of(dealer)] += contract.bid

    raised = (
        made
        and contract.kind in NO_TRUMP_KINDS
        and rules.nt_target is not None
        and table.target != rules.nt_target  # not raised yet (nt_target is above target)
    )
    if raised:
        # The raised target counts already for this hand; the raised bid-out from the next.
        assert rules.nt_target is not None
        table.target = rules.nt_target
        table.bid_out = rules.nt_bid_out
    table.scores = [score + change for score, change in zip(before, delta, strict=True)]
    end = _game_end(rules, table, contract, made, before, bid_out, five)
    if end is None:
        table.dealer = (dealer + 1) % rules.seats
    else:
        table.finished = True
        table.winner, table.reason = end
    return HandScore(
        number=number,
        dealer=dealer,
        thrown_in=False,
        delta=tuple(delta),
        scores=tuple(table.scores),
        target=table.target,
        bid_out=bid_out,
        bidder=contract.bidder,
        side=bidding,
        bid=contract.bid,
        kind=contract.kind,
        tricks=tricks,
        seat_tricks=seat_tricks,
        points=points,
        made=made,
        five_hearts=five,
        three_spades=three,
        insult=insult,
        target_raised=raised,
        sold=sold,
    )


def first_dealer_check(rules: Rules, first_dealer: Any) -> None:
    if not _is_int(first_dealer) or not 0 <= first_dealer < rules.seats:
        raise RecordError(
            "first_dealer",
            _("must be a seat from 0 to %(last)s (got %(value)s)")
            % {"last": rules.seats - 1, "value": shown(first_dealer)},
        )


def _game(rules: Rules, table: _Table, hands: tuple[HandScore, ...]) -> GameScore:
    return GameScore(
        rules=rules,
        hands=hands,
        scores=tuple(table.scores),
        target=table.target,
        bid_out=table.bid_out,
        finished=table.finished,
        winner=table.winner,
        reason=table.reason,
        next_dealer=None if table.finished else table.dealer,
    )


def _names(rules: Rules, seat_names: Sequence[str] | None) -> Names:
    if seat_names is None:
        return None
    names = tuple(str(name) for name in seat_names)
    if len(names) != rules.seats:
        raise RecordError(
            "seats",
            _("expected %(seats)s names (got %(count)s)")
            % {"seats": rules.seats, "count": len(names)},
        )
    return names


def game_score(
    rules: Rules,
    hands: Sequence[HandInput],
    first_dealer: int = 0,
    *,
    seat_names: Sequence[str] | None = None,
) -> GameScore:
    """Score `hands` in order, the first dealt by `first_dealer`.

    Each hand is validated against the rules and the game so far (dealer rotation, auction,
    tricks adding up, special cards only to a side that took a trick, seat tricks where a kaiser
    needs them, nothing after the game is over, ...); the first bad hand raises HandError.
    Pure and deterministic: scoring a prefix of the hands gives the prefix of the result.
    With `seat_names` (one per seat), messages name players ("Ann & Bob") instead of side and
    seat numbers.
    """
    first_dealer_check(rules, first_dealer)
    table = _Table(
        scores=[0] * rules.side_count,
        target=rules.target,
        bid_out=rules.bid_out,
        dealer=first_dealer,
        names=_names(rules, seat_names),
    )
    scored = tuple(_play(rules, table, hand, number) for number, hand in enumerate(hands, 1))
    return _game(rules, table, scored)


def game_play(
    game: GameScore, hand: HandInput, *, seat_names: Sequence[str] | None = None
) -> GameScore:
    """`game` with one more hand scored: the same as re-scoring all its hands plus `hand`,
    without doing so. Raises HandError for a hand the game cannot take, naming players when
    `seat_names` are given (as `game_score`)."""
    rules = game.rules
    table = _Table(
        scores=list(game.scores),
        target=game.target,
        bid_out=game.bid_out,
        dealer=game.next_dealer if game.next_dealer is not None else 0,
        names=_names(rules, seat_names),
        finished=game.finished,
        winner=game.winner,
        reason=game.reason,
    )
    scored = _play(rules, table, hand, len(game.hands) + 1)
    return _game(rules, table, (*game.hands, scored))
