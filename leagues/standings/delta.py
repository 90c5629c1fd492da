"""A season's standings updated by the games that changed alone: each changed game's old
contribution (its stored summary) is taken off the rows of its players and partnerships and
its new one (its summary now) added, so one finished, corrected or abandoned game costs the
same in a season of a hundred games and of a hundred thousand.

This rests on one rule, kept by every writer of a season's rows (this module and the full
rebuild, `leagues.standings.rebuild`, each in the transaction that writes the rows): the stored
summaries of a season's games are exactly what its rows count (`summaries_of_season_keep`).
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
from collections.abc import Iterable, Mapping
from functools import reduce
from operator import or_
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from leagues.clubs.models import Player, Season
from leagues.standings.derived import COUNTERS, PLAYER_ONLY, LeftOut
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerStanding,
    RebuildFailure,
    RebuildKind,
    StandingsSnapshot,
)
from leagues.standings.nights import NIGHT_FIGURES, season_nights
from leagues.standings.runs import line_runs
from leagues.standings.summaries import (
    summaries_now,
    summaries_store,
    summaries_stored,
    summary_counts,
    summary_readable,
)
from scorecards.models import GameStatus
from scorecards.selectors import games_where

# The integer figures a row adds up (the rest, win % and average, follow from them).
_SUMS = (*COUNTERS, "points_for", "points_against")
_PAIR_SUMS = tuple(name for name in _SUMS if name not in PLAYER_ONLY)
# What a line's streak and latest game follow from (`runs.line_runs`).
_LINE = ("streak", "last_game")
# Games applied in one update at most: a round's tables (up to 30 of a 120-player night) and
# more; past it the queued updates run one by one, or the season is rebuilt.
_MERGE_MOST = 100


def standings_update(season_id: int, game_ids: Iterable[int]) -> StandingsSnapshot | None:
    """Apply to the standings of season `season_id` the change of games `game_ids` alone (see
    the module docstring). Returns the snapshot, or None, having written nothing, when the
    update cannot be made this way (the caller then rebuilds from nothing). A few queries per
    game, whatever the size of the season."""
    ids = sorted(set(game_ids))
    started = timezone.now()
    season = Season.objects.filter(pk=season_id).only("pk", "club_id").first()
    if season is None or not ids:
        return None
    with transaction.atomic():
        # A write first: on SQLite the transaction takes the database's write lock here, so
        # this update and any other writer of the season's rows never interleave.
        if not StandingsSnapshot.objects.filter(season=season).update(games=F("games")):
            return None
        snapshot = StandingsSnapshot.objects.select_for_update().get(season=season)
        if RebuildFailure.objects.filter(kind=RebuildKind.STANDINGS, season=season).exists():
            return None
        # The season's other games changed since its rows were last whole are applied too:
        # the updates queued by a round's tables merge into the first to run, and the later
        # ones find their game already counted.
        ids = sorted({*ids, *_waiting_games(season, snapshot.computed_at)})
        left_out: list[LeftOut] = []
        now, fresh = summaries_now(season, ids, left_out)
        if left_out:
            return None
        stored = summaries_stored(ids)
        if not all(summary_readable(summary) for summary in stored.values()):
            return None
        # A game whose stored summary is its summary now (the same version: nothing of it
        # changed since) is already what the rows count: nothing to take off or add.
        counted = {pk for pk, summary in now.items() if stored.get(pk) == summary}
        old = {pk: s for pk, s in stored.items() if summary_counts(s) and pk not in counted}
        new = {pk: s for pk, s in now.items() if summary_counts(s) and pk not in counted}
        seated = {p for s in (*old.values(), *new.values()) for p in s["players"] if p}
        live = set(Player.objects.filter(pk__in=seated).values_list("pk", flat=True))
        players: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(_SUMS, 0))
        pairs: dict[tuple[int, int], dict[str, int]] = defaultdict(
            lambda: dict.fromkeys(_PAIR_SUMS, 0)
        )
        for summaries, sign in ((old, -1), (new, 1)):
            for summary in summaries.values():
                _contribution(summary, sign, live, players, pairs)
        # The summaries now are what the rows will count (the module's rule).
        summaries_store(fresh)
        GameSummary.objects.filter(game_id__in=[pk for pk in ids if pk not in now]).delete()
        _rows_apply(PlayerStanding, season, players, _SUMS, (old, new))
        _rows_apply(PartnershipStanding, season, pairs, _PAIR_SUMS, (old, new))
        if _night_games(season, ids):
            _nights_count_again(season)
        snapshot.games += len(new) - len(old)
        snapshot.hands += sum(s["hands"] for s in new.values()) - sum(
            s["hands"] for s in old.values()
        )
        if not _changed_since(season, snapshot.computed_at, ids):
            # Nothing else of the season changed since the rows were last whole: they are
            # whole as of now (else the games still queued, or the reconciliation, catch up).
            snapshot.computed_at = started
        snapshot.save(update_fields=["games", "hands", "computed_at"])
    return snapshot


def _contribution(
    summary: Mapping[str, Any],
    sign: int,
    live: set[int],
    players: dict[int, dict[str, int]],
    pairs: dict[tuple[int, int], dict[str, int]],
) -> None:
    """Add (`sign` 1) or take off (-1) what one counted game's summary gives each of its
    players and partnerships (as `derived.standings_compute` counts it)."""
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


def _add(row: dict[str, int], counts: Mapping[str, int], pf: int, pa: int, sign: int) -> None:
    for name in row:
        if name == "points_for":
            row[name] += sign * pf
        elif name == "points_against":
            row[name] += sign * pa
        else:
            row[name] += sign * counts[name]


def _derived(row: dict[str, Any]) -> None:
    """The figures that follow from the sums (as `derived.Figures.as_row` makes them)."""
    games, hands = row["games"], row["hands"]
    row["win_pct"] = round(100 * row["wins"] / games, 1) if games else 0.0
    row["avg_points"] = round(row["points_for"] / hands, 2) if hands else 0.0


def _rows_apply(
    model: Any,  # PlayerStanding or PartnershipStanding
    season: Season,
    deltas: dict[Any, dict[str, int]],
    sums: tuple[str, ...],
    changes: tuple[Mapping[int, Mapping[str, Any]], Mapping[int, Mapping[str, Any]]],
) -> None:
    """Add `deltas` ({key: sums}) to the season's rows of `model` (a player's key is its id, a
    partnership's its two ids), their streaks and latest games following `changes` (the
    summaries taken off and added: `runs.line_runs`); a row left with no game goes, a key
    without a row gets one. One statement per row written: a few rows, never the season's."""
    if not deltas:
        return
    pairs = model is PartnershipStanding
    found = model.objects.filter(season=season)
    if pairs:
        # The pairs themselves, not every pair of their first players (dozens each).
        found = found.filter(
            reduce(or_, (Q(first_id=first, second_id=second) for first, second in deltas))
        )
        values = found.values_list("pk", "first_id", "second_id", *_LINE, *sums)
        rows = {(row[1], row[2]): (row[0], row[3:5], row[5:]) for row in values}
    else:
        found = found.filter(player_id__in=list(deltas))
        values = found.values_list("pk", "player_id", *_LINE, *sums)
        rows = {row[1]: (row[0], row[2:4], row[4:]) for row in values}
    prior = {key: line for key, (_pk, line, _sums) in rows.items()}
    lines = line_runs(season, prior, list(deltas), *changes)
    gone: list[int] = []
    new = []
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
            model.objects.filter(pk=pk).update(**figures)
        elif pairs:
            new.append(model(season=season, first_id=key[0], second_id=key[1], **figures))
        else:
            new.append(model(season=season, player_id=key, **figures))
    if gone:
        model.objects.filter(pk__in=gone).delete()
    if new:
        model.objects.bulk_create(new)


def _night_games(season: Season, ids: list[int]) -> bool:
    """Whether any of games `ids` is a table of a night (counted or not)."""
    return any(set(night.games) & set(ids) for night in season_nights(season.pk))


def _nights_count_again(season: Season) -> None:
    """The nights figures of every player of the season, from the nights and the stored
    summaries of their games (what the rows count), written where they changed."""
    nights = season_nights(season.pk)
    night_games = {game_id for night in nights for game_id in night.games}
    seated: dict[int, set[int]] = {}
    for game_id, players, side_counts in GameSummary.objects.filter(
        game_id__in=night_games
    ).values_list("game_id", "players", "side_counts"):
        if any(row["games"] for row in side_counts):
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


def _waiting_games(season: Season, since: Any) -> list[int]:
    """The games of the season changed since `since` in a way its standings see, when they are
    few enough to apply in one update (none past _MERGE_MOST: those wait for their own)."""
    matters = Q(status=GameStatus.FINISHED) | Q(standings_summary__isnull=False)
    changed = games_where(season=season).filter(updated_at__gte=since).filter(matters)
    ids = list(changed.values_list("pk", flat=True)[: _MERGE_MOST + 1])
    return ids if len(ids) <= _MERGE_MOST else []


def _changed_since(season: Season, since: Any, handled: list[int]) -> bool:
    """Whether a game of the season other than `handled` changed since `since` in a way its
    standings see (a finished game, or one they counted: it has a summary)."""
    matters = Q(status=GameStatus.FINISHED) | Q(standings_summary__isnull=False)
    # A confirmation touches its game's updated_at too.
    changed = games_where(season=season).filter(updated_at__gte=since).exclude(pk__in=handled)
    return changed.filter(matters).exists()
