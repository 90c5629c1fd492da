#!/usr/bin/env python3
"""Game import of a long record, beside the `/healthz` baseline in the same run, and the longest
time the import holds the database write lock.

    .venv/bin/python bench/import_bench.py                  # the largest game, on SQLite
    .venv/bin/python bench/import_bench.py --hands 200
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kaiser_bench .venv/bin/python \
        bench/import_bench.py

The record is a standard 4-seat game of N hands that the rules engine accepts: four played hands
then throw-ins (a misdeal), so the scores stay under the target. Every hand costs the import the
same rows (a hand and its version), played or not. The
import is `scorecards.importing.game_import`, the code behind the web import page and
`manage.py game_import`. The write lock is measured from outside: a second thread keeps writing
one row of another club (as a phone of another table would) in its own short transaction, and
the longest wait of such a write while the import runs is the longest the import held the lock
(or the longest a phone of another club waited). The baseline is a `/healthz` request through
the Django test client in the same process. Without DATABASE_URL a fresh SQLite file is used;
every row made is deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import median, result  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"


def setup_django() -> None:
    if not os.environ.get("DATABASE_URL") and not os.environ.get("SQLITE_PATH"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def long_record(hands: int) -> dict:
    """A kaiser-game/1 record of exactly `hands` hands: a few played hands (a made 7 each way)
    then throw-ins, so the game stays under its target however long the record is."""
    played = [
        {
            "bidder": 0,
            "bid": 7,
            "kind": "trump",
            "tricks": [7, 1],
            "five_hearts": 0,
            "three_spades": 1,
        },
        {
            "bidder": 1,
            "bid": 7,
            "kind": "trump",
            "tricks": [1, 7],
            "five_hearts": 1,
            "three_spades": 0,
        },
    ] * 2
    out = played[:hands] + [{"thrown_in": True}] * max(0, hands - len(played))
    return {
        "format": "kaiser-game/1",
        "rules": {"preset": "standard"},
        "seats": ["Bench North", "Bench East", "Bench South", "Bench West"],
        "first_dealer": 0,
        "hands": out,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # By default the largest game the importer takes (MAX_HANDS; docs/rules.md).
    parser.add_argument("--hands", type=int, default=None)
    parser.add_argument("--runs", type=int, default=2 if QUICK else 3)
    args = parser.parse_args(argv)
    setup_django()

    from django.db import connection, transaction
    from django.test import Client

    from leagues.clubs.models import Club, Player
    from scorecards.importing import game_import
    from scorecards.models import Game
    from scorecards.rules import MAX_HANDS, game_score, record_parse

    args.hands = args.hands or MAX_HANDS
    record = long_record(args.hands)
    parsed = record_parse(record)
    game_score(parsed.rules, parsed.hands, parsed.first_dealer)  # the engine accepts it
    club = Club.objects.create(name="Import bench", slug="import-bench")
    other = Club.objects.create(name="Import bench (other)", slug="import-bench-other")
    other_player = Player.objects.create(club=other, name="Phone")
    from django.conf import settings

    host = next((h for h in settings.ALLOWED_HOSTS if h and "*" not in h), "localhost")
    client = Client(HTTP_HOST=host.lstrip("."))
    client.get("/healthz")
    vendor = connection.vendor
    print(f"{args.hands}-hand record, {args.runs} runs, {vendor}")
    try:
        seconds, waits, base = [], [], []
        for _run in range(args.runs):
            stop = threading.Event()
            run_waits: list[float] = []

            def phone_of_another_club(stop=stop, run_waits=run_waits) -> None:
                from django.db import connection as thread_connection

                try:
                    while not stop.is_set():
                        start = time.perf_counter()
                        with transaction.atomic():
                            Player.objects.filter(pk=other_player.pk).update(name="Phone")
                        run_waits.append(time.perf_counter() - start)
                        time.sleep(0.002)
                finally:
                    thread_connection.close()

            phone = threading.Thread(target=phone_of_another_club)
            phone.start()
            start = time.perf_counter()
            game = game_import(club=club, record=record)
            seconds.append(time.perf_counter() - start)
            stop.set()
            phone.join()
            assert game.hand_count == args.hands, game.hand_count
            waits.append(max(run_waits) if run_waits else 0.0)
            start = time.perf_counter()
            client.get("/healthz")
            base.append(time.perf_counter() - start)
            Game.objects.filter(pk=game.pk).delete()
        result("import.hands", args.hands, "hands")
        result("import.seconds_median", median(seconds), "s")
        result("import.seconds_max", max(seconds), "s")
        result("import.hands_per_second", args.hands / median(seconds), "hands/s")
        result("import.write_lock_longest_wait", max(waits), "s")
        result("import.baseline_healthz_median", median(base), "s")
        target = 2.0 * args.hands / 2000
        print(f"target: under {target:.1f} s on SQLite")
    finally:
        Game.objects.filter(club__in=[club, other]).delete()
        club.delete()
        other.delete()
    return 0


if __name__ == "__main__":
    sys.exit(main())
