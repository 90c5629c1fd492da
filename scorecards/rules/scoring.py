"""Scoring: each hand, checked against the rules and the game so far (`auction`, `counts`,
`validation`; the common hand first by `quick`, in one pass), is scored, and the game is played
hand by hand to its end.

docs/rules.md: "Scoring a hand", "Winning and losing" and "Special bids". Everything here is
pure: data in, data out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from typing import Any

from scorecards.rules.auction import _contract
from scorecards.rules.calls import (
    INSULT_POINTS,
    MAX_HANDS,
    NO_TRUMP_KINDS,
    _is_int,
)
from scorecards.rules.counts import _cards, _tricks
from scorecards.rules.ending import _game_end, _kaiser_result, _special_score
from scorecards.rules.errors import HandError, RecordError, shown
from scorecards.rules.habits import HAND_HABITS, hand_habit_error
from scorecards.rules.hands import GameScore, HandInput, HandScore, _HandScoreDraft
from scorecards.rules.i18n import _
from scorecards.rules.presets import Rules
from scorecards.rules.quick import Checked, _quick
from scorecards.rules.validation import (
    Names,
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


@dataclass(slots=True)
class _Table:
    """A game between two hands."""

    scores: tuple[int, ...]
    target: int
    bid_out: int | None
    dealer: int
    names: Names = None
    finished: bool = False
    winner: int | None = None
    reason: str | None = None


def _checked(rules: Rules, table: _Table, hand: HandInput, number: int) -> Checked | None:
    """Hand `number` checked against the rules and `table` (the general path, for any hand:
    `quick._quick` accepts the common ones sooner); None for a hand thrown in. Raises the
    HandError of the first thing wrong with it."""
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
    if hand.thrown_in:
        return None
    names = table.names
    contract = _contract(rules, hand, number, dealer, names)
    tricks, seat_tricks = _tricks(rules, hand, number, contract, names)
    five, three, insult = _cards(rules, hand, number, contract, tricks, names)
    return contract.bidder, contract.kind, contract.bid, tricks, seat_tricks, five, three, insult


def _hands_limit() -> str:
    return _("a game holds at most %(limit)s hands") % {"limit": MAX_HANDS}


def _play(rules: Rules, table: _Table, hand: HandInput, number: int) -> HandScore:
    """Validate and score hand `number` on `table`, which it moves on to after the hand."""
    if table.finished:
        raise HandError(number, "hand", _("the game is already over"))
    if number > MAX_HANDS:
        raise HandError(number, "number", _hands_limit())
    # Most hands pass the quick checks; any other goes through the general ones, which accept
    # the same hands and say what is wrong with the others.
    checked = _quick(rules, hand, table.dealer)
    if checked is None:
        checked = _checked(rules, table, hand, number)
        if checked is None:
            # Thrown in: redealt by the same dealer; nothing scores.
            return HandScore(
                number=number,
                dealer=table.dealer,
                thrown_in=True,
                delta=(0,) * rules.side_count,
                scores=table.scores,
                target=table.target,
                bid_out=table.bid_out,
            )
    return _scored(rules, table, number, checked)


def _scored(rules: Rules, table: _Table, number: int, checked: Checked) -> HandScore:
    """Hand `number`, `checked`, scored on `table`, which it moves on to after the hand."""
    bidder, kind, bid, tricks, seat_tricks, five, three, insult = checked
    dealer = table.dealer
    before = table.scores
    bid_out = table.bid_out  # the one in force when the hand began, whatever this hand does
    points = _points(rules, tricks, five, three)
    side_count = rules.side_count
    bidding = bidder % side_count
    taken = points[bidding]
    if kind == "kaiser" or kind == "kaiser40":
        made, bidder_delta = _kaiser_result(rules, bidder, kind, taken, seat_tricks, five, three)
    else:
        # Made when the bidding side took its bid: it scores what it took (or its bid, without
        # overtricks), else loses its bid (or scores nothing, `set_scores_zero`); no-trump
        # bids (no, low) count double.
        times = 2 if kind in NO_TRUMP_KINDS else 1
        made = taken >= bid
        special = _special_score(rules, bid) if bid > rules.max_bid else None
        if special is not None:
            # 13 no or 14 no (kaiser-lib): a fixed score either way, not doubled.
            bidder_delta = special if made else -special
        elif made:
            bidder_delta = times * (taken if rules.overtricks else bid)
        else:
            bidder_delta = 0 if rules.set_scores_zero else -times * bid
    nt_target = rules.nt_target
    raised = (
        made
        and nt_target is not None
        and kind in NO_TRUMP_KINDS
        and rules.nt_target_for == "game"
        and table.target != nt_target  # not raised yet (nt_target is above target)
    )
    if raised:
        # The raised target counts already for this hand; the raised bid-out from the next.
        assert nt_target is not None
        table.target = nt_target
        table.bid_out = rules.nt_bid_out
    # The target this hand's end is checked against: with `nt_target_for` hand, a no-trump hand
    # is played to nt_target and the game's own target does not move.
    target = table.target
    if nt_target is not None and rules.nt_target_for == "hand" and kind in NO_TRUMP_KINDS:
        target = nt_target
    delta = [0] * side_count
    if kind != "kaiser":  # a kaiser wins or loses the game and leaves the scores be
        cap = rules.nonbidder_cap
        for side in range(side_count):
            took = points[side]
            at_bid_out = bid_out is not None and before[side] >= bid_out
            if side == bidding:
                # `bid_out_bidder_to_target`: at the bid-out, a made bid gains only when it
                # takes the side to the target.
                if (
                    rules.bid_out_bidder_to_target
                    and at_bid_out
                    and bidder_delta > 0
                    and before[side] + bidder_delta < target
                ):
                    delta[side] = 0
                else:
                    delta[side] = bidder_delta
            # A non-bidding side scores its points, except that a gain counts 0 once it is at
            # the bid-out (in force when the hand began; a loss too without
            # `bid_out_keeps_losses`), and stops at `nonbidder_cap`.
            elif at_bid_out and (took > 0 or not rules.bid_out_keeps_losses):
                delta[side] = 0
            elif took <= 0:
                delta[side] = took
            elif cap is not None:
                delta[side] = min(took, max(0, cap - before[side]))
            else:
                delta[side] = took
            # `defender_all_or_nothing` (dcm454): a gain that would take a side that did not bid
            # past the target counts nothing.
            if (
                side != bidding
                and rules.defender_all_or_nothing
                and delta[side] > 0
                and before[side] + delta[side] > target
            ):
                delta[side] = 0
        if insult is not None:
            delta[insult] -= INSULT_POINTS  # on top of everything, whatever the bid or limits
    sold = None
    if rules.dealer_sells:
        # The dealer accepted another seat's bid: the dealer's side scores the bid on top of
        # everything, made or set. A dealer who took the contract over is the bidder.
        sold = bidder != dealer
        if sold:
            delta[dealer % side_count] += bid

    after = table.scores = tuple(map(add, before, delta))
    lose_at = rules.lose_at
    # Each step of `_game_end` needs a kaiser, the heart rule, or a side at the target or at
    # lose_at: most hands have none, and end nothing.
    end = (
        _game_end(rules, after, target, kind, bidding, made, before, bid_out, five)
        if kind == "kaiser"
        or rules.bid_out_heart_wins
        or max(after) >= target
        or (lose_at is not None and min(after) <= lose_at)
        else None
    )
    if end is None:
        table.dealer = (dealer + 1) % rules.seats
    else:
        table.finished = True
        table.winner, table.reason = end
    score = _HandScoreDraft()
    score.number = number
    score.dealer = dealer
    score.thrown_in = False
    score.delta = tuple(delta)
    score.scores = after
    score.target = table.target
    score.bid_out = bid_out
    score.bidder = bidder
    score.side = bidding
    score.bid = bid
    score.kind = kind
    score.tricks = tricks
    score.seat_tricks = seat_tricks
    score.points = points
    score.made = made
    score.five_hearts = five
    score.three_spades = three
    score.insult = insult
    score.target_raised = raised
    score.sold = sold
    return score.done()


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
        scores=table.scores,
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
        scores=(0,) * rules.side_count,
        target=rules.target,
        bid_out=rules.bid_out,
        dealer=first_dealer,
        names=_names(rules, seat_names),
    )
    scored = tuple([_play(rules, table, hand, number) for number, hand in enumerate(hands, 1)])
    return _game(rules, table, scored)


def game_play(
    game: GameScore, hand: HandInput, *, seat_names: Sequence[str] | None = None
) -> GameScore:
    """`game` with one more hand scored: the same as re-scoring all its hands plus `hand`,
    without doing so. Raises HandError for a hand the game cannot take, naming players when
    `seat_names` are given (as `game_score`)."""
    rules = game.rules
    table = _Table(
        scores=tuple(game.scores),
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


def points_leader(scores: Sequence[int]) -> int | None:
    """The side strictly ahead on points, or None when the leaders are level: how a game cut
    short (a tournament round that closed before the engine ended the game) is won or drawn."""
    top = max(scores)
    leaders = [side for side, total in enumerate(scores) if total == top]
    return leaders[0] if len(leaders) == 1 else None
