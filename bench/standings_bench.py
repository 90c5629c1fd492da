"""Standings and ratings of a big season (prints its numbers): the full rebuilds, and how long
after the hand that finishes one more game the club's ratings include that game.

    .venv/bin/python bench/standings_bench.py        # 24,000 and 200,000 hands: SQLite, then
                                                     # PostgreSQL if BENCH_DATABASE_URL is set
    .venv/bin/python bench/standings_bench.py --hands 200000 --database-url sqlite
    .venv/bin/python bench/standings_bench.py --database-url postgres://postgres@127.0.0.1:5432/kl_bench

The season is built fast with bulk_create (not through the web or the hand services): nights of
40 tables x 20 hands, each table a finished 4-seat standard game of exactly 20 hands, players
drawn from a pool of 160 and seated at random each night. Each 20-hand game is one of a pool of
sequences found once by the rules engine (random plausible hands, kept only when the game ends on
hand 20), so every stored hand is one the engine accepts. SQLite is a fresh file in a temporary
directory; on PostgreSQL the bench club is deleted at the end.

"A finished game updates ratings": one more game of the season is started and played through
the hand service (`hand_record`, what the hand endpoint calls) with Celery eager (the embedded
default); the clock runs from the start of the hand that finishes it until the club's ratings
have a point for that game, whatever path gets them there (the submit hands the game to the
background thread, `leagues.standings.runner`, which updates the season by that game alone).
"One finished game's update" (bench/standings_update.py) times that thread's work alone, beside
a raw read of every hand of the season, which the rebuild from nothing is measured against:
`rebuild_from_nothing_ratio` is the best of five rebuilds from nothing (everything they write
wiped before each) over the best of five raw reads, taken in turns in this process once it
has run them; `rebuild_from_nothing_first_ratio` is the first rebuild of the process, which
also pays what a process pays once (imports, the first compile of each query).
The baseline is `/healthz` through the Django test client in the same process. Figures are
named `standings.<vendor>.<hands>_hands.…`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import median, per_database, result, vendor_of  # noqa: E402
from bench.standings_update import (  # noqa: E402
    finish_one_more,
    rate_one_more,
    raw_read,
    update_one_more,
)

QUICK = os.environ.get("BENCH_QUICK") == "1"
# Rebuilds from nothing and raw reads taken in turns, the best of each kept: a server's reads
# on this 2-core machine vary by a third from one to the next.
_TURNS = 5


def setup_django(database_url: str = "") -> None:
    """Django on `database_url` (a postgres:// URL), or on a fresh SQLite file when empty, with
    Celery eager (what the embedded default runs), migrated."""
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def sequence_pool(size: int, hands: int, seed: int = 4) -> list[tuple[list[Any], Any]]:
    """`size` hand sequences of standard 4-seat games that end exactly on hand `hands`."""
    from leagues.demo import plausible_hand
    from scorecards.rules import game_play, game_score, rules_build

    rules = rules_build({"preset": "standard"})
    rng = random.Random(seed)
    pool: list[tuple[list[Any], Any]] = []
    while len(pool) < size:
        game = game_score(rules, [], 0)
        chosen: list[Any] = []
        for number in range(1, hands + 1):
            last = number == hands
            for _try in range(400):
                hand = plausible_hand(rng, rules)
                after = game_play(game, hand)
                if after.finished == last:
                    game, chosen = after, [*chosen, hand]
                    break
            else:
                break
        if len(chosen) == hands:
            pool.append((chosen, game))
    return pool


def build_season(hands_total: int, tables: int, per_table: int, pool_size: int):
    """Bulk-create a club, 160 players, a season and its games, seats and hands."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from leagues.clubs.models import Club, Player, Season, name_key
    from scorecards.models import Game, GameStatus, Hand, Seat
    from scorecards.rules import rules_build

    rules = rules_build({"preset": "standard"}).as_dict()
    pool = sequence_pool(pool_size, per_table)
    nights = max(1, hands_total // (tables * per_table))
    rng = random.Random(7)
    slug = f"bench-{uuid.uuid4().hex[:8]}"
    with transaction.atomic():
        owner = get_user_model().objects.create_user(slug)
        club = Club.objects.create(name=f"Bench {slug}", slug=slug)
        club.memberships.create(user=owner, role="owner")
        players = Player.objects.bulk_create(
            # bulk_create skips save(), which keeps name_key.
            Player(club=club, name=f"Player {i:03}", name_key=name_key(f"Player {i:03}"))
            for i in range(tables * 4)
        )
        season = Season.objects.create(
            club=club, name="bench", starts_on=datetime.date(2026, 9, 1), rules={}
        )
    start = timezone.now() - datetime.timedelta(days=nights + 1)
    for night in range(nights):
        seated = players[:]
        rng.shuffle(seated)
        with transaction.atomic():
            games = []
            chosen = []
            for table in range(tables):
                sequence, score = pool[rng.randrange(len(pool))]
                chosen.append((sequence, score))
                games.append(
                    Game(
                        club=club,
                        season=season,
                        table_label=f"Table {table + 1}",
                        rules=rules,
                        first_dealer=0,
                        status=GameStatus.FINISHED,
                        winner=score.winner,
                        finish_reason=score.reason or "",
                        finished_at=start + datetime.timedelta(days=night, minutes=table),
                        # As every game started in the app; only an import may have none.
                        played_on=(start + datetime.timedelta(days=night)).date(),
                        scores=list(score.scores),
                        target=score.target,
                        hand_count=len(sequence),
                    )
                )
            games = Game.objects.bulk_create(games)
            seats, rows = [], []
            for table, (game, (sequence, score)) in enumerate(zip(games, chosen, strict=True)):
                for seat in range(4):
                    player = seated[table * 4 + seat]
                    seats.append(Seat(game=game, seat=seat, name=player.name, player=player))
                for hand, scored in zip(sequence, score.hands, strict=True):
                    rows.append(
                        Hand(
                            game=game,
                            number=scored.number,
                            record=hand.to_dict(),
                            dealer=scored.dealer,
                            thrown_in=scored.thrown_in,
                            bidder=scored.bidder,
                            bid=scored.bid,
                            kind=scored.kind or "",
                            tricks=list(scored.tricks) if scored.tricks else None,
                            five_hearts=hand.five_hearts,
                            three_spades=hand.three_spades,
                            idempotency_key=uuid.uuid4(),
                        )
                    )
            Seat.objects.bulk_create(seats)
            Hand.objects.bulk_create(rows, batch_size=2000)
    return club, season


def timed(label: str, fn, key: str = "", cpu: list[float] | None = None) -> float:
    """Run `fn`, print and record its wall time (and this thread's CPU time, which a loaded
    machine does not inflate: SQLite runs in this thread too), appended to `cpu` if given."""
    started, started_cpu = time.perf_counter(), time.thread_time()
    fn()
    elapsed, spent = time.perf_counter() - started, time.thread_time() - started_cpu
    print(f"  {label:<44} {elapsed:8.3f} s  (cpu {spent:.3f} s)")
    if key:
        result(key, elapsed, "s")
        result(f"{key}.cpu", spent, "s")
    if cpu is not None:
        cpu.append(spent)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands",
        type=int,
        action="append",
        help="hands in the season (repeatable; default 24,000 and 200,000, or 10,000 alone "
        "with BENCH_QUICK=1)",
    )
    parser.add_argument(
        "--database-url",
        help="'sqlite' or a postgres:// URL (default: SQLite, then BENCH_DATABASE_URL if set)",
    )
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--per-table", type=int, default=20)
    parser.add_argument("--pool", type=int, default=60, help="distinct 20-hand games")
    parser.add_argument("--keep", action="store_true", help="keep the bench club afterwards")
    args = parser.parse_args(argv)
    status = per_database(__file__, argv if argv is not None else sys.argv[1:], args.database_url)
    if status is not None:
        return status
    setup_django("" if vendor_of(args.database_url) == "sqlite" else args.database_url)
    from django.db import connection

    from leagues.standings import rebuild as services

    baseline(connection.vendor)
    sizes = args.hands or ([10_000] if QUICK else [24_000, 200_000])
    for size in sizes:
        season_bench(size, args, connection, services)
    return 0


def baseline(vendor: str) -> None:
    """`/healthz` through the Django test client in this process: the yardstick of this run."""
    from django.conf import settings
    from django.test import Client

    host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
    client = Client(HTTP_HOST=host.lstrip("."))
    seconds = []
    for _ in range(220):
        started = time.perf_counter()
        client.get("/healthz")
        seconds.append(time.perf_counter() - started)
    result(f"standings.{vendor}.baseline_healthz.p50", median(seconds[20:]) * 1000, "ms")


def season_bench(size: int, args: argparse.Namespace, connection, services) -> None:
    """Build a season of `size` hands, time its rebuilds and one more finished game, and
    (unless --keep) remove it."""
    from django.utils import timezone

    from leagues.standings.models import PlayerStanding, RatingPoint
    from leagues.standings.runner import derived_data_flush, runner_stop
    from scorecards.models import Game, Hand

    print(f"standings bench on {connection.vendor}: {size:,} hands requested")
    # The embedded default's thread (the baseline's requests started it) reconciles every few
    # minutes: it must not rebuild the new season while its reads and rebuilds are timed.
    runner_stop()
    started = time.perf_counter()
    club, season = build_season(size, args.tables, args.per_table, args.pool)
    if connection.vendor == "postgresql":  # as autovacuum would after so many new rows
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    hands, games = Hand.objects.filter(game__season=season).count(), season.games.count()
    print(f"  built {games:,} games, {hands:,} hands in {time.perf_counter() - started:.1f} s")
    key = f"standings.{connection.vendor}.{hands}_hands"
    result(f"{key}.hands", hands, "hands")
    raw_cpu: list[float] = []
    raw_wall = [
        timed("raw read of every hand", lambda: raw_read(season), f"{key}.raw_read", raw_cpu)
    ]
    first_cpu: list[float] = []
    first = timed(
        "standings_rebuild (first: no game summary yet)",
        lambda: services.standings_rebuild(season_id=season.pk),
        f"{key}.standings_rebuild_first",
        first_cpu,
    )
    # Like for like with the raw read: the rebuild from nothing again, each time after
    # everything it writes is wiped, and the raw read again after each: the best of five of
    # each. The first above also pays what a process pays once
    # whatever the season (imports, Django's first compile of each query), a fixed cost that
    # a worker that has run before does not pay again. Taken in turns, so that a machine
    # that slows down or speeds up meanwhile moves both alike.
    again_cpu: list[float] = []
    again_wall: list[float] = []
    for _ in range(_TURNS):
        _wipe(season)
        again_wall.append(
            timed(
                "standings_rebuild (from nothing again)",
                lambda: services.standings_rebuild(season_id=season.pk),
                f"{key}.standings_rebuild_from_nothing",
                again_cpu,
            )
        )
        if len(raw_wall) < _TURNS:
            raw_wall.append(
                timed(
                    "raw read of every hand",
                    lambda: raw_read(season),
                    f"{key}.raw_read",
                    raw_cpu,
                )
            )
    raw, again = min(raw_wall), min(again_wall)
    result(f"{key}.rebuild_from_nothing_first_ratio", first / raw, "x raw read")
    result(f"{key}.rebuild_from_nothing_first_ratio.cpu", first_cpu[0] / min(raw_cpu), "x raw read")
    result(f"{key}.rebuild_from_nothing_ratio", again / raw, "x raw read")
    result(f"{key}.rebuild_from_nothing_ratio.cpu", min(again_cpu) / min(raw_cpu), "x raw read")
    timed(
        "standings_rebuild (again, nothing changes)",
        lambda: services.standings_rebuild(season_id=season.pk),
        f"{key}.standings_rebuild_again",
    )
    # What a finished or corrected game costs: that game's summary is scored again.
    Game.objects.filter(pk=season.games.order_by("pk").values("pk")[:1]).update(
        updated_at=timezone.now()
    )
    timed(
        "standings_rebuild (one game changed)",
        lambda: services.standings_rebuild(season_id=season.pk),
        f"{key}.standings_rebuild_one_changed",
    )
    timed(
        "ratings_rebuild (first)",
        lambda: services.ratings_rebuild(club_id=club.pk),
        f"{key}.ratings_rebuild_first",
    )
    timed(
        "ratings_rebuild (again, nothing changes)",
        lambda: services.ratings_rebuild(club_id=club.pk),
        f"{key}.ratings_rebuild_again",
    )
    finish_one_more(club, season, key, sequence_pool)
    rate_one_more(club, season, key, services, sequence_pool)
    derived_data_flush()  # nor while one game's update is timed (the games above woke it)
    runner_stop()
    update_one_more(club, season, key, services, sequence_pool)
    print(
        f"  rows: {PlayerStanding.objects.filter(season=season).count()} player standings, "
        f"{RatingPoint.objects.filter(player__club=club).count():,} rating points"
    )
    if not args.keep:
        from django.contrib.auth import get_user_model

        club.delete()
        get_user_model().objects.filter(username=club.slug).delete()


def _wipe(season) -> None:
    """Everything the season's standings rebuild writes deleted (its game summaries, rows and
    snapshot), as before its first rebuild."""
    from django.db import connection

    from leagues.standings.models import (
        GameSummary,
        PartnershipStanding,
        PlayerStanding,
        StandingsSnapshot,
    )

    models = (GameSummary, PlayerStanding, PartnershipStanding, StandingsSnapshot)
    # As autovacuum would (this machine's server runs without it): a table's statistics from
    # before the rebuild filled it made the summaries' delete a nested loop past the statement
    # timeout at 200,000 hands, and what the wipes leave dead slows each later write.
    _maintain(connection, models, "ANALYZE")
    GameSummary.objects.filter(game__season=season).delete()
    for model in models[1:]:
        model.objects.filter(season=season).delete()
    _maintain(connection, models, "VACUUM ANALYZE")


def _maintain(connection, models, command: str) -> None:
    """`command` (ANALYZE, VACUUM ANALYZE) on the tables of `models`, on PostgreSQL."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"{command} {connection.ops.quote_name(model._meta.db_table)}")


if __name__ == "__main__":
    sys.exit(main())
