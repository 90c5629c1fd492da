"""One deleted game of a big season (prints its numbers): the admin's delete of one finished
game (the request's part) and the season's standings after it (the part the background thread
or the worker does after the response), whatever path the deletion hands over (an update by
the deleted game, or a rebuild from nothing).

    .venv/bin/python bench/standings_delete.py --hands 10000 --database-url sqlite
    .venv/bin/python bench/standings_delete.py --database-url postgres://postgres@127.0.0.1:5432/kl_bench

The season is bench/standings_bench.py's (nights of 40 finished 20-hand games), its standings
and ratings rebuilt first. Then five games of it, spread over the season, are deleted one at a
time through `scorecards.services.games_delete` with what it hands over on commit caught, and
the standings part of that run alone: wall time, this thread's CPU time and statements, each
the median of the five. (The ratings are rebuilt from nothing after a finished game is deleted
either way, and are not measured here.) Figures are named `standings_delete.<vendor>.<hands>_
hands.…`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import median, per_database, result, vendor_of  # noqa: E402
from bench.standings_bench import build_season, setup_django  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands in the season")
    parser.add_argument(
        "--database-url",
        help="'sqlite' or a postgres:// URL (default: SQLite, then BENCH_DATABASE_URL if set)",
    )
    parser.add_argument("--deletes", type=int, default=5, help="games deleted, one at a time")
    args = parser.parse_args(argv)
    status = per_database(__file__, argv if argv is not None else sys.argv[1:], args.database_url)
    if status is not None:
        return status
    setup_django("" if vendor_of(args.database_url) == "sqlite" else args.database_url)
    from django.db import connection

    from leagues.standings.runner import runner_stop

    runner_stop()  # nothing else runs while the deletions are timed
    club, season = build_season(args.hands, 40, 20, 60)
    if connection.vendor == "postgresql":  # as autovacuum would after so many new rows
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    try:
        deletes_timed(club, season, args.deletes, connection)
    finally:
        from django.contrib.auth import get_user_model

        club.delete()
        get_user_model().objects.filter(username=club.slug).delete()
    return 0


def deletes_timed(club, season, deletes: int, connection) -> None:
    from leagues.standings import rebuild
    from leagues.standings import services as standings_services
    from leagues.standings.models import StandingsSnapshot
    from scorecards.models import Hand
    from scorecards.services import games_delete

    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    hands = Hand.objects.filter(game__season=season).count()
    key = f"standings_delete.{connection.vendor}.{hands}_hands"
    print(f"standings delete bench on {connection.vendor}: {hands:,} hands")
    sent: list[dict] = []
    send = standings_services.derived_data_send

    def caught(**kwargs) -> bool:
        sent.append(kwargs)
        return True

    standings_services.derived_data_send = caught
    games = list(season.games.order_by("pk").values_list("pk", flat=True))
    step = max(1, len(games) // (deletes + 1))
    request: list[tuple[float, float, int]] = []
    update: list[tuple[float, float, int]] = []
    try:
        for number in range(deletes):
            game = season.games.get(pk=games[step * (number + 1)])
            before = StandingsSnapshot.objects.get(season=season).games
            sent.clear()
            request.append(_timed(connection, lambda game=game: games_delete(games=[game])))
            jobs = [(s, None) for s in sent[0].get("season_ids", ())]
            jobs += list((sent[0].get("season_games") or {}).items())
            paths = ["full" if ids is None else "update" for _s, ids in jobs]

            def run(jobs=jobs) -> None:
                for season_id, ids in jobs:
                    rebuild.standings_rebuild(season_id=season_id, game_ids=ids)

            update.append(_timed(connection, run))
            assert StandingsSnapshot.objects.get(season=season).games == before - 1
            print(f"  game {game.pk} deleted: standings by {paths}")
    finally:
        standings_services.derived_data_send = send
    for label, runs in (("the deleting request", request), ("the standings after it", update)):
        took, spent, statements = (median([run[i] for run in runs]) for i in range(3))
        print(
            f"  {label:<24} {took * 1000:8.1f} ms (cpu {spent * 1000:.1f} ms, "
            f"{statements:.0f} statements; median of {len(runs)})"
        )
        name = "request" if runs is request else "standings"
        result(f"{key}.{name}", took * 1000, "ms")
        result(f"{key}.{name}.cpu", spent * 1000, "ms")
        result(f"{key}.{name}.statements", statements, "statements")


def _timed(connection, fn) -> tuple[float, float, int]:
    """`fn()`'s wall time, this thread's CPU time (SQLite runs in this thread too) and
    statements."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started, started_cpu = time.perf_counter(), time.thread_time()
        fn()
        took, spent = time.perf_counter() - started, time.thread_time() - started_cpu
    return took, spent, len(queries.captured_queries)


if __name__ == "__main__":
    sys.exit(main())
