"""Per-game summaries (`GameSummary`): what the standings need of each counted game, scored by
the engine once and kept until the game changes, so that a rebuild re-scores only the games
that changed since the last one.

A summary is kept in step by comparing, at every rebuild, the `version` it was computed from
with the game's version now (`game_version`): a fingerprint read from the database, not from any
event or signal, of everything a summary depends on, and of the way summaries are computed
(`SUMMARY_FORMAT`): a summary stored by an older release is computed again, never misread. A
summary is derived data: deleting any or all of them costs only the time to compute them again.

A summary's counters are a row of whole numbers per seat and per side, in the order of
`derived.COUNTERS`, and its `version` starts with its format (SUMMARY_FORMAT): a summary of
another format, or one that cannot be read as this format (`summary_readable`), is computed
again from the hands, so adding or moving a counter (which bumps the format) never leaves the
standings failing on, or misreading, the summaries already stored. Its `winner` is the outcome
`derived.game_outcome` gives (a side, or None: drawn), and its `games` counter says whether the
game counts at all (`summary_counts`).
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from leagues.clubs.models import Club, Player, Season
from leagues.standings.derived import (
    BATCH,
    COUNTER_AT,
    COUNTERS,
    GameResult,
    LeftOut,
    counted_games_qs,
    game_day,
    game_outcome,
)
from leagues.standings.models import GameSummary
from leagues.standings.rows import rows_write
from leagues.standings.scoring import (
    GameRow,
    RulesText,
    game_counters,
    games_scored_among,
    games_scored_fast,
)
from leagues.standings.statements import counted_shape, one_rows
from leagues.standings.summary_text import JSON_TEXT
from scorecards.models import Game
from scorecards.rules import Pot, pot_account
from scorecards.selectors import game_last_change, games_where

log = logging.getLogger(__name__)

# Bumped whenever what a summary stores, or how it is read, changes (a summary of another
# format is computed again, never misread): 2 counts the games a tournament round ended (won on
# points, or drawn); 3 names the counters (COUNTERS, a dict per seat and per side), counts a tie
# at the target as drawn and adds the pot balance (so the game's pot is in the fingerprint); 4
# writes each row of counters as a list in COUNTERS' order, not an object naming them (a
# season rebuilt from nothing writes six rows a game: PostgreSQL took longer to read the names
# into its jsonb than the rest of the write).
SUMMARY_FORMAT = 4
_VERSION_FIELDS = (
    "updated_at",
    "_last_change",
    "hand_count",
    "first_dealer",
    "_rules_text",
    "finish_reason",
    "pot_per_set",
)
SUMMARY_FIELDS = (
    "version",
    "players",
    "sides",
    "winner",
    "scores",
    "hands",
    "seat_counts",
    "side_counts",
)
_STORED = tuple(f"standings_summary__{name}" for name in SUMMARY_FIELDS)
_GAMES = COUNTER_AT["games"]


def games_versioned(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with what `game_version` reads, in the same query."""
    return games.annotate(_last_change=game_last_change(), _rules_text=Cast("rules", TextField()))


def game_version(
    updated_at: Any,
    last_change: int | None,
    hand_count: int,
    first_dealer: int,
    rules_text: str,
    finish_reason: str,
    pot_per_set: int | None,
) -> str:
    """The fingerprint of a game as its summary sees it (the columns of `games_versioned`).

    It starts with the summary's format (`v` SUMMARY_FORMAT), and changes with every hand
    entered, corrected, undone or confirmed (each writes a hand version and touches the game's
    `updated_at`, which the sheet's poll reads too), every finish, abandon or other save of the
    game (`updated_at`: an admin's edit of its seats included), and any change to its rules,
    first dealer, finish reason (the round that ended it) or pot, even one written without
    `save()`. A change the summary does not depend on (a confirmation) only costs one game
    re-scored."""
    rules = zlib.crc32((rules_text or "").encode())
    pot = "-" if pot_per_set is None else pot_per_set
    return (
        f"v{SUMMARY_FORMAT}/{updated_at.timestamp():.6f}/{last_change or 0}/{hand_count}"
        f"/{first_dealer}/{rules:x}/{finish_reason or '-'}/{pot}"
    )


class FreshSummary(NamedTuple):
    """A summary computed again and not stored yet: `GameSummary`'s fields as plain values
    (its game's id, then `SUMMARY_FIELDS` in order), with no model built for each game."""

    game_id: int
    version: str
    players: list[int | None]
    sides: list[list[int]]
    winner: int | None
    scores: list[int]
    hands: int
    seat_counts: list[list[int]]
    side_counts: list[list[int]]


def summary_of(game: Game | GameRow, version: str, players: tuple, score: Any) -> FreshSummary:
    counts, winner = game_outcome(score, game.finish_reason)
    pot = None if game.pot_per_set is None else pot_account(score, Pot(per_set=game.pot_per_set))
    seat_counts, side_counts = game_counters(score, counts, winner, pot)
    return FreshSummary(
        game.pk,
        version,
        list(players),
        [list(side) for side in score.rules.sides],
        winner,
        list(score.scores),
        len(score.hands),
        seat_counts,
        side_counts,
    )


def summaries_store(summaries: Sequence[GameSummary | FreshSummary]) -> None:
    """Insert or replace the summaries (one per game). Never raises for a game deleted
    meanwhile: its summary is simply not kept (the rebuild still used it, as it read it)."""
    if not summaries:
        return
    try:
        with transaction.atomic():
            _summaries_upsert(summaries)
    except IntegrityError:
        log.warning("a game went while its summary was written; the next rebuild writes it")


def _summaries_upsert(summaries: Sequence[GameSummary | FreshSummary]) -> None:
    """`bulk_create(update_conflicts=True)` over plain tuples (`rows.rows_write`), JSON as the
    text `summary_text` writes: the ORM's statement for each batch cost more than the scoring."""
    names = ["game_id", *SUMMARY_FIELDS]
    quote = connection.ops.quote_name
    updates = ", ".join(f"{quote(name)} = excluded.{quote(name)}" for name in SUMMARY_FIELDS)
    tail = f"ON CONFLICT ({quote('game_id')}) DO UPDATE SET {updates}"
    values_of = attrgetter(*names)
    json_places = [
        (place, JSON_TEXT[name]) for place, name in enumerate(names) if name in JSON_TEXT
    ]
    rows = []
    for summary in summaries:
        row = list(values_of(summary))
        for place, text in json_places:
            row[place] = text(row[place])
        rows.append(row)
    table = GameSummary._meta.db_table
    rows_write(table, names, rows, tail=tail, json_columns=JSON_TEXT, key="game_id")


def _counter_rows(rows: Any, width: int) -> bool:
    """Whether `rows` are `width` rows of counters: each a list of as many as COUNTERS, each
    an int (never a bool)."""
    return (
        type(rows) is list
        and len(rows) == width
        and all(
            type(row) is list
            and len(row) == len(COUNTERS)
            and all(type(value) is int for value in row)
            for row in rows
        )
    )


def older_format_summaries() -> QuerySet[GameSummary]:
    """Stored summaries of another format than this release's (`SUMMARY_FORMAT`)."""
    return GameSummary.objects.exclude(version__startswith=f"v{SUMMARY_FORMAT}/")


def _older_formats_drop(club: Club, season: Season | None) -> None:
    """Delete the summaries of another format left among the games of `club` (`season`) once
    the counted ones are written anew: those of games that do not count now, which no rebuild
    reads. Then no summary of an older format is left to make the reconciliation rebuild the
    season again (`services.derived_data_stale`)."""
    games = games_where(club=club, season=season).values("pk")
    older_format_summaries().filter(game__in=games).delete()


def summary_readable(summary: Mapping[str, Any]) -> bool:
    """Whether a stored summary (its `SUMMARY_FIELDS` as a dict) is of this format and whole:
    one row of counters per seat and per side. Anything else (a summary written by an
    older release, a counter missing) is computed again from the hands, never misread."""
    players, sides = summary.get("players"), summary.get("sides")
    return (
        str(summary.get("version") or "").startswith(f"v{SUMMARY_FORMAT}/")
        and isinstance(players, list)
        and isinstance(sides, list)
        and _counter_rows(summary.get("seat_counts"), len(players))
        and _counter_rows(summary.get("side_counts"), len(sides))
    )


def summary_counts(summary: Mapping[str, Any]) -> bool:
    """Whether a readable summary's game counts (`derived.game_outcome`: won, or drawn)."""
    return sides_count(summary["side_counts"])


def sides_count(side_counts: Sequence[Sequence[int]]) -> bool:
    """`summary_counts` read off a summary's sides' rows of counters alone (their `games`)."""
    return any(row[_GAMES] for row in side_counts)


def _result(game_id: int, finished_at: Any, day: Any, summary: dict, live: set[int]) -> GameResult:
    return GameResult(
        game_id=game_id,
        finished_at=finished_at,
        day=day,
        # A player deleted since (the seat kept as a guest) is no longer one.
        players=[player if player in live else None for player in summary["players"]],
        sides=summary["sides"],
        winner=summary["winner"],
        scores=summary["scores"],
        hands=summary["hands"],
        seat_counts=summary["seat_counts"],
        side_counts=summary["side_counts"],
    )


def _counted_of(club: int, season: int | None = None) -> QuerySet[Game]:
    return (
        games_versioned(counted_games_qs(club, season))
        .annotate(_day=game_day())
        .values_list("pk", "finished_at", "_day", *_VERSION_FIELDS, *_STORED)
    )


def _counted_rows(club: int, season: int | None) -> list[tuple[Any, ...]]:
    """`counted_results`' one read of the games, by a statement compiled once: building and
    compiling it cost a season's rebuild more than running it."""
    if season is None:
        return one_rows(("counted_results", counted_shape()), _counted_of, club=(club, (1, 2)))
    return one_rows(
        ("counted_results_of_season", counted_shape()),
        _counted_of,
        club=(club, (1, 2)),
        season=(season, (1, 2)),
    )


def counted_results(
    club: Club,
    season: Season | None = None,
    left_out: list[LeftOut] | None = None,
    fresh_out: list[Any] | None = None,
    counted_out: list[int] | None = None,
) -> list[GameResult]:
    """The results of the games that count (`counted_games_qs`) for `club` (and `season`), in
    game order (`derived.game_order`), each read from its summary: the same figures the engine
    gives from the game's hands.

    Summaries that are missing or older than their game are first computed by the engine and
    stored (the only writes: derived data). A game the engine raises on is left out and noted
    in `left_out`; a game that does not count by `derived.game_outcome` is left out. The summary
    of a game that stopped counting is left in place (it is read only while its game counts,
    and only if its version still matches), unless it is of an older format: then it goes. A
    constant number of queries whatever the number of games (more only for games whose summary
    is recomputed: a few per 500 of them).

    `fresh_out`: the summaries computed again (`FreshSummary`) are appended to it instead of
    stored, for the caller to store with the rows they make (a season's stored summaries are
    what its standings rows count: `summaries_of_season_keep`). `counted_out`: the ids of the
    games read as counting, each with its summary now (but those left out), are appended."""
    rows = _counted_rows(club.pk, None if season is None else season.pk)
    split = 3 + len(_VERSION_FIELDS)
    versions: dict[int, str] = {}
    summaries: dict[int, dict] = {}
    # In game order (the rows'): games left out are noted in game order.
    stale: list[GameRow] = []
    rules_read = RulesText()
    for row in rows:
        game_id = row[0]
        version = game_version(*row[3:split])
        stored = dict(zip(SUMMARY_FIELDS, row[split:], strict=True))
        versions[game_id] = version
        if stored["version"] == version and summary_readable(stored):
            summaries[game_id] = stored
        else:
            # The game's columns as `_VERSION_FIELDS` reads them: no model built, no query.
            _updated, _change, _count, first_dealer, rules_text, reason, pot = row[3:split]
            stale.append(GameRow(game_id, rules_read(rules_text), first_dealer, reason, pot))
    # Most of the games to score (a season from nothing): read by the games' own query, with
    # no id sent, in one go.
    among = games_where(club=club, season=season) if 2 * len(stale) > len(rows) else None
    step = len(stale) if among is not None else BATCH
    for start in range(0, len(stale), step):
        games = stale[start : start + step]
        scored = (
            games_scored_fast(games, left_out)
            if among is None
            else games_scored_among(games, among, left_out)
        )
        fresh = [
            summary_of(game, versions[game.pk], players, score) for game, players, score in scored
        ]
        if fresh_out is None:
            summaries_store(fresh)
        else:
            fresh_out.extend(fresh)
        for summary in fresh:
            summaries[summary.game_id] = dict(zip(SUMMARY_FIELDS, summary[1:], strict=True))
    if fresh_out is None or season is None:
        # (A season's rebuild drops them with every summary its rows leave out, when it
        # stores the fresh ones: `summaries_of_season_keep`.)
        _older_formats_drop(club, season)
    if counted_out is not None:
        counted_out.extend(game_id for game_id, *_rest in rows if game_id in summaries)
    live = set(Player.objects.filter(club=club).order_by().values_list("pk", flat=True))
    return [
        _result(game_id, finished_at, day, summaries[game_id], live)
        for game_id, finished_at, day, *_rest in rows
        if game_id in summaries and summary_counts(summaries[game_id])
    ]


def summary_current(columns: Sequence[Any]) -> tuple[str, dict | None]:
    """A game's version now and its stored summary (a dict) if of that version and readable
    (else None), from the values of SUMMARY_COLUMNS read with it (`games_versioned`)."""
    split = len(_VERSION_FIELDS)
    version = game_version(*columns[:split])
    stored = dict(zip(SUMMARY_FIELDS, columns[split:], strict=True))
    current = stored["version"] == version and summary_readable(stored)
    return version, stored if current else None


SUMMARY_COLUMNS = (*_VERSION_FIELDS, *(f"standings_summary__{name}" for name in SUMMARY_FIELDS))


def summaries_of_season_keep(season: Season, kept: Collection[int]) -> None:
    """Delete the stored summaries of `season`'s games but those of `kept`, the games its rows
    were read from (`counted_results`' `counted_out`): a season's rows count exactly its stored
    summaries (what `leagues.standings.delta` reads), so a game they leave out keeps none. Read
    as ids, only those to go deleted: a query of the games that count cost more."""
    kept = set(kept)
    stored = GameSummary.objects.filter(game__in=games_where(season=season).values("pk"))
    gone = [game_id for game_id in stored.values_list("game_id", flat=True) if game_id not in kept]
    for start in range(0, len(gone), BATCH):
        GameSummary.objects.filter(game_id__in=gone[start : start + BATCH]).delete()
