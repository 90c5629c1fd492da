"""What a played hand decides beyond its points: whether a kaiser or a kaiser 40 was made, what a
special bid (13 no, 14 no) scores, and whether the hand ends the game, and for whom.

docs/rules.md: "Winning and losing", "Special bids", "House rules of other engines". Pure: data
in, data out."""

from __future__ import annotations

from collections.abc import Sequence

from scorecards.rules.calls import KAISER_40_POINTS, KAISER_POINTS
from scorecards.rules.presets import Rules


def _kaiser_result(
    rules: Rules,
    bidder: int,
    kind: str,
    taken: int,
    seat_tricks: tuple[int, ...] | None,
    five: int | None,
    three: int | None,
) -> tuple[bool, int]:
    """Whether the bidding side made its kaiser or kaiser 40, taking `taken` points, and what
    that adds to its score (nothing for a kaiser, which decides the game instead)."""
    if kind == "kaiser":
        if rules.kaiser_bid != "solo":
            return taken >= KAISER_POINTS, 0
        # Solo: the bidder alone takes 12 points, the partner no trick, and the three of spades
        # ends with an opponent (a three cancelled by a blank card is not known to).
        assert seat_tricks is not None
        side = rules.side_of(bidder)
        if any(seat_tricks[s] for s in rules.partners(bidder)):
            return False, 0
        if three is None or three == side:
            return False, 0
        alone = seat_tricks[bidder] + (rules.heart_bonus if five == side else 0)
        return alone >= KAISER_POINTS, 0
    assert seat_tricks is not None  # a kaiser 40
    made = seat_tricks[bidder] == rules.tricks_per_hand
    return made, KAISER_40_POINTS if made else -KAISER_40_POINTS


def _special_score(rules: Rules, bid: int) -> int | None:
    """What a made (or, negated, a set) 13 no or 14 no scores under these rules."""
    if bid == 13:
        return rules.bid_13_no
    if bid == 14:
        return rules.bid_14_no
    return None


def _best(sides: Sequence[int], scores: Sequence[int]) -> int:
    """The side with the highest score; `sides` come in clockwise order from the bidding side,
    and `max` keeps the first of equals, which is the rulebook's tie-break."""
    return max(sides, key=lambda side: scores[side])


def _crossed(rules: Rules, over: list[int], after: tuple[int, ...]) -> int | None:
    """Who wins when the sides `over` (in side order) all reached the target on one hand, under
    `both_cross` higher (the highest score; level, the first side by number, as kaiser-lib) or
    tie (nobody: the game is drawn)."""
    if rules.both_cross == "tie":
        return None
    return _best(over, after)


def _game_end(
    rules: Rules,
    after: tuple[int, ...],
    target: int,
    kind: str,
    bidding: int,
    made: bool,
    before: tuple[int, ...],
    bid_out: int | None,
    five: int | None,
) -> tuple[int | None, str] | None:
    """The winner and reason if this hand, which left the scores at `after` and the target at
    `target`, ends the game (rulebook: the six steps, in order). The winner is None for a game
    drawn at the target (`both_cross` tie)."""
    clockwise = [(bidding + k) % rules.side_count for k in range(rules.side_count)]
    others = clockwise[1:]
    # 1. A kaiser wins or loses the game outright.
    if kind == "kaiser":
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
    # 3. The bidding side made its bid and reached the target (it wins ties with the others,
    # unless `both_cross` says otherwise when another side is at the target too).
    if made and after[bidding] >= target:
        if rules.both_cross != "bidder":
            over = [side for side in range(rules.side_count) if after[side] >= target]
            if len(over) > 1:
                return _crossed(rules, over, after), "target"
        return bidding, "target"
    lose_at = rules.lose_at
    # 4. The bidding side fell to lose_at.
    if lose_at is not None and after[bidding] <= lose_at:
        return _best(others, after), "minus"
    # 5. A non-bidding side reached the target, where a side may win without bidding.
    if not rules.win_requires_bid:
        over = [side for side in others if after[side] >= target]
        if len(over) > 1 and rules.both_cross != "bidder":
            return _crossed(rules, sorted(over), after), "target"
        if over:
            return _best(over, after), "target"
    # 6. A non-bidding side fell to lose_at: the best of the rest wins.
    if lose_at is not None:
        lost = {side for side in others if after[side] <= lose_at}
        if lost:
            return _best([side for side in clockwise if side not in lost], after), "minus"
    return None
