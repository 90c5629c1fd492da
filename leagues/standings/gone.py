"""Games deleted from a season that has standings: their part taken off its rows by the next
update (`leagues.standings.delta`), a few statements per game, not by a rebuild from nothing.

A game's stored summary (what the rows count of it) goes with the game. So the transaction that
deletes games, just before they go (`scorecards.hooks.games_deleted`), keeps the summaries of
those the rows count on their season's snapshot (`StandingsSnapshot.gone`), and the update it
queues after its commit takes them off the rows of their players and partnerships and clears
them: the deleting request reads a few rows and writes one, and the season's work runs after
the response like a finished game's. Until then the rows count the season's stored summaries
and the ones kept here (the delta's rule).

No night's figure changes: a night's table cannot be deleted (its table protects it), and a
night deleted takes its tables' games with it only while none has a hand.

A season with no snapshot, a summary that cannot be read, or more deleted games than one
update applies is rebuilt from nothing instead, as is any season whose update cannot be made. A
rebuild from nothing clears what is kept here; one that was reading the games while some were
deleted stores nothing (`deleted_since`): it may have counted them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import F

from kaiser_league.query_memo import row_update
from leagues.standings.models import StandingsSnapshot
from leagues.standings.summaries import summary_counts, summary_readable
from leagues.standings.summaries_read import summaries_stored

# How many deletions of games its snapshot counted (None: no snapshot), annotated on a Season
# query: read by a rebuild before it reads the games (`deleted_since`).
DELETIONS = F("standings__deletions")
# Deleted games kept on one season's snapshot at most (an update applies them all at once);
# past it the season is rebuilt from nothing.
GONE_MOST = 100


def games_gone_keep(
    season_games: Mapping[int, Iterable[int]],
) -> tuple[list[int], dict[int, list[int]]]:
    """In the transaction that deletes games `season_games` ({season: game ids}), before they
    go: keep on each season's snapshot the stored summaries of those its rows count, and count
    the deletion. Returns the seasons to rebuild from nothing, and those to update by their
    deleted games ({season: ids}); a season whose rows count none of them (nor any deleted
    before) needs neither. A few statements per season, whatever its size."""
    full: list[int] = []
    update: dict[int, list[int]] = {}
    for season_id, game_ids in sorted(season_games.items()):
        ids = sorted(set(game_ids))
        locked = StandingsSnapshot.objects.select_for_update().filter(season_id=season_id)
        snapshot = locked.only("pk", "gone", "deletions").first()
        if snapshot is None:
            full.append(season_id)  # never counted, or stale already: rebuilt from nothing
            continue
        kept = gone_of(snapshot)
        stored = summaries_stored(ids)
        counted = {pk: s for pk, s in stored.items() if summary_readable(s) and summary_counts(s)}
        if (
            kept is None
            or not all(summary_readable(s) for s in stored.values())
            or len(kept) + len(counted) > GONE_MOST
        ):
            full.append(season_id)
        elif counted or kept:
            # (Kept already: a deletion's update was lost. This one takes them off too.)
            update[season_id] = ids
            kept.update(counted)
            snapshot.gone = [{"game_id": pk, **summary} for pk, summary in sorted(kept.items())]
        # A rebuild reading the games meanwhile may have counted these: it stores nothing.
        snapshot.deletions += 1
        row_update(snapshot, ("gone", "deletions"))
    return full, update


def gone_of(snapshot: StandingsSnapshot) -> dict[int, dict[str, Any]] | None:
    """The summaries of deleted games the snapshot's rows still count ({game: summary}), or
    None when they cannot be read (the season is then rebuilt from nothing)."""
    if snapshot.gone is None:
        return {}
    if not isinstance(snapshot.gone, list):
        return None
    kept: dict[int, dict[str, Any]] = {}
    for item in snapshot.gone:
        if not isinstance(item, dict) or type(item.get("game_id")) is not int:
            return None
        summary = {name: value for name, value in item.items() if name != "game_id"}
        if not summary_readable(summary) or not summary_counts(summary):
            return None
        kept[item["game_id"]] = summary
    return kept


def deleted_since(snapshot: StandingsSnapshot | None, seen: int | None) -> bool:
    """Whether games of the season were deleted since a rebuild read `seen` (`DELETIONS`): a rebuild
    that read the games meanwhile may have counted a deleted one, and what the season keeps of
    them is for the update its deletion queued, so the rebuild stores nothing."""
    return snapshot is not None and snapshot.deletions != (seen or 0)
