"""Benchmark of the table score sheet: prints its numbers, asserts nothing.

    .venv/bin/python bench/sheet_bench.py            # SQLite, and PostgreSQL too if DATABASE_URL
    .venv/bin/python bench/sheet_bench.py --hands 400

- hand-submit server time (median, p95): the whole request in-process through Django's test
  client (middleware, session, access check, engine, writes, JSON answer), no network;
- SQL statements per hand submit (JSON and htmx) and per sheet render at 1 and 30 hands;
- gzipped bytes of the sheet page (a 20-hand game) with its CSS and JavaScript (htmx included).

Each database is a throw-away test database (SQLite: a temporary WAL file; PostgreSQL: Django's
`test_<name>` database, created and dropped), so no real data is touched.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def _setup(engine: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "kaiser_league.settings_test"
    os.environ.setdefault("DJANGO_DEBUG", "false")
    # One process (the test client in this one): its per-process cache is the only one.
    os.environ["WEB_CONCURRENCY"] = "1"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["AXES_ENABLED"] = "false"
    os.environ["SECURE_SSL_REDIRECT"] = "false"  # the test client speaks plain http
    warnings.filterwarnings("ignore", message="No directory at")
    if engine == "sqlite":
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    import django

    django.setup()


def _hand(bidder: int, tricks: int, five: int, three: int, number: int) -> dict[str, str]:
    return {
        "idempotency_key": str(uuid.uuid4()),
        "number": str(number),
        "bidder": str(bidder),
        "bid": "7",
        "tricks_bidder": str(tricks),
        "five_hearts": str(five),
        "three_spades": str(three),
    }


# Hands that keep a game going for a long while: the two sides take turns being set and making.
CYCLE = [(0, 4, 1, 0), (1, 4, 0, 1), (0, 7, 0, 1), (1, 7, 1, 0)]


def run(engine: str, hands: int) -> None:
    _setup(engine)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from leagues.clubs.models import Club, Membership, Player
    from leagues.clubs.roles import Role
    from scorecards.rules import rules_build
    from scorecards.services import game_start

    setup_test_environment()
    if engine == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = connection.settings_dict["NAME"]
    old_name = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        user = get_user_model().objects.create_user("bench")
        club = Club.objects.create(name="Bench club", slug="bench")
        Membership.objects.create(club=club, user=user, role=Role.MEMBER)
        players = [Player.objects.create(club=club, name=n) for n in ("Ann", "Cat", "Bob", "Dan")]
        rules = rules_build(
            {"preset": "standard", "lose_at": None, "target": 500, "nt_target": None}
        )
        client = Client()
        client.force_login(user)

        def new_game():
            return game_start(seats=players, rules=rules, club=club, created_by=user)

        def submit(game, number: int, headers: dict[str, str]):
            bidder, tricks, five, three = CYCLE[(number - 1) % len(CYCLE)]
            data = _hand(bidder, tricks, five, three, number)
            return client.post(reverse("hand_submit", args=[game.pk]), data, headers=headers)

        json_headers = {"Accept": "application/json"}
        # Warm up (connections, template and URL caches, seat-name cache).
        warm = new_game()
        for n in range(1, 6):
            submit(warm, n, json_headers)

        times = []
        game, number = new_game(), 0
        for _ in range(hands):
            number += 1
            if number > 60:  # many games of 60 hands rather than one endless game
                game, number = new_game(), 1
            start = time.perf_counter()
            response = submit(game, number, json_headers)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 201, response.content
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        median = statistics.median(times)
        print(f"RESULT sheet.{engine}.submit.median={median:.6g} ms")
        print(f"RESULT sheet.{engine}.submit.p95={p95:.6g} ms")
        print(
            f"[{engine}] hand submit (JSON, {len(times)} hands): median {median:.2f} ms,"
            f" p95 {p95:.2f} ms, max {times[-1]:.2f} ms"
        )

        def count(fn) -> tuple[int, int]:
            with CaptureQueriesContext(connection) as queries:
                fn()
            sql = [q["sql"] for q in queries.captured_queries]
            return len([s for s in sql if not s.startswith(CONTROL)]), len(sql)

        game = new_game()
        for n in range(1, 4):
            submit(game, n, json_headers)
        stmts, total = count(lambda: submit(game, 4, json_headers))
        print(f"RESULT sheet.{engine}.submit.queries={stmts} queries")
        print(f"[{engine}] SQL per hand submit, JSON: {stmts} (+{total - stmts} BEGIN/COMMIT)")
        client.get(reverse("game_sheet", args=[game.pk]))  # the phone has the sheet open
        stmts, total = count(lambda: submit(game, 5, {"HX-Request": "true"}))
        print(f"[{engine}] SQL per hand submit, htmx: {stmts} (+{total - stmts} BEGIN/COMMIT)")

        sheet_game = new_game()
        submit(sheet_game, 1, json_headers)
        url = reverse("game_sheet", args=[sheet_game.pk])
        one, _ = count(lambda: client.get(url))
        for n in range(2, 31):
            submit(sheet_game, n, json_headers)
        thirty, _ = count(lambda: client.get(url))
        print(f"RESULT sheet.{engine}.render.queries_1_hand={one} queries")
        print(f"RESULT sheet.{engine}.render.queries_30_hands={thirty} queries")
        print(f"[{engine}] SQL per sheet render: {one} at 1 hand, {thirty} at 30 hands")
        start = time.perf_counter()
        for _ in range(20):
            client.get(url)
        render_ms = (time.perf_counter() - start) * 1000 / 20
        print(f"RESULT sheet.{engine}.render_30_hands={render_ms:.6g} ms")
        print(f"[{engine}] sheet render at 30 hands: {render_ms:.2f} ms")
        sheet_game.refresh_from_db()
        poll = reverse("game_poll", args=[sheet_game.pk])
        query = {"v": f"{sheet_game.updated_at.timestamp():.6f}", "n": sheet_game.hand_count}
        assert client.get(poll, query).status_code == 204
        stmts, _ = count(lambda: client.get(poll, query))
        start = time.perf_counter()
        for _ in range(100):
            client.get(poll, query)
        poll_ms = (time.perf_counter() - start) * 1000 / 100
        print(f"[{engine}] poll with nothing new: 204 in {poll_ms:.2f} ms, {stmts} SQL")

        if engine == "sqlite":
            _page_bytes(client, players, rules, club, user, submit, json_headers)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)


def _page_bytes(client, players, rules, club, user, submit, json_headers) -> None:
    from django.contrib.staticfiles import finders
    from django.urls import reverse

    from scorecards.services import game_start, game_token_issue

    game = game_start(seats=players, rules=rules, club=club, created_by=user)
    game_token_issue(game=game)
    for n in range(1, 21):
        submit(game, n, json_headers)
    html = client.get(reverse("game_sheet", args=[game.pk])).content
    assets = {"sheet page (20 hands)": html}
    for path in ("css/kaiser.css", "js/sheet.js", "django_htmx/htmx-2.min.js"):
        found = finders.find(path)
        assert isinstance(found, str), path
        assets[path] = Path(found).read_bytes()
    total = 0
    for name, body in assets.items():
        size = len(gzip.compress(body, compresslevel=6))
        total += size
        print(f"[bytes] {name}: {len(body)} raw, {size} gzipped")
    print(f"RESULT sheet.page_with_css_js.gzip_bytes={total} bytes")
    print(f"[bytes] sheet page with its CSS and JS, gzipped: {total} bytes ({total / 1024:.1f} KB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    quick = os.environ.get("BENCH_QUICK") == "1"
    parser.add_argument("--hands", type=int, default=100 if quick else 300)
    parser.add_argument("--engine", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    if args.engine:
        run(args.engine, args.hands)
        return
    engines = ["sqlite"]
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        engines.append("postgres")
    for engine in engines:
        subprocess.run(
            [sys.executable, __file__, "--engine", engine, "--hands", str(args.hands)],
            check=True,
        )


if __name__ == "__main__":
    main()
