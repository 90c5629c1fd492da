"""A whole `kaiser-game/1` record scored in one pass: the fast path of `record.record_score`.

The general path reads the record into a GameRecord of HandInputs, scores them into HandScores
and GameScore, and writes those out as the `kaiser-result/1` document: three objects a hand, each
built field by field. Here the common record goes from its dicts straight to the document's: each
plain hand (a bidder, a bid in trump or no trump or an auction, tricks per side, the two cards as
sides) is checked as `quick._quick` checks it, scored as `scoring._scored` scores it, and written
as `HandScore.as_result` writes it. Any other hand (thrown in, a kaiser, tricks per seat, table
habits, a refusal) is read and scored by the general code on the same table, in place. What it
remembers between records (the rules objects and auctions met) is in `record_plan`.

Like `quick`, this path only accepts: at the first thing it does not take (a top-level field it
does not know, a setting it does not score, a hand the general code refuses) it returns None, and
`record_score` scores the record from the start by the general path, which raises the error and
writes its message. So the document is the general path's, key for key and in the same order
(tests/rules/test_record_quick.py holds the two to each other), and every error is its own.

Pure: data in, data out.
"""

from __future__ import annotations

from operator import add, itemgetter
from typing import Any

from scorecards.rules.calls import MAX_HANDS
from scorecards.rules.ending import _game_end
from scorecards.rules.errors import KaiserError
from scorecards.rules.hands import HandInput
from scorecards.rules.record_plan import _ABSENT, _auction_won, _rules
from scorecards.rules.scoring import _play, _scored, _Table

# The top-level fields of a record this path reads; anything else (a pot, the table habits, an
# unknown key) goes the general way.
_RECORD_KEYS = frozenset(("format", "rules", "seats", "first_dealer", "played_on", "hands"))
# The shapes of a plain hand: its fields, all given (as whole numbers, a list of them or a list
# of calls), and no other.
_CARDS = ("tricks", "five_hearts", "three_spades")
_BID_FIELDS = itemgetter("bidder", "bid", *_CARDS)
_KIND_BID_FIELDS = itemgetter("kind", "bidder", "bid", *_CARDS)
_AUCTION_BID_FIELDS = itemgetter("auction", "bidder", "bid", *_CARDS)
_AUCTION_FIELDS = itemgetter("auction", *_CARDS)


def record_quick(
    record: Any, *, played_on_checked: bool = False, played_only: bool = False
) -> dict[str, Any] | None:
    """The `kaiser-result/1` document of a record the fast path takes (see the module
    docstring), the same as `record_score`'s; None for any other record, error or not. A record
    with a `played_on` is taken only when the caller has checked it (`played_on_checked`: the
    day is the record's business, not the score's).

    `played_only`: the document's `hands` are, instead of each hand's object, what a reader of
    figures takes of the hands played (thrown-in ones left out): a tuple (bidder, bidding side,
    made, kind) each, in order. Building the objects of a season's hands, to read four fields
    of each, took a fifth of the time of scoring them."""
    if (
        type(record) is not dict
        or not record.keys() <= _RECORD_KEYS
        or ("played_on" in record and not played_on_checked)
    ):
        return None
    if record.get("format", "kaiser-game/1") != "kaiser-game/1":
        return None
    plan = _rules(record.get("rules", _ABSENT))
    if plan is None:
        return None
    # What reading and scoring a plain hand asks of the rules (`quick._quick` and
    # `scoring._scored` say what each does), and the game's start.
    (
        rules,
        simple,
        auctions,
        seat_count,
        side_count,
        side_names,
        plain_kinds,
        min_bid,
        max_bid,
        total,
        auction_named,
        heart_bonus,
        spade_penalty,
        overtricks,
        set_scores_zero,
        target,
        bid_out,
        nt_target,
        nt_bid_out,
        keeps_losses,
        lose_at,
        heart_wins,
    ) = plan
    seats = record.get("seats")
    first_dealer = record.get("first_dealer", 0)
    raw_hands = record.get("hands")
    if (
        type(seats) is not list
        or len(seats) != seat_count
        or type(first_dealer) is not int
        or not 0 <= first_dealer < seat_count
        or type(raw_hands) is not list
        or len(raw_hands) > MAX_HANDS
    ):
        return None
    for name in seats:
        if type(name) is not str or not name.strip():
            return None
    sides = range(side_count)
    # The game between two hands (`scoring._Table`, built only for a hand the general code
    # scores). The scores after each hand: a new list each hand, which is also that hand's in
    # the document (never changed once made).
    scores: list[int] = [0] * side_count
    dealer = first_dealer
    finished, winner, reason = False, None, None
    hands: list[Any] = []
    append = hands.append
    won: tuple[int, str, int] | None
    tricks: Any
    five: Any
    three: Any
    for number, raw in enumerate(raw_hands, 1):
        if finished:
            return None  # "the game is already over": the general path says so
        # A plain hand (`hands._plain` and `quick._quick` accept it), or `plain` stays False.
        plain = False
        shape = type(raw) is dict
        if shape:
            # The fields of a plain hand by its shape (how many it has), each shape read in one
            # call; a field missing from its shape, or any other shape, goes the general way.
            try:
                size = len(raw)
                if size == 5:
                    bidder, bid, tricks, five, three = _BID_FIELDS(raw)
                    kind, auction = "trump", _ABSENT
                elif size == 6 and "auction" in raw:
                    auction, bidder, bid, tricks, five, three = _AUCTION_BID_FIELDS(raw)
                elif size == 6:
                    kind, bidder, bid, tricks, five, three = _KIND_BID_FIELDS(raw)
                    auction = _ABSENT
                elif size == 4:
                    auction, tricks, five, three = _AUCTION_FIELDS(raw)
                    bidder = bid = _ABSENT
                else:
                    shape = False
            except KeyError:
                shape = False
        if shape:
            if auction is _ABSENT:
                plain = (
                    type(bidder) is int
                    and 0 <= bidder < seat_count
                    and type(bid) is int
                    and min_bid <= bid <= max_bid
                    and type(kind) is str
                    and kind in plain_kinds
                )
            elif type(auction) is list and auction_named:
                try:
                    won = auctions[dealer][tuple(auction)]
                except (KeyError, TypeError):  # not met yet, or a call that is not text
                    won = _auction_won(rules, auctions, auction, dealer)
                if (
                    won is not None
                    and won[1] in plain_kinds
                    and (bidder is _ABSENT or (type(bidder) is int and bidder == won[0]))
                    and (bid is _ABSENT or (type(bid) is int and bid == won[2]))
                ):
                    bidder, kind, bid = won
                    plain = True
            if plain:
                plain = (
                    type(tricks) is list
                    and len(tricks) == side_count
                    and type(five) is int
                    and type(three) is int
                    and 0 <= five < side_count
                    and 0 <= three < side_count
                )
                if plain and side_count == 2:
                    took_first, took_second = tricks
                    plain = (
                        type(took_first) is int
                        and type(took_second) is int
                        and took_first >= 0
                        and took_second >= 0
                        and took_first + took_second == total
                    )
                elif plain:
                    for count in tricks:
                        if type(count) is not int or count < 0:
                            plain = False
                            break
                    plain = plain and sum(tricks) == total
                # The special cards each to a side that took a trick.
                plain = plain and tricks[five] > 0 and tricks[three] > 0
        if plain and simple:
            # `scoring._scored` under simple rules, written out.
            before = scores
            hand_bid_out = bid_out  # the one in force when the hand began
            # The record's whole numbers (checked above), in lists of the document's own.
            if side_count == 2:
                points = [took_first, took_second]
                tricks = [took_first, took_second]
            else:
                points = tricks[:]
                tricks = tricks[:]
            points[five] += heart_bonus
            points[three] += spade_penalty
            bidding = bidder % side_count
            taken = points[bidding]
            times = 1 if kind == "trump" else 2
            made = taken >= bid
            if made:
                bidder_delta = times * (taken if overtricks else bid)
            else:
                bidder_delta = 0 if set_scores_zero else -times * bid
            if made and times == 2 and nt_target is not None and target != nt_target:
                target, bid_out = nt_target, nt_bid_out
            if side_count == 2:
                # Two sides (most games): the other side's points, as the loop below.
                other = 1 - bidding
                took = points[other]
                if (
                    hand_bid_out is not None
                    and before[other] >= hand_bid_out
                    and (took > 0 or not keeps_losses)
                ):
                    took = 0
                if bidding:
                    delta = [took, bidder_delta]
                    first, second = before[0] + took, before[1] + bidder_delta
                else:
                    delta = [bidder_delta, took]
                    first, second = before[0] + bidder_delta, before[1] + took
                scores = [first, second]
                ends = (
                    heart_wins
                    or first >= target
                    or second >= target
                    or (lose_at is not None and (first <= lose_at or second <= lose_at))
                )
            else:
                delta = points[:]
                for side in sides:
                    if side == bidding:
                        delta[side] = bidder_delta
                    elif (
                        hand_bid_out is not None
                        and before[side] >= hand_bid_out
                        and (delta[side] > 0 or not keeps_losses)
                    ):
                        delta[side] = 0
                scores = list(map(add, before, delta))
                ends = (
                    heart_wins
                    or max(scores) >= target
                    or (lose_at is not None and min(scores) <= lose_at)
                )
            end = (
                _game_end(
                    rules,
                    tuple(scores),
                    target,
                    kind,
                    bidding,
                    made,
                    tuple(before),
                    hand_bid_out,
                    five,
                )
                if ends
                else None
            )
            if played_only:
                append((bidder, bidding, made, kind))
            else:
                append(
                    {
                        "number": number,
                        "dealer": dealer,
                        "thrown_in": False,
                        "made": made,
                        "delta": delta,
                        "scores": scores,
                        "target": target,
                        "bidder": bidder,
                        "side": bidding,
                        "bid": bid,
                        "kind": kind,
                        "tricks": tricks,
                        "points": points,
                        "five_hearts": five,
                        "three_spades": three,
                    }
                )
            if end is None:
                dealer = (dealer + 1) % seat_count
            else:
                finished = True
                winner, reason = end
        elif type(raw) is dict and len(raw) == 1 and raw.get("thrown_in") is True:
            if not played_only:
                append(
                    {
                        "number": number,
                        "dealer": dealer,
                        "thrown_in": True,
                        "made": None,
                        "delta": [0] * side_count,
                        "scores": scores[:],
                        "target": target,
                    }
                )
        else:
            # Scored by the general code, on the same game: a plain hand under rules that are
            # not simple, or any other hand, read first; a refusal sends the whole record the
            # general way, which names the first thing wrong with it.
            table = _Table(scores=tuple(scores), target=target, bid_out=bid_out, dealer=dealer)
            try:
                if plain:
                    checked = (bidder, kind, bid, tuple(tricks), None, five, three, None)
                    hand_score = _scored(rules, table, number, checked)
                else:
                    hand_score = _play(rules, table, HandInput.from_dict(raw, number), number)
            except KaiserError:
                return None
            if not played_only:
                append(hand_score.as_result())
            elif not hand_score.thrown_in:
                # A hand played has a bidder and a bidding side (HandScore).
                assert hand_score.bidder is not None and hand_score.side is not None
                append((hand_score.bidder, hand_score.side, bool(hand_score.made), hand_score.kind))
            scores, target, bid_out = list(table.scores), table.target, table.bid_out
            dealer, finished = table.dealer, table.finished
            winner, reason = table.winner, table.reason
    return {
        "format": "kaiser-result/1",
        "sides": (
            [list(names(seats)) for names in side_names]
            if side_names
            else [[name] for name in seats]  # one seat a side
        ),
        "hands": hands,
        "scores": scores[:],
        "target": target,
        "bid_out": bid_out,
        "finished": finished,
        "winner": winner,
        "reason": reason,
        "next_dealer": None if finished else dealer,
    }
