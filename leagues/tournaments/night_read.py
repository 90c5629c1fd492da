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

from django.db import connections

from kaiser_league.collation import name_key
from leagues.tournaments.models import Tournament, TournamentEntry, TournamentRound
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

# What the boards read of a round (its times are not shown).
_ROUND_FIELDS = ["id", "tournament_id", "number", "status"]
# Seat names for the record (the engine names the sides by them): their place, as text.
_SEATS = tuple(str(seat) for seat in range(32))


@dataclass
class NightRead:
    """A night read for its boards (`night_read`)."""

    entries: list[EntryRow]  # in `tournament_entries` order
    rounds: list[TournamentRound]  # in order, nothing prefetched, their times deferred
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


@dataclass(frozen=True)
class NightRows:
    """The rows of a night its boards read first, as tuples (`night_rows`): everything a board
    shows but the games' seats and hands, and each game's `updated_at`, which every write of a
    game's hands or state moves (the score sheet's poll follows it too). So these rows and the
    night's own row are a version of what the boards show (`board_cache`)."""

    # (pk, player_id, pair_number, last_round, player's name, round id sat out or None): an
    # entry's row once per round it sat out, once alone if none; by entry id.
    entries: tuple[tuple[Any, ...], ...]
    # (pk, number, status, table pk, table number, game id, game's updated_at as the database
    # gives it): a round's row once per table (the table's values None when it has none),
    # rounds and their tables in order.
    rounds: tuple[tuple[Any, ...], ...]


_NIGHT = -1  # the night's id in the SQL compiled once (`_rows_sql`), replaced by the asked one


@lru_cache(maxsize=4)
def _rows_sql(alias: str) -> str:
    """`night_rows`' one statement for database `alias`, compiled once per process: the ORM
    writes its two selects (building the SQL of a query with joins costs ten times running
    it, and the projector asks it of every screen every few seconds), joined here into one
    round trip: the entries' rows (kind 0) then the rounds' (kind 1), columns paired by type.
    Only the night's id changes."""
    entries = (
        TournamentEntry.objects.using(alias)
        .filter(tournament_id=_NIGHT)
        .order_by()
        .values_list(
            "pk", "player_id", "pair_number", "last_round", "player__name", "sitouts__round_id"
        )
    )
    rounds = (
        TournamentRound.objects.using(alias)
        .filter(tournament_id=_NIGHT)
        .order_by()
        .values_list(
            "pk",
            "number",
            "status",
            "tables__pk",
            "tables__number",
            "tables__game_id",
            "tables__game__updated_at",
        )
    )
    compiled = []
    for query in (entries, rounds):
        sql, params = query.query.sql_with_params()
        if tuple(params) != (_NIGHT,):  # the night's id is the only value these queries take
            raise AssertionError(f"night_rows: unexpected parameters {params!r}")
        compiled.append(sql)
    return (
        f"WITH e(a, b, c, d, n, s) AS ({compiled[0]}), r(a, b, t, c, d, g, u) AS ({compiled[1]}) "
        "SELECT 0, a, b, c, d, s, n, NULL FROM e UNION ALL SELECT 1, a, b, c, d, g, t, u FROM r"
    )


def night_rows(tournament: Tournament) -> NightRows:
    """The night's entries with their sit-outs, and its rounds with their tables and each
    table game's last change, in one query of tuples, with no value converted (none needs it
    but `updated_at`, which only a version compares)."""
    alias = TournamentRound.objects.db
    with connections[alias].cursor() as cursor:
        cursor.execute(_rows_sql(alias), (tournament.pk, tournament.pk))
        read = cursor.fetchall()
    # Put in order here (the database's order of NULLs differs by vendor): the entries by id
    # (their order of registration, which the names' order then follows), the rounds and their
    # tables by number.
    entries = sorted(
        ((a, b, c, d, n, s) for kind, a, b, c, d, s, n, _ in read if kind == 0),
        key=lambda row: (row[0], row[5] or 0),
    )
    rounds = sorted(
        ((a, b, t, c, d, g, u) for kind, a, b, c, d, g, t, u in read if kind == 1),
        key=lambda row: (row[1], row[4] or 0),
    )
    return NightRows(tuple(entries), tuple(rounds))


def night_read(
    tournament: Tournament, *, seating: bool = False, rows: NightRows | None = None
) -> NightRead:
    """The night as its standings and projector read it (see the module's docstring): its
    `rows` (`night_rows`, read now when not given), then three queries for the games' seats
    and hands, whatever the size of the night. With `seating`, while a round is being played
    only its tables and sit-outs are scored and kept (what the seating panel shows; not
    `complete`): the standings need every round."""
    rows = night_rows(tournament) if rows is None else rows
    order = _name_key
    seen: dict[int, EntryRow] = {}
    sat_out: list[tuple[int, int]] = []
    for pk, player_id, pair, last_round, name, round_id in rows.entries:
        if pk not in seen:
            seen[pk] = EntryRow(pk, player_id, pair, last_round is not None, name)
        if round_id is not None:
            sat_out.append((round_id, pk))
    entries = sorted(seen.values(), key=lambda e: order(e.name))
    # Stable sort: pairs (or no pair number at all) keep their name order.
    entries.sort(key=lambda e: (e.pair_number is None, e.pair_number or 0))
    rounds: list[TournamentRound] = []
    db = TournamentRound.objects.db
    tables: list[tuple[int, int, int, int]] = []
    for pk, number, status, table, table_number, game_id, _at in rows.rounds:
        if not rounds or rounds[-1].pk != pk:
            # As the ORM builds a row it read in part: the times are left deferred.
            values = (pk, tournament.pk, number, status)
            rounds.append(TournamentRound.from_db(db, _ROUND_FIELDS, values))
        if table is not None:
            tables.append((pk, table, table_number, game_id))
    current = rounds[-1] if rounds else None
    alone = seating and round_is_open(current) and not night_is_over(tournament)
    if alone and current is not None:
        tables = [row for row in tables if row[0] == current.pk]
        sat_out = [row for row in sat_out if row[0] == current.pk]
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
    for round_id, entry_id in sat_out:
        sitouts[number_of[round_id]].append(entry_id)
    return NightRead(entries, rounds, results, dict(sitouts), order, not alone)
