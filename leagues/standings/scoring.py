"""Scoring stored games for their summaries by the engine's fast path for whole records
(`scorecards.rules.record_quick`): each game's hands are read as the dicts they are stored as
and scored in one pass, with no HandInput or HandScore built; what a summary needs of the
result (`summaries.game_counters`, `derived.game_outcome`) is read off the engine's
`kaiser-result/1` document.

Like the fast path itself, this only accepts: a game it does not take (a pot to account for,
hands the fast path leaves to the general code and refuses, rules it cannot read) is scored by
`derived.games_scored`, the general path, which also notes what the engine raises on. The two
give the same summaries (tests/test_standings_scoring.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from leagues.standings.derived import BATCH, LeftOut, games_scored
from scorecards.models import Game
from scorecards.rules import Rules, rules_build
from scorecards.rules.record_quick import record_quick
from scorecards.selectors import games_seats_and_records

# Seat names for the record (the document names the sides by them): their place, as text.
_NAMES = tuple(str(seat) for seat in range(32))


@dataclass(frozen=True, slots=True)
class QuickHand:
    """What a summary reads of one scored hand (`HandScore`'s fields of the same names)."""

    thrown_in: bool
    bidder: int | None
    side: int | None
    made: bool
    kind: str | None


@dataclass(frozen=True)
class QuickScore:
    """What a summary reads of a scored game (`GameScore`'s fields of the same names)."""

    rules: Rules
    hands: Sequence[QuickHand]
    scores: Sequence[int]
    finished: bool
    winner: int | None


def _score(game: Game, records: list[dict[str, Any]], rules_of: dict[str, Rules]) -> Any:
    """The QuickScore of `game` from its stored hand records, or None where the fast path
    does not take it."""
    if game.pot_per_set is not None or type(game.rules) is not dict:
        return None
    key = json.dumps(game.rules, sort_keys=True)
    rules = rules_of.get(key)
    if rules is None:
        try:
            rules = rules_of[key] = rules_build(game.rules)
        except Exception:  # the general path says what is wrong
            return None
    # The dealer is the engine's to derive (a correction of an earlier hand may move it).
    hands = [
        {name: value for name, value in record.items() if name != "dealer"}
        if "dealer" in record
        else record
        for record in records
    ]
    document = record_quick(
        {
            "rules": game.rules,
            "seats": list(_NAMES[: rules.seats]),
            "first_dealer": game.first_dealer,
            "hands": hands,
        }
    )
    if document is None:
        return None
    sides = [[int(name) for name in side] for side in document["sides"]]
    if sides != [list(side) for side in rules.sides]:
        return None
    return QuickScore(
        rules,
        [
            QuickHand(
                hand["thrown_in"],
                hand.get("bidder"),
                hand.get("side"),
                bool(hand["made"]),
                hand.get("kind"),
            )
            for hand in document["hands"]
        ],
        document["scores"],
        document["finished"],
        document["winner"],
    )


def games_scored_fast(
    games: list[Game], left_out: list[LeftOut] | None = None
) -> Iterator[tuple[Game, tuple[int | None, ...], Any]]:
    """`derived.games_scored` (the same contract: each game with its players by seat and its
    score, games the engine raises on noted in `left_out`), by the fast path where it takes
    the game. Two queries per BATCH games, and two more for those it does not take."""
    for start in range(0, len(games), BATCH):
        batch = games[start : start + BATCH]
        try:
            seats, records = games_seats_and_records([game.pk for game in batch])
        except ValueError:  # hands not numbered 1..n: the general path reads them
            yield from games_scored(batch, left_out)
            continue
        rules_of: dict[str, Rules] = {}
        slow = []
        for game in batch:
            score = _score(game, records[game.pk], rules_of)
            if score is None:
                slow.append(game)
                continue
            by_seat = seats[game.pk]
            yield game, tuple(by_seat.get(seat) for seat in range(score.rules.seats)), score
        if slow:
            yield from games_scored(slow, left_out)
