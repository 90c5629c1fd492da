"""A season's standings updated by the games that changed alone: each changed game's old
contribution (its stored summary) is taken off the rows of its players and partnerships and
its new one (its summary now) added, so one finished, corrected, abandoned or deleted game
costs the same in a season of a hundred games and of a hundred thousand.

This rests on one rule, kept by every writer of a season's rows (this module and the full
rebuild, `leagues.standings.rebuild`, each in the transaction that writes the rows): the stored
summaries of a season's games, with those its snapshot keeps of its games deleted since
(`leagues.standings.gone`), are exactly what its rows count (`summaries_of_season_keep`).
Whenever that cannot be read (no snapshot yet, a summary of another format, a game the engine
cannot score, a failure on record) the update gives up and the caller rebuilds from nothing,
which is also the proof: tests/test_standings_rebuild_property.py holds the two equal.

A line's streak, day last played and latest game follow from its stored ones when it only
gains later games, and are read again from its latest games backwards otherwise
(`leagues.standings.runs`); the nights figures are counted again only when a changed game is a
night's table.

Updates queued one by one merge: an update also applies the season's other games changed since
its rows were last whole (a round's tables, each queued by its own last hand), and a game whose
stored summary is already its summary now is skipped, so the later updates of that round find
nothing left to write.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, transaction
from django.db.models import Exists, F, QuerySet
from django.utils import timezone

from kaiser_league.query_memo import row_update
from leagues.clubs.models import Player, Season
from leagues.standings.derived import COUNTER_AT, COUNTERS, PLAYER_ONLY, LeftOut
from leagues.standings.gone import gone_of
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerStanding,
    RebuildFailure,
    RebuildKind,
    StandingsSnapshot,
)
from leagues.standings.nights import NIGHT_FIGURES, SeasonNight, season_nights
from leagues.standings.runs import line_runs
from leagues.standings.statements import (
    TIMES,
    change_seen,
    commit_unwaited,
    counted_shape,
    ids_rows,
    one_rows,
    rows_add,
    rows_set,
)
from leagues.standings.summaries import (
    sides_count,
    summaries_store,
    summary_counts,
    summary_readable,
)
from leagues.standings.summaries_read import summaries_now, summaries_stored
from scorecards.hooks import ANNOTATION_PREFIX, place_annotations
from scorecards.selectors import games_where

# The integer figures a row adds up (the rest, win % and average, follow from them).
_SUMS = (*COUNTERS, "points_for", "points_against")
_PAIR_SUMS = tuple(name for name in _SUMS if name not in PLAYER_ONLY)
# What a line's streak and latest game follow from (`runs.line_runs`).
_LINE = ("streak", "last_game")
# Games applied in one update at most: a round's tables (up to 30 of a 120-player night) and
# more; past it the queued updates run one by one, or the season is rebuilt.
_MERGE_MOST = 100


def _season(season_id: int) -> QuerySet[Season]:
    return Season.objects.filter(pk=season_id).only("pk", "club_id").order_by()[:1]


def season_of(season_id: int) -> Season | None:
    """Season `season_id` (its id and club alone), or None when it is gone."""
    found = one_rows("season_of", _season, values=False, season_id=(season_id, (1, 2)))
    return found[0] if found else None


def _snapshot_locked(season_id: int) -> QuerySet[StandingsSnapshot]:
    """The season's snapshot, locked, with its season's club and whether a failure of its
    standings is on record."""
    failed = RebuildFailure.objects.filter(kind=RebuildKind.STANDINGS, season_id=season_id)
    snapshots = StandingsSnapshot.objects.select_for_update(of=("self",))
    snapshots = snapshots.filter(season_id=season_id)
    return snapshots.annotate(_failed=Exists(failed), _club=F("season__club_id"))


def _snapshot_touch(season_id: int) -> bool:
    """Write the season's snapshot unchanged (a write first: on SQLite it takes the
    database's write lock, on PostgreSQL the row's); whether it has one."""
    table = connection.ops.quote_name(StandingsSnapshot._meta.db_table)
    games, season = (connection.ops.quote_name(name) for name in ("games", "season_id"))
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {games} = {games} WHERE {season} = %s", [season_id])
        return cursor.rowcount > 0


def standings_update(season_id: int, game_ids: Iterable[int]) -> StandingsSnapshot | None:
    """Apply to the standings of season `season_id` the change of games `game_ids` alone (see
    the module docstring). Returns the snapshot, or None, having written nothing, when the
    update cannot be made this way (the caller then rebuilds from nothing). A few statements
    per game (compiled once: `statements`), whatever the size of the season."""
    ids = sorted(set(game_ids))
    started = timezone.now()
    if not ids:
        return None
    with transaction.atomic():
        # A write first: on SQLite the transaction takes the database's write lock here, so
        # this update and any other writer of the season's rows never interleave. (A season
        # gone has no snapshot.)
        if not _snapshot_touch(season_id):
            return None
        found = one_rows(
            "standings_snapshot", _snapshot_locked, values=False, season_id=(season_id, (1, 2))
        )
        snapshot = found[0] if found else None
        if snapshot is None or snapshot._failed:
            return None
        commit_unwaited()
        # The season as `season_of` reads it (its id and club), read with its snapshot.
        season = Season.from_db(DEFAULT_DB_ALIAS, ["id", "club_id"], [season_id, snapshot._club])
        # The season's other games changed since its rows were last whole are applied too:
        # the updates queued by a round's tables merge into the first to run, and the later
        # ones find their game already counted.
        # Deleted games the rows still count (`gone`) are taken off too: no summary of theirs
        # is left but the one their snapshot keeps.
        kept = gone_of(snapshot)
        if kept is None:
            return None
        ids = sorted({*ids, *_waiting_games(season, snapshot.computed_at), *kept})
        left_out: list[LeftOut] = []
        now, fresh = summaries_now(season, ids, left_out)
        if left_out or any(pk in now for pk in kept):
            return None
        stored = {**summaries_stored(ids), **kept}
        if not all(summary_readable(summary) for summary in stored.values()):
            return None
        # A game whose stored summary is its summary now (the same version: nothing of it
        # changed since) is already what the rows count: nothing to take off or add.
        counted = {pk for pk, summary in now.items() if stored.get(pk) == summary}
        old = {pk: s for pk, s in stored.items() if summary_counts(s) and pk not in counted}
        new = {pk: s for pk, s in now.items() if summary_counts(s) and pk not in counted}
        seated = sorted({p for s in (*old.values(), *new.values()) for p in s["players"] if p})
        live = {row[0] for row in ids_rows("delta_live", _players, seated)}
        players: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_SUMS, 0))
        pairs: dict[tuple[int, int], dict[str, int]] = defaultdict(
            lambda: dict.fromkeys(_PAIR_SUMS, 0)
        )
        for summaries, sign in ((old, -1), (new, 1)):
            for summary in summaries.values():
                _contribution(summary, sign, live, players, pairs)
        # The summaries now are what the rows will count (the module's rule).
        summaries_store(fresh)
        gone = [pk for pk in ids if pk not in now]
        if gone:
            GameSummary.objects.filter(game_id__in=gone).delete()
        player_rows = _rows_read(PlayerStanding, season, players)
        pair_rows = _rows_read(PartnershipStanding, season, pairs)
        # Every line's streak and latest game at once (one read of the games' order).
        prior = {key: row[1] for rows in (player_rows, pair_rows) for key, row in rows.items()}
        lines = line_runs(season, prior, [*players, *pairs], old, new)
        _rows_apply(PlayerStanding, season, players, _SUMS, player_rows, lines)
        _rows_apply(PartnershipStanding, season, pairs, _PAIR_SUMS, pair_rows, lines)
        nights = _nights_of(season, ids)
        if nights is not None:
            _nights_count_again(season, nights)
        snapshot.games += len(new) - len(old)
        snapshot.hands += sum(s["hands"] for s in new.values()) - sum(
            s["hands"] for s in old.values()
        )
        if not _changed_since(season, snapshot.computed_at, ids):
            # Nothing else of the season changed since the rows were last whole: they are
            # whole as of now (else the games still queued, or the reconciliation, catch up).
            snapshot.computed_at = started
        snapshot.gone = None
        row_update(snapshot, ("games", "hands", "computed_at", "gone"))
    return snapshot


def _players(ids: list[int]) -> QuerySet[Any]:
    return Player.objects.filter(pk__in=ids).order_by().values_list("pk")


def _contribution(
    summary: Mapping[str, Any],
    sign: int,
    live: set[int],
    players: dict[int, dict[str, int]],
    pairs: dict[tuple[int, int], dict[str, int]],
) -> None:
    """Add (`sign` 1) or take off (-1) what one counted game's summary gives each of its
    players and partnerships (as `figures.standings_compute` counts it)."""
    scores = summary["scores"]
    for side, side_seats in enumerate(summary["sides"]):
        points_for = scores[side]
        against = sum(s for other, s in enumerate(scores) if other != side)
        by_seat = [summary["players"][seat] for seat in side_seats]
        for seat, player in zip(side_seats, by_seat, strict=True):
            if player in live:
                _add(players[player], summary["seat_counts"][seat], points_for, against, sign)
        if len(by_seat) == 2 and by_seat[0] in live and by_seat[1] in live:
            key = (min(by_seat), max(by_seat))
            _add(pairs[key], summary["side_counts"][side], points_for, against, sign)


def _add(row: dict[str, int], counts: Sequence[int], pf: int, pa: int, sign: int) -> None:
    for name in row:
        if name == "points_for":
            row[name] += sign * pf
        elif name == "points_against":
            row[name] += sign * pa
        else:
            row[name] += sign * counts[COUNTER_AT[name]]


def _derived(row: dict[str, Any]) -> None:
    """The figures that follow from the sums (as `figures.Figures.as_row` makes them)."""
    games, hands = row["games"], row["hands"]
    row["win_pct"] = round(100 * row["wins"] / games, 1) if games else 0.0
    row["avg_points"] = round(row["points_for"] / hands, 2) if hands else 0.0


def _rows_of(model: Any, ids: list[int], season_id: int) -> QuerySet[Any]:
    """The season's rows of `model` of players `ids` (a partnership's: both of them among
    `ids`), as (id, key, line, sums)."""
    found = model.objects.filter(season_id=season_id).order_by()
    if model is PartnershipStanding:
        found = found.filter(first_id__in=ids, second_id__in=ids)
        return found.values_list("pk", "first_id", "second_id", *_LINE, *_PAIR_SUMS)
    return found.filter(player_id__in=ids).values_list("pk", "player_id", *_LINE, *_SUMS)


def _rows_read(
    model: Any, season: Season, deltas: dict[Any, dict[str, int]]
) -> dict[Any, tuple[int, tuple[Any, ...], tuple[int, ...]]]:
    """The season's rows of `model` (PlayerStanding or PartnershipStanding) of the keys of
    `deltas` (a player's key is its id, a partnership's its two ids): {key: (id, line, sums)}.
    A few rows, never the season's."""
    if not deltas:
        return {}
    pairs = model is PartnershipStanding
    members = sorted({p for key in deltas for p in ((key,) if not pairs else key)})
    read = ids_rows(
        ("delta_rows", model),
        lambda ids, season_id: _rows_of(model, ids, season_id),
        members,
        season_id=(season.pk, (1, 2)),
    )
    if pairs:
        rows = {(row[1], row[2]): (row[0], row[3:5], row[5:]) for row in read}
    else:
        rows = {row[1]: (row[0], row[2:4], row[4:]) for row in read}
    return {key: row for key, row in rows.items() if key in deltas}


def _rows_apply(
    model: Any,  # PlayerStanding or PartnershipStanding
    season: Season,
    deltas: dict[Any, dict[str, int]],
    sums: tuple[str, ...],
    rows: dict[Any, tuple[int, tuple[Any, ...], tuple[int, ...]]],
    lines: Mapping[Any, tuple[int, Any, int | None]],
) -> None:
    """Add `deltas` ({key: sums}) to the season's `rows` of `model` (`_rows_read`), their
    streaks and latest games now `lines` (`runs.line_runs`); a row left with no game goes, a
    key without a row gets one. A few statements: a few rows, never the season's."""
    if not deltas:
        return
    pairs = model is PartnershipStanding
    gone: list[int] = []
    new: list[dict[str, Any]] = []
    changed: list[tuple[Any, ...]] = []
    names = (*sums, "win_pct", "avg_points", "streak", "last_played", "last_game")
    for key, delta in deltas.items():
        pk, _line, current = rows.get(key, (None, (), (0,) * len(sums)))
        figures: dict[str, Any] = {
            name: value + delta[name] for name, value in zip(sums, current, strict=True)
        }
        if figures["games"] <= 0:
            if pk is not None:
                gone.append(pk)
            continue
        _derived(figures)
        figures["streak"], figures["last_played"], figures["last_game"] = lines[key]
        if pk is not None:
            changed.append((pk, *(figures[name] for name in names)))
        elif pairs:
            new.append({"season_id": season.pk, "first_id": key[0], "second_id": key[1]})
        else:
            new.append({"season_id": season.pk, "player_id": key})
        if pk is None:
            new[-1].update(figures)
    rows_set(model, names, changed)
    if gone:
        model.objects.filter(pk__in=gone).delete()
    rows_add(model, new)


def _tables(ids: list[int]) -> QuerySet[Any]:
    table = place_annotations()[_TABLE]
    games = games_where(ids=ids).annotate(_table=table).filter(_table__isnull=False)
    return games.order_by().values_list("pk")[:1]


_TABLE = f"{ANNOTATION_PREFIX}table"


def _nights_of(season: Season, ids: list[int]) -> Sequence[SeasonNight] | None:
    """The season's nights when any of games `ids` is a table of one (counted or not), else
    None. A game that is no tournament table at all (the table context tells, in a statement
    compiled once) is no night's: the nights are not read then."""
    if _TABLE in place_annotations() and not ids_rows(
        ("delta_tables", counted_shape()), _tables, ids
    ):
        return None
    nights = season_nights(season.pk)
    return nights if any(set(night.games) & set(ids) for night in nights) else None


def _nights_count_again(season: Season, nights: Sequence[SeasonNight]) -> None:
    """The nights figures of every player of the season, from its `nights` and the stored
    summaries of their games (what the rows count), written where they changed."""
    night_games = {game_id for night in nights for game_id in night.games}
    seated: dict[int, set[int]] = {}
    for game_id, players, side_counts in GameSummary.objects.filter(
        game_id__in=night_games
    ).values_list("game_id", "players", "side_counts"):
        if sides_count(side_counts):
            seated[game_id] = {player for player in players if player is not None}
    figures: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(NIGHT_FIGURES, 0))
    for night in nights:
        played: set[int] = set()
        for game_id in night.games:
            played |= seated.get(game_id, set())
        for player in played:
            figures[player]["nights"] += 1
            figures[player]["night_wins"] += player in night.winners
    changed = []
    for row in PlayerStanding.objects.filter(season=season):
        want = figures.get(row.player_id) or dict.fromkeys(NIGHT_FIGURES, 0)
        if (row.nights, row.night_wins) != (want["nights"], want["night_wins"]):
            row.nights, row.night_wins = want["nights"], want["night_wins"]
            changed.append(row)
    PlayerStanding.objects.bulk_update(changed, list(NIGHT_FIGURES))


def _changed(season_id: int, since: Any) -> QuerySet[Any]:
    """The games of the season changed since `since` (when its rows were last whole) in a way
    its standings see: a finished game, or one they counted (it has a summary)."""
    return games_where(season=season_id).filter(updated_at__gte=since).filter(change_seen())


def _waiting_games(season: Season, since: Any) -> list[int]:
    """The games of the season changed since `since` (`_changed`), when they are few enough
    to apply in one update (none past _MERGE_MOST: those wait for their own)."""
    found = one_rows(
        "delta_waiting",
        lambda season_id, since: _changed(season_id, since).values_list("pk")[: _MERGE_MOST + 1],
        season_id=(season.pk, (1, 2)),
        since=(since, TIMES),
    )
    return [row[0] for row in found] if len(found) <= _MERGE_MOST else []


def _changed_since(season: Season, since: Any, handled: list[int]) -> bool:
    """Whether a game of the season other than `handled` changed since `since` (`_changed`)."""
    return bool(
        ids_rows(
            "delta_changed_since",
            lambda ids, season_id, since: (
                _changed(season_id, since).exclude(pk__in=ids).values_list("pk")[:1]
            ),
            handled,
            season_id=(season.pk, (1, 2)),
            since=(since, TIMES),
        )
    )
