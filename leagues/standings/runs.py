"""The figures of a standings line that follow from the order of its games, not their sum: the
streak, the day last played and the latest game (`figures.Figures.as_row`), for one game's
update (`leagues.standings.delta`).

A line that only gains games later than its latest (the common case: a game just finished by
players whose earlier games are all counted) takes them on top of what it stores, whatever the
size of the season. Any other line (a game corrected, taken off, or dated before the line's
latest) is read again from the season's stored summaries: its games, latest first, from the
players' seats, until its run ends.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet

from leagues.clubs.models import Season
from leagues.standings.derived import COUNTER_AT, game_day_of, game_order, streak_after
from leagues.standings.statements import ids_rows
from leagues.standings.summaries import summary_counts
from leagues.standings.summaries_read import summaries_stored
from scorecards.selectors import games_seated_ordered, games_where

# Where a summary's row of counters holds a game's draws and wins.
_DRAWS, _WINS = COUNTER_AT["draws"], COUNTER_AT["wins"]
# Summaries read per step when walking a streak back: most runs end within a few games.
_STREAK_STEP = 32
# Game ids read per step of that walk (plain integers, cheap beside the sort behind them).
_STREAK_IDS = 512

Line = tuple[int, Any, int | None]  # streak, day last played, latest game


def line_runs(
    season: Season,
    prior: Mapping[Any, tuple[int, int | None]],
    keys: list[Any],
    old: Mapping[int, Mapping[str, Any]],
    new: Mapping[int, Mapping[str, Any]],
) -> dict[Any, Line]:
    """The streak, day last played and latest game of each line `keys` (a player's id, a
    partnership's two ids) once the summaries `old` ({game: summary}) are taken off the rows
    and `new` added. `prior`: each line's stored (streak, latest game), for the lines that
    have a row."""
    members = {key: _members(key) for key in keys}
    gains: dict[Any, list[tuple[int, bool | None]]] = defaultdict(list)
    walk: set[Any] = set()
    for key in keys:
        if any(_result_of(summary, members[key])[0] for summary in old.values()):
            walk.add(key)
            continue
        for pk, summary in new.items():
            sat, result = _result_of(summary, members[key])
            if sat:
                gains[key].append((pk, result))
    wanted = {pk for games in gains.values() for pk, _result in games}
    wanted |= {line[1] for line in prior.values() if line[1] is not None}
    order = {
        pk: (game_day_of(played_on, finished_at), finished_at, pk)
        for pk, played_on, finished_at in ids_rows("runs_order", _order_of, sorted(wanted))
    }
    lines: dict[Any, Line] = {}
    for key in keys:
        streak, latest = prior.get(key, (0, None))
        games = sorted(gains.get(key, []), key=lambda game: order.get(game[0], ()))
        if (
            key in walk
            or not games
            or any(pk not in order for pk, _result in games)
            or (key in prior and (latest not in order or order[games[0][0]] <= order[latest]))
        ):
            walk.add(key)
            continue
        for _pk, result in games:
            streak = streak_after(streak, result)
        last = games[-1][0]
        lines[key] = (streak, order[last][0], last)
    if walk:
        lines.update(_lines_walked(season, sorted(walk, key=repr)))
    return lines


def _order_of(ids: list[int]) -> QuerySet[Any]:
    return games_where(ids=ids).order_by().values_list("pk", "played_on", "finished_at")


def _members(key: Any) -> tuple[int, ...]:
    return (key,) if isinstance(key, int) else tuple(key)


def _result_of(summary: Mapping[str, Any], together: tuple[int, ...]) -> tuple[bool, bool | None]:
    """(whether `together`, one player or two partners, sat on one side of this game, and
    then its result for them: won True, lost False, drawn None). `summary`: the game's
    stored summary (`summaries_stored`)."""
    players, sides = summary["players"], summary["sides"]
    seat_counts, side_counts = summary["seat_counts"], summary["side_counts"]
    for side, side_seats in enumerate(sides):
        at = [players[seat] for seat in side_seats]
        if all(player in at for player in together):
            counts = (
                seat_counts[side_seats[at.index(together[0])]]
                if len(together) == 1
                else side_counts[side]
            )
            return True, None if counts[_DRAWS] else bool(counts[_WINS])
    return False, None


def _lines_walked(season: Season, keys: list[Any]) -> dict[Any, Line]:
    """The lines of players (ids) or partnerships (pairs of ids) as `figures.Figures.as_row`
    reads them, from the season's stored summaries (what the rows count): their games, latest
    first, read a few at a time from the players' seats until every run has ended (a run's
    first game is the latest). The players share one walk; a partnership walks the games
    where both sat (a pair that rarely plays together reads its few games, not every game of
    either partner)."""
    players = [key for key in keys if isinstance(key, int)]
    walks: list[tuple[list[int], bool, list[Any]]] = []
    if players:
        walks.append((players, False, players))
    walks.extend((list(key), True, [key]) for key in keys if not isinstance(key, int))
    lines: dict[Any, Line] = {}
    for ids, together, walked in walks:
        games = games_seated_ordered(
            season.pk, ids, game_order("game__", latest_first=True), together=together
        )
        lines.update(_walk(games, walked))
    return lines


def _walk(games: Any, keys: list[Any]) -> dict[Any, Line]:
    """The lines of `keys` walking `games` ((game id, day played, finished time), latest
    first, a game perhaps repeated)."""
    members = {key: _members(key) for key in keys}
    runs: dict[Any, int] = dict.fromkeys(keys, 0)
    last: dict[Any, bool | None] = {}
    latest: dict[Any, tuple[Any, int]] = {}
    open_ = set(keys)
    seen: set[int] = set()
    order: list[tuple[Any, ...]] = []
    day_of: dict[int, Any] = {}
    start = 0
    while open_:
        if start >= len(order):
            # The ids come many at a time (each read sorts the players' games again), their
            # summaries a few at a time (most runs end within a few games).
            read = list(games[len(order) : len(order) + _STREAK_IDS])
            order.extend(read)
            if not read:
                break
        batch = order[start : start + _STREAK_STEP]
        start += len(batch)
        for pk, played_on, finished_at in batch:
            day_of[pk] = game_day_of(played_on, finished_at)
        ids = [pk for pk in dict.fromkeys(pk for pk, _day, _at in batch) if pk not in seen]
        seen.update(ids)
        stored = summaries_stored(ids)
        for pk in ids:
            summary = stored.get(pk)
            # Only a game the rows count has a summary (`leagues.standings.delta`'s rule); one
            # stored but not counted (`summary_counts`) is no game of a run.
            if summary is None or not summary_counts(summary):
                continue
            for key in list(open_):
                sat, result = _result_of(summary, members[key])
                if not sat:
                    continue
                if key not in last:
                    last[key] = result
                    latest[key] = (day_of[pk], pk)
                    if result is None:  # the latest game drawn: no run
                        open_.discard(key)
                        continue
                elif result is not last[key]:
                    open_.discard(key)
                    continue
                runs[key] += 1
    return {
        key: (run if last.get(key) else -run, *latest.get(key, (None, None)))
        for key, run in runs.items()
    }
