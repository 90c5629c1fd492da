"""Scoring stored games for their summaries by the engine's fast path for whole records
(`scorecards.rules.record_quick`): each game's hands are read as the dicts they are stored as
and scored in one pass, with no HandInput or HandScore built; what a summary needs of the
result (`game_counters`, `derived.game_outcome`) is read off the engine's
`kaiser-result/1` document.

Like the fast path itself, this only accepts: a game it does not take (a pot to account for,
hands the fast path leaves to the general code and refuses, rules it cannot read) is scored by
`derived.games_scored`, the general path, which also notes what the engine raises on. The two
give the same summaries (tests/test_standings_scoring.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from leagues.standings.derived import BATCH, KAISER_KINDS, LeftOut, games_scored
from scorecards.models import Game
from scorecards.rules import NO_TRUMP_KINDS, GameScore, PotAccount, Rules, rules_build
from scorecards.rules.record_quick import record_quick
from scorecards.selectors import games_records_stream, games_seats, games_where

# Seat names for the record (the document names the sides by them): their place, as text.
_NAMES = tuple(str(seat) for seat in range(32))


# What a summary reads of a played hand (one not thrown in): its bidder, the bidding side,
# whether the bid was made and its kind (`HandScore`'s fields of the same names).
PlayedHand = tuple[int, int, bool, str | None]


@dataclass(frozen=True, slots=True)
class QuickScore:
    """What a summary reads of a scored game (`GameScore`'s fields of the same names; `hands`
    one a hand, the records scored, and `played` what is read of those played: the engine's
    `played_only` document)."""

    rules: Rules
    hands: Sequence[Any]
    played: Sequence[PlayedHand]
    scores: Sequence[int]
    finished: bool
    winner: int | None


def played_hands(score: GameScore | QuickScore) -> Sequence[PlayedHand]:
    """What a summary reads of each played hand of `score`, in order."""
    if isinstance(score, QuickScore):
        return score.played
    played: list[PlayedHand] = []
    for hand in score.hands:
        if hand.thrown_in:
            continue
        # A hand that was played has a bidder and a bidding side (HandScore).
        assert hand.bidder is not None and hand.side is not None
        played.append((hand.bidder, hand.side, bool(hand.made), hand.kind))
    return played


def game_counters(
    score: GameScore | QuickScore, counts: bool, winner: int | None, pot: PotAccount | None
) -> tuple[list[list[int]], list[list[int]]]:
    """The counters (`derived.COUNTERS`, a row in that order) of a scored game, by seat and by
    side: what it adds to the figures of whoever sat there. `counts` and `winner` are its outcome
    (`derived.game_outcome`); `pot` the engine's pot account (None: the game keeps no pot)."""
    rules = score.rules
    seat_count = rules.seats
    # Tallied by seat (a bid is its bidder's) and by side (a set is the bidding side's), then
    # each row written at once; a side's tallies summed over its seats in one pass (a rebuild
    # from nothing does it for every game of the season).
    attempted, made, no_trump, kaisers = ([0] * seat_count for _ in range(4))
    set_on = [0] * rules.side_count
    played = played_hands(score)
    for bidder, side, bid_made, kind in played:
        attempted[bidder] += 1
        if bid_made:
            made[bidder] += 1
            no_trump[bidder] += kind in NO_TRUMP_KINDS
            kaisers[bidder] += kind in KAISER_KINDS
        else:
            set_on[side] += 1
    games, hands = int(counts), len(played)
    draws = int(counts and winner is None)
    balance = pot.balance if pot is not None else (0,) * seat_count
    # Each row in COUNTERS' order: games, wins, draws, hands, bids attempted, bids made,
    # no-trump bids made, kaisers, times set, pot balance.
    wins = [int(counts and winner == side) for side in range(rules.side_count)]
    sides: list[list[int]] = []
    side_of = [0] * seat_count
    for side, side_seats in enumerate(rules.sides):
        side_attempted = side_made = side_no_trump = side_kaisers = side_balance = 0
        for seat in side_seats:
            side_of[seat] = side
            side_attempted += attempted[seat]
            side_made += made[seat]
            side_no_trump += no_trump[seat]
            side_kaisers += kaisers[seat]
            side_balance += balance[seat]
        sides.append(
            [
                games,
                wins[side],
                draws,
                hands,
                side_attempted,
                side_made,
                side_no_trump,
                side_kaisers,
                set_on[side],
                side_balance,
            ]
        )
    seats: list[list[int]] = []
    for seat in range(seat_count):
        side = side_of[seat]
        seats.append(
            [
                games,
                wins[side],
                draws,
                hands,
                attempted[seat],
                made[seat],
                no_trump[seat],
                kaisers[seat],
                set_on[side],
                balance[seat],
            ]
        )
    return seats, sides


@dataclass(frozen=True, slots=True)
class GameRow:
    """What scoring a game reads of it, read as values with no model instance built (a season
    rebuilt from nothing scores every one of its games)."""

    pk: int
    rules: Any  # as stored: a dict for any game the engine can read
    first_dealer: int
    finish_reason: str
    pot_per_set: int | None


class RulesText:
    """A game's stored rules from their text, for a `GameRow` (each distinct text read once:
    the games read together share one object, which `_RulesRead` looks them up by); None
    where it is not JSON (the general path reads the game as a model)."""

    def __init__(self) -> None:
        self._read: dict[str | None, Any] = {}

    def __call__(self, text: str | None) -> Any:
        if text not in self._read:
            try:
                self._read[text] = json.loads(text) if text is not None else None
            except ValueError:
                self._read[text] = None
        return self._read[text]


# The Rules of a game's stored rules, and its sides as the document names them (`_NAMES`).
_RulesSides = tuple[Rules, list[list[str]]]


class _RulesRead:
    """The Rules of the games' stored rules (with their sides named as in the document), each
    distinct content built once. Games read together (`GameRow`s of one query) share one
    stored object: looked up by it first."""

    def __init__(self) -> None:
        self._last: tuple[Any, _RulesSides | None] = (None, None)
        self._by_content: dict[str, _RulesSides | None] = {}

    def __call__(self, data: dict[str, Any]) -> _RulesSides | None:
        last, read = self._last
        if last is data:
            return read
        key = json.dumps(data, sort_keys=True)
        if key in self._by_content:
            read = self._by_content[key]
        else:
            try:
                rules = rules_build(data)
            except Exception:  # the general path says what is wrong
                read = None
            else:
                read = (rules, [[_NAMES[seat] for seat in side] for side in rules.sides])
            self._by_content[key] = read
        self._last = (data, read)
        return read


def _score(game: Game | GameRow, records: list[Any], rules_read: _RulesRead) -> Any:
    """The QuickScore of `game` from its stored hand records (the caller's own: a record's
    dealer is taken out of it), or None where the fast path does not take it."""
    if game.pot_per_set is not None or type(game.rules) is not dict:
        return None
    read = rules_read(game.rules)
    if read is None:
        return None
    rules, side_names = read
    # The dealer is the engine's to derive (a correction of an earlier hand may move it).
    for record in records:
        if type(record) is dict and "dealer" in record:
            del record["dealer"]
    document = record_quick(
        {
            "rules": game.rules,
            "seats": list(_NAMES[: rules.seats]),
            "first_dealer": game.first_dealer,
            "hands": records,
        },
        played_only=True,
    )
    if document is None:
        return None
    if document["sides"] != side_names:
        return None
    # A document's hands are its record's, one each (`played_only`: those played alone).
    return QuickScore(
        rules,
        records,
        document["hands"],
        document["scores"],
        document["finished"],
        document["winner"],
    )


def _models_of(games: list[Game | GameRow]) -> list[Game]:
    """`games` as models, in the same order (one query for those read as values)."""
    ids = [game.pk for game in games if not isinstance(game, Game)]
    read: dict[int, Game] = {}
    if ids:
        read = {
            game.pk: game
            for game in games_where(ids=ids).only(
                "pk", "rules", "first_dealer", "finish_reason", "pot_per_set"
            )
        }
    # A game deleted meanwhile is left out, as the general path leaves out its hands.
    return [
        game if isinstance(game, Game) else read[game.pk]
        for game in games
        if isinstance(game, Game) or game.pk in read
    ]


def games_scored_fast(
    games: Sequence[Game | GameRow], left_out: list[LeftOut] | None = None
) -> Iterator[tuple[Game | GameRow, tuple[int | None, ...], Any]]:
    """`derived.games_scored` (the same contract: each game with its players by seat and its
    score, games the engine raises on noted in `left_out`), by the fast path where it takes
    the game. The games it takes come as their hands are read (in id order), then the others,
    in the order given (a game read as a `GameRow` comes back as a model if the general path
    scores it). Per BATCH games, two queries of tuples (seats; hands, streamed), and two or
    three more for the games it does not take."""
    for start in range(0, len(games), BATCH):
        batch = games[start : start + BATCH]
        yield from _scored_together(batch, left_out, [game.pk for game in batch])


def games_scored_among(
    games: Sequence[Game | GameRow], among: QuerySet[Game], left_out: list[LeftOut] | None = None
) -> Iterator[tuple[Game | GameRow, tuple[int | None, ...], Any]]:
    """`games_scored_fast`, their seats and hands read by `among`, a query of games that holds
    every one of `games` (their season's, when most of its games are to score): two queries in
    all, with no id sent, its other games passed over."""
    return _scored_together(games, left_out, among)


def _scored_together(
    games: Sequence[Game | GameRow],
    left_out: list[LeftOut] | None,
    source: QuerySet[Game] | list[int],
) -> Iterator[tuple[Game | GameRow, tuple[int | None, ...], Any]]:
    """`games_scored_fast` of `games`, their seats and hands read by `source` (their ids, or a
    query of games holding them)."""
    by_id = {game.pk: game for game in games}
    seats = games_seats(source)
    rules_read = _RulesRead()
    refused: set[int] = set()
    scored = []
    # Each game scored as its row comes, while the server makes the next (on PostgreSQL the
    # rows are streamed, and the connection is the stream's until they are all read: nothing
    # is yielded, to a caller that might query, before the stream is closed).
    with closing(games_records_stream(source)) as streamed:
        for game_id, records in streamed:
            game = by_id.pop(game_id, None)
            if game is None:
                continue  # another game of `source`
            score = None if records is None else _score(game, records, rules_read)
            if score is None:
                refused.add(game_id)
                continue
            by_seat = seats[game_id]
            scored.append(
                (game, tuple(by_seat.get(seat) for seat in range(score.rules.seats)), score)
            )
    yield from scored
    # Those left in `by_id` have no hand.
    slow = []
    for game in games:
        if game.pk in refused:
            slow.append(game)
        elif game.pk in by_id:
            score = _score(by_id.pop(game.pk), [], rules_read)
            if score is None:
                slow.append(game)
                continue
            by_seat = seats[game.pk]
            yield game, tuple(by_seat.get(seat) for seat in range(score.rules.seats)), score
    if slow:
        yield from games_scored(_models_of(slow), left_out)
