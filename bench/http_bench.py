#!/usr/bin/env python3
"""Our pages through gunicorn with production settings, beside a trivial baseline view.

Starts gunicorn (deploy/gunicorn.conf.py, DJANGO_DEBUG=false) on a free 127.0.0.1 port against a
throw-away SQLite file, or against PostgreSQL with --database-url / BENCH_DATABASE_URL (a club of
its own is created there and deleted afterwards). Then measures, in interleaved rounds so that a
noisy moment hits every figure alike:

- `/healthz` (the baseline: one `SELECT 1` through the whole middleware stack),
- the floor GET (bench/floor: a signed-in page doing one indexed SELECT and rendering a small
  template, the least any of our pages does; served by the same gunicorn only for the bench),
- the game sheet `/games/<id>/` of a long game (66 hands by default, --sheet-hands), signed in,
- the club page `/clubs/<slug>/`, signed in,
- the season standings page, signed in,
- the hall's projector of a tournament night of 40 players (a club of its own): the first round
  played, the second drawn and under way; its seating panel and its standings panel, signed in,
- a static file through WhiteNoise,

each alone (one client) and with concurrent clients (threads, each with its own keep-alive
connection), and prints median, p95, requests per second and the ratio to the baseline (and, for
the sheet, club, standings and projector pages, `ratio_floor_p50`: to the floor GET), plus the
page weights (bytes, and gzipped as sent). Bounded: a fixed request count and a time limit. With no
--database-url, SQLite then (when BENCH_DATABASE_URL is set) PostgreSQL, each in its own
process; figures are named `http.<vendor>.…`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import database_or_each, production_env_in, server_arguments
from bench.floor import FLOOR_GET
from bench.harness import (
    HttpSession,
    Timings,
    django_ready,
    gunicorn_server,
    load_run,
    median,
    percentile,
    result,
    vendor_of,
)

QUICK = os.environ.get("BENCH_QUICK") == "1"
# The pages whose p50 is also given beside the floor GET's.
FLOOR_COMPARED = {
    "game_sheet",
    "club_page",
    "standings_page",
    "projector_seating",
    "projector_standings",
}


def setup_data(env: dict[str, str], sheet_hands: int = 66) -> dict[str, Any]:
    """Migrate, collect static files, and create a club with 20 finished games and one long game
    of `sheet_hands` hands (a target out of reach keeps it going) through the services (in this
    process, on the server's database). Returns what the client needs."""
    django_ready(env)
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from leagues.clubs.models import Club, Membership, Player, Season
    from leagues.clubs.roles import Role
    from leagues.demo import DEMO_PLAYERS, demo_game_play
    from scorecards.rules import rules_build
    from scorecards.services import game_start

    tag = uuid.uuid4().hex[:8]
    user = get_user_model().objects.create_user(f"bench-{tag}", password=uuid.uuid4().hex)
    club = Club.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}")
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    players = [Player.objects.create(club=club, name=name) for name in DEMO_PLAYERS]
    season = Season.objects.create(club=club, name="Bench", starts_on=datetime.date(2026, 9, 1))
    rules = rules_build({"preset": "standard"})
    rng = random.Random(6)
    games = []
    for table in range(20):
        game = game_start(
            seats=rng.sample(players, 4),
            rules=rules,
            club=club,
            season=season,
            table_label=f"Table {table + 1}",
            created_by=user,
        )
        demo_game_play(game, rng)
        games.append(game)
    endless = rules_build({"preset": "standard", "lose_at": None, "target": 500, "nt_target": None})
    sheet = game_start(
        seats=rng.sample(players, 4),
        rules=endless,
        club=club,
        season=season,
        table_label="Long table",
        created_by=user,
    )
    demo_game_play(sheet, rng, max_hands=sheet_hands)
    sheet.refresh_from_db()
    from leagues.standings.rebuild import ratings_rebuild, standings_rebuild

    standings_rebuild(season_id=season.pk)
    ratings_rebuild(club_id=club.pk)
    night_club, projector = projector_night(user, tag, players=40)
    client = Client()
    client.force_login(user)
    from django.conf import settings
    from django.templatetags.static import static

    return {
        "club": club,
        "night_club": night_club,
        "projector_path": projector,
        "user": user,
        "sheet_path": sheet.get_absolute_url(),
        "sheet_hands": sheet.hand_count,
        "club_path": club.get_absolute_url(),
        "standings_path": reverse("standings", args=[club.slug]),
        "static_path": static("css/kaiser.css"),
        "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "session_cookie": settings.SESSION_COOKIE_NAME,
    }


def projector_night(user, tag: str, players: int = 40, hands: int = 8) -> tuple[Any, str]:
    """A club of its own (so that the other pages' figures keep their size) with `user` as its
    owner and a tournament night of `players`: the first round played (`hands` hands a table),
    the second drawn with three hands entered at each table, so that the projector shows both
    its panels. Returns (club, the projector's path)."""
    from django.urls import reverse

    from leagues.clubs.models import Club, Membership
    from leagues.clubs.roles import Role
    from leagues.demo import demo_game_play
    from leagues.tournaments.services import entry_register, round_draw, tournament_create

    club = Club.objects.create(name=f"Bench night {tag}", slug=f"bench-night-{tag}")
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    night = tournament_create(
        club=club,
        name="Bench night",
        date=datetime.date(2026, 11, 20),
        rounds=3,
        hands_per_round=hands,
        extra_hand_on_tie=False,
    )
    for i in range(players):
        entry_register(tournament=night, player=f"Player {i + 1:02d}", checked_in=True)
    rng = random.Random(40)
    for played in (hands, 3):
        for table in round_draw(tournament=night).tables:
            demo_game_play(table.game, rng, max_hands=played)
    return club, reverse("tournament_projector", args=[night.pk])


def teardown_data(data: dict[str, Any]) -> None:
    from leagues.tournaments.models import Tournament
    from scorecards.models import Game

    for club in (data["club"], data["night_club"]):
        # A night's tables hold its games (PROTECT): the nights go first, then the games.
        Tournament.objects.filter(club=club).delete()
        Game.objects.filter(club=club).delete()
        club.delete()
    data["user"].delete()


def sessions_for(base: str, data: dict[str, Any], count: int) -> list[HttpSession]:
    sessions = []
    for _ in range(count):
        session = HttpSession(base)
        session.cookies[data["session_cookie"]] = data["session"]
        sessions.append(session)
    return sessions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        help="'sqlite' or a postgres:// URL (default: SQLite, then BENCH_DATABASE_URL if set)",
    )
    parser.add_argument("--sheet-hands", type=int, default=66, help="hands on the sheet page")
    parser.add_argument("--requests", type=int, default=60 if QUICK else 400)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2 if QUICK else 4)
    parser.add_argument("--time-limit", type=float, default=60, help="seconds per measurement")
    server_arguments(parser)
    args = parser.parse_args(argv)
    status = database_or_each(__file__, argv, args)
    if status is not None:
        return status

    with tempfile.TemporaryDirectory(prefix="kaiser-bench-") as tmp:
        env = production_env_in(tmp, args.database_url, floor=True)
        data = setup_data(env, args.sheet_hands)
        try:
            with gunicorn_server(env, workers=args.workers, threads=args.threads) as base:
                measure(base, data, args)
        finally:
            teardown_data(data)
    return 0


def measure(base: str, data: dict[str, Any], args: argparse.Namespace) -> None:
    vendor = vendor_of(args.database_url)
    print(
        f"gunicorn {args.workers} workers x {args.threads} threads on {base}, {vendor}; "
        f"sheet of {data['sheet_hands']} hands"
    )
    pages = {
        "baseline_healthz": "/healthz",
        "floor_get": FLOOR_GET,
        "game_sheet": data["sheet_path"],
        "club_page": data["club_path"],
        "standings_page": data["standings_path"],
        "projector_seating": data["projector_path"] + "?show=seating",
        "projector_standings": data["projector_path"] + "?show=standings",
        "static_css": data["static_path"],
    }
    # Page weights, as a phone would receive them.
    probe = sessions_for(base, data, 1)[0]
    for name, path in pages.items():
        status, _, body = probe.get(path)
        if status != 200:
            raise SystemExit(f"{path}: HTTP {status}")
        panel = name.removeprefix("projector_")
        if panel != name and f"projector show-{panel}".encode() not in body:
            raise SystemExit(f"{path}: the projector did not show its {panel} panel")
        _, headers, zipped = probe.get(path, {"Accept-Encoding": "gzip"})
        result(f"http.{vendor}.{name}.bytes", len(body), "bytes")
        if headers.get("Content-Encoding") == "gzip":
            result(f"http.{vendor}.{name}.gzip_bytes", len(zipped), "bytes")
    result(f"http.{vendor}.game_sheet.hands", data["sheet_hands"], "hands")
    # Warm every worker and connection.
    for path in pages.values():
        load_run(
            sessions_for(base, data, args.concurrency),
            path,
            requests=20 if QUICK else 50,
            time_limit=30,
        )

    for label, clients, total in (
        ("single", 1, max(20, args.requests // 4)),
        (f"c{args.concurrency}", args.concurrency, args.requests),
    ):
        timings = {name: Timings() for name in pages}
        elapsed = {name: 0.0 for name in pages}
        per_round = max(1, total // args.rounds)
        for _ in range(args.rounds):
            for name, path in pages.items():
                sessions = sessions_for(base, data, clients)
                run = load_run(sessions, path, requests=per_round, time_limit=args.time_limit)
                timings[name].seconds += run.seconds
                # Wall time of the run is the sum of latencies divided by the clients in flight.
                elapsed[name] += sum(run.seconds) / clients
                for session in sessions:
                    session.close()
        base_p50 = median(timings["baseline_healthz"].seconds)
        floor_p50 = median(timings["floor_get"].seconds)
        for name, timing in timings.items():
            key = f"http.{vendor}.{label}.{name}"
            p50 = median(timing.seconds)
            p95 = percentile(timing.seconds, 95)
            result(f"{key}.p50", p50 * 1000, "ms")
            result(f"{key}.p95", p95 * 1000, "ms")
            result(f"{key}.rps", len(timing.seconds) / elapsed[name], "req/s")
            if name != "baseline_healthz":
                result(f"{key}.ratio_p50", p50 / base_p50, "x baseline")
            if name in FLOOR_COMPARED:
                result(f"{key}.ratio_floor_p50", p50 / floor_p50, "x floor GET")


if __name__ == "__main__":
    sys.exit(main())
