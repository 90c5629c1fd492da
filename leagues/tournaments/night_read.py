"""The night as its boards read it (the standings page and the hall's projector, every few
seconds on every screen): entries, rounds, each table's counted result and each round's
sit-outs, with tables, games, seats and hands read as tuples, never as model rows, and each
game scored by the engine's whole-record fast path (`scorecards.rules.record_quick`), the
general path (`game_score`) for a game it does not take. The counting is `selectors`' own
(`table_counted`, `standings_of`): the same standings as the reading of model rows
(tests/test_night_read.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kaiser_league.collation import name_key
from leagues.tournaments.models import (
    Tournament,
    TournamentRound,
    TournamentSitOut,
    TournamentTable,
)
from leagues.tournaments.night_state import night_is_over, round_is_open
from leagues.tournaments.selectors import (
    EntryRow,
    TableResult,
    TableRow,
    Totals,
    table_counted,
)
from scorecards.models import hand_input
from scorecards.rules import game_score
from scorecards.rules.record_quick import record_quick
from scorecards.rules_kept import rules_of
from scorecards.selectors import games_night_rows

# Seat names for the record (the engine names the sides by them): their place, as text.
_SEATS = tuple(str(seat) for seat in range(32))


@dataclass
class NightRead:
    """A night read for its boards (`night_read`)."""

    entries: list[EntryRow]  # in `tournament_entries` order
    rounds: list[TournamentRound]  # in order, nothing prefetched
    results: dict[int, list[TableResult]]  # by round number, tables in order
    sitouts: dict[int, list[int]]  # by round number: the entry ids sitting out
    name_order: Callable[[str], Any]  # `name_key`, remembered
    complete: bool  # every round's tables and sit-outs read (else the open round's alone)


@lru_cache(maxsize=4096)
def _name_key(name: str) -> tuple[int, ...]:
    """`name_key`, remembered per process: a name's key is a function of its letters alone (no
    write changes it), and the projector sorts the same names on every screen."""
    return name_key(name)


def game_totals(rules_data: Any, first_dealer: int, hands: list[tuple[int, Any, bool]]) -> Totals:
    """The engine's totals of a game from its stored rules, first dealer and hands (number,
    record, ...) in order: by the fast path when it takes the game (hands numbered 1..n, rules
    it reads), else by `game_score`, as `game_scored` scores it."""
    rules = rules_of(rules_data)
    if type(rules_data) is dict and all(row[0] == place for place, row in enumerate(hands, 1)):
        # The dealer is the engine's to derive (a correction of an earlier hand may move it).
        records = [
            {key: value for key, value in record.items() if key != "dealer"}
            if type(record) is dict
            else record
            for _number, record, _confirmed in hands
        ]
        document = record_quick(
            {
                "rules": rules_data,
                "seats": list(_SEATS[: rules.seats]),
                "first_dealer": first_dealer,
                "hands": records,
            }
        )
        if document is not None and [
            [int(name) for name in side] for side in document["sides"]
        ] == [list(side) for side in rules.sides]:
            return Totals(
                rules,
                [hand["scores"] for hand in document["hands"]],
                document["scores"],
                document["finished"],
                document["winner"],
            )
    score = game_score(
        rules, [hand_input(number, record) for number, record, _ in hands], first_dealer
    )
    return Totals.of(score)


def night_read(tournament: Tournament, *, seating: bool = False) -> NightRead:
    """The night as its standings and projector read it (see the module's docstring). Seven
    queries in all, whatever the size of the night. With `seating`, while a round is being
    played only its tables and sit-outs are read (what the seating panel shows; not
    `complete`): the standings need every round."""
    order = _name_key
    entries = sorted(
        (
            EntryRow(pk, player_id, pair, last_round is not None, name)
            # The entries' own order within a night (their Meta's, with no join to the night).
            for pk, player_id, pair, last_round, name in tournament.entries.order_by(
                "pair_number", "pk"
            ).values_list("pk", "player_id", "pair_number", "last_round", "player__name")
        ),
        key=lambda e: order(e.name),
    )
    # Stable sort: pairs (or no pair number at all) keep their name order.
    entries.sort(key=lambda e: (e.pair_number is None, e.pair_number or 0))
    rounds = list(TournamentRound.objects.filter(tournament=tournament).order_by("number"))
    current = rounds[-1] if rounds else None
    alone = seating and round_is_open(current) and not night_is_over(tournament)
    of_night: dict[str, Any] = (
        {"round_id": current.pk} if alone and current else {"round__tournament": tournament}
    )
    tables = list(
        TournamentTable.objects.filter(**of_night)
        .order_by("round_id", "number")
        .values_list("round_id", "pk", "number", "game_id")
    )
    games = games_night_rows([game_id for *_, game_id in tables])
    number_of = {round_.pk: round_.number for round_ in rounds}
    closed = {round_.pk for round_ in rounds if round_.status == "closed"}
    need_confirm = tournament.hands_need_confirmation
    results: dict[int, list[TableResult]] = {
        round_.number: [] for round_ in rounds if not alone or round_ is current
    }
    for round_id, pk, number, game_id in tables:
        rules, first_dealer, names, player_ids, hands = games[game_id]
        results[number_of[round_id]].append(
            table_counted(
                tournament,
                TableRow(pk, number, game_id),
                names,
                player_ids,
                first_dealer,
                game_totals(rules, first_dealer, hands),
                [confirmed for *_, confirmed in hands] if need_confirm else [],
                round_id in closed,
            )
        )
    sitouts: dict[int, list[int]] = defaultdict(list)
    # Unordered: the Meta's order by round would join the rounds for their own order.
    sitting = TournamentSitOut.objects.filter(**of_night).order_by()
    for round_id, entry_id in sitting.values_list("round_id", "entry_id"):
        sitouts[number_of[round_id]].append(entry_id)
    return NightRead(entries, rounds, results, dict(sitouts), order, not alone)
