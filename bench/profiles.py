#!/usr/bin/env python3
"""Where the time goes: cProfile of the paths the speed goals are about, written into
bench/PROFILES.md.

    .venv/bin/python bench/profiles.py                    # every path, throw-away SQLite
    .venv/bin/python bench/profiles.py --only sheet_66 --only standings_page
    .venv/bin/python bench/profiles.py --season-hands 200000 --output /tmp/profiles.md

Paths: the hand submit as JSON (`submit_json`) and as htmx with the sheet fragment back
(`submit_htmx`), the sheet page of 66 hands (`sheet_66`), the standings page
(`standings_page`), in-process through Django's test client with production settings; and the
standings and ratings rebuilds of a bulk-built season (`standings_rebuild`, `ratings_rebuild`).
For each: the time per operation without the profiler, SQL statements and their time per
operation, the share of the profiled time spent inside templates, the ORM (and the database
driver under it), the rules engine and OpenSkill, and the top lines by cumulative time.

Only the text between `<!-- profile:NAME -->` and `<!-- /profile:NAME -->` is rewritten: the
readings written around it stay. cProfile slows Python down (more for many small calls), so
the shares are a guide and the unprofiled time per operation is the number to quote.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import re
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import ROOT, production_env

OUTPUT = Path(__file__).resolve().parent / "PROFILES.md"
TOP = 15
# Lines above this share of the total are the wrapper chain every request or rebuild goes
# through (middleware, decorators, the service's own entry): left out of the top lines.
WRAPPERS = 0.95
SHARES: dict[str, Callable[[str], bool]] = {
    "templates": lambda where: "/django/template/" in where or "/template_partials/" in where,
    "ORM and SQL (django/db, driver included)": lambda where: "/django/db/" in where,
    "database driver": lambda where: where == "{sqlite3}" or "/psycopg" in where,
    "rules engine": lambda where: "/scorecards/rules/" in where,
    "OpenSkill": lambda where: "/openskill/" in where,
}


class ShareClock:
    """A profile hook timing how long the program runs inside each kind of code of SHARES,
    counting only the outermost entry (a template rendered from a tag rendered by a template
    counts once), with builtin calls (the SQLite driver is C) judged by their module."""

    def __init__(self) -> None:
        self.depth = dict.fromkeys(SHARES, 0)
        self.since = dict.fromkeys(SHARES, 0.0)
        self.seconds = dict.fromkeys(SHARES, 0.0)

    def __call__(self, frame, event: str, arg: object) -> None:
        if event in ("call", "return"):
            where = frame.f_code.co_filename
        elif event in ("c_call", "c_return", "c_exception"):
            owner = getattr(arg, "__self__", None)
            driver = isinstance(owner, (sqlite3.Cursor, sqlite3.Connection))
            where = "{sqlite3}" if driver else "{builtin}"
        else:
            return
        entering = event in ("call", "c_call")
        for label, inside in SHARES.items():
            if not inside(where):
                continue
            if entering:
                if self.depth[label] == 0:
                    self.since[label] = time.perf_counter()
                self.depth[label] += 1
            elif self.depth[label] > 0:
                self.depth[label] -= 1
                if self.depth[label] == 0:
                    self.seconds[label] += time.perf_counter() - self.since[label]


def shares_of(op: Callable[[], object], runs: int) -> dict[str, float]:
    """The share of the wall time of `runs` runs of `op` spent in each kind of code."""
    clock = ShareClock()
    started = time.perf_counter()
    sys.setprofile(clock)
    try:
        for _ in range(runs):
            op()
    finally:
        sys.setprofile(None)
    wall = time.perf_counter() - started
    return {label: seconds / wall for label, seconds in clock.seconds.items()}


def short(func: tuple[str, int, str]) -> str:
    filename, line, name = func
    if filename == "~":
        return "{" + name + "}"
    text = f"{filename}:{line}({name})".replace(str(ROOT) + "/", "")
    text = re.sub(r".*/site-packages/", "", text)
    return re.sub(r".*/lib/python3\.\d+/", "", text)


def top_lines(profile: cProfile.Profile, ops: int) -> tuple[list[str], list[str], float]:
    """The TOP lines by cumulative time (the wrapper chain left out), the 8 by own time, and
    the total profiled seconds."""
    raw = pstats.Stats(profile, stream=io.StringIO()).stats  # type: ignore[attr-defined]
    total = max(ct for _cc, _nc, _tt, ct, _callers in raw.values())
    header = "   calls  tottime  cumtime  ms/op  function"

    def line(func, nc, tt, ct) -> str:
        return f"{nc:>8} {tt:>8.3f} {ct:>8.3f} {ct / ops * 1000:>7.2f}  {short(func)}"

    cumulative = [header]
    for func, (_cc, nc, tt, ct, _callers) in sorted(
        raw.items(), key=lambda item: item[1][3], reverse=True
    ):
        if ct <= WRAPPERS * total and len(cumulative) <= TOP:
            cumulative.append(line(func, nc, tt, ct))
    own = [header]
    for func, (_cc, nc, tt, ct, _callers) in sorted(
        raw.items(), key=lambda item: item[1][2], reverse=True
    )[:8]:
        own.append(line(func, nc, tt, ct))
    return cumulative, own, total


def measure(name: str, op: Callable[[], object], ops: int, title: str) -> str:
    """Time `op` unprofiled, count its SQL, then profile `ops` more runs; the Markdown block."""
    from django.db import connection

    op()  # warm: URL and template caches, connections
    started = time.perf_counter()
    timed_runs = max(1, ops // 2)
    for _ in range(timed_runs):
        op()
    per_op = (time.perf_counter() - started) / timed_runs * 1000
    statements: list[float] = []

    def clock(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append(time.perf_counter() - started)

    with connection.execute_wrapper(clock):
        op()
    sql_ms = sum(statements) * 1000
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(ops):
        op()
    profile.disable()
    cumulative, own, total = top_lines(profile, ops)
    shares = shares_of(op, max(1, ops // 3))
    share_text = ", ".join(f"{label} {share:.0%}" for label, share in shares.items())
    block = [
        f"### {title}",
        "",
        f"{per_op:.2f} ms per operation without the profiler; {len(statements)} "
        f"SQL statements taking {sql_ms:.2f} ms; profiled {ops} operations in {total:.2f} s.",
        "",
        f"Share of the wall time (outermost entry, under a profile hook): {share_text}.",
        "",
        f"Top {TOP} by cumulative time (the wrapper chain above {WRAPPERS:.0%} left out):",
        "",
        "```",
        *cumulative,
        "```",
        "",
        "Top 8 by own time:",
        "",
        "```",
        *own,
        "```",
    ]
    text = "\n".join(block)
    print(f"\n== {name}\n{text}", flush=True)
    return text


def web_paths(ops: int) -> dict[str, tuple[Callable[[], object], str]]:
    """The four web paths on a club like http_bench's (20 finished games, a 66-hand sheet)."""
    from bench.http_bench import setup_data

    env = production_env(
        static_root=Path(tempfile.mkdtemp(prefix="kaiser-profile-")) / "static",
        sqlite_path=Path(tempfile.mkdtemp(prefix="kaiser-profile-")) / "profile.sqlite3",
    )
    env["ALLOWED_HOSTS"] = "testserver"
    data = setup_data(env, 66)  # sets Django up on that database

    from django.test import Client

    from leagues.demo import plausible_hand
    from scorecards.models import Game
    from scorecards.rules import rules_build
    from scorecards.services import game_start

    client = Client()
    client.cookies[data["session_cookie"]] = data["session"]
    rules = rules_build({"preset": "standard", "lose_at": None, "target": 500, "nt_target": None})
    sheet = Game.objects.get(pk=data["sheet_path"].strip("/").split("/")[-1])
    seats = [seat.player or seat.name for seat in sheet.seats.order_by("seat")]
    rng = random.Random(3)
    state: dict[str, Any] = {"game": None, "number": 0}

    def submit(headers: dict[str, str]) -> None:
        # Games of 20 hands, as a night has them: the sheet fragment grows with the game.
        if state["game"] is None or state["number"] >= 20:
            state["game"] = game_start(
                seats=seats, rules=rules, club=data["club"], created_by=data["user"]
            )
            state["number"] = 0
        game = state["game"]
        state["number"] += 1
        hand = plausible_hand(rng, rules)
        fields = {
            "idempotency_key": str(uuid.uuid4()),
            "number": str(state["number"]),
            "bidder": str(hand.bidder),
            "bid": str(hand.bid),
            "kind": hand.kind,
            "tricks_0": str(hand.tricks[0] if hand.tricks else ""),
            "tricks_1": str(hand.tricks[1] if hand.tricks else ""),
            "five_hearts": str(hand.five_hearts),
            "three_spades": str(hand.three_spades),
        }
        response = client.post(f"/games/{game.pk}/hands/", fields, headers=headers)
        assert response.status_code in (200, 201), response.status_code

    def get(path: str) -> Callable[[], None]:
        def op() -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)

        return op

    htmx = {"HX-Request": "true", "HX-Target": "sheet", "HX-Trigger": "hand-form"}
    return {
        "submit_json": (
            lambda: submit({"Accept": "application/json"}),
            "Hand submit, JSON (games of 20 hands)",
        ),
        "submit_htmx": (lambda: submit(htmx), "Hand submit, htmx, the sheet fragment back"),
        "sheet_66": (get(data["sheet_path"]), f"Sheet page, {data['sheet_hands']} hands"),
        "standings_page": (
            get(data["standings_path"]),
            "Standings page (a season of 20 finished games)",
        ),
    }


def rebuild_paths(hands: int) -> dict[str, tuple[Callable[[], object], str]]:
    """The two rebuilds on a bulk-built season of `hands` hands (as standings_bench builds it)."""
    from bench.standings_bench import build_season
    from leagues.standings import rebuild as services

    club, season = build_season(hands, tables=40, per_table=20, pool_size=60)
    size = season.games.count() * 20
    return {
        "standings_rebuild": (
            lambda: services.standings_rebuild(season_id=season.pk),
            f"Standings rebuild, {size:,} hands",
        ),
        "ratings_rebuild": (
            lambda: services.ratings_rebuild(club_id=club.pk),
            f"Ratings rebuild, {size:,} hands",
        ),
    }


def write(output: Path, blocks: dict[str, str]) -> None:
    """Put each block between its markers in `output`, keeping everything else."""
    text = output.read_text() if output.exists() else "# Profiles\n"
    for name, block in blocks.items():
        start, end = f"<!-- profile:{name} -->", f"<!-- /profile:{name} -->"
        fresh = f"{start}\n{block}\n{end}"
        if start in text and end in text:
            before, rest = text.split(start, 1)
            text = before + fresh + rest.split(end, 1)[1]
        else:
            text = text.rstrip("\n") + f"\n\n{fresh}\n"
    output.write_text(text)


NAMES = (
    "submit_json",
    "submit_htmx",
    "sheet_66",
    "standings_page",
    "standings_rebuild",
    "ratings_rebuild",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=NAMES)
    parser.add_argument("--ops", type=int, default=60, help="profiled requests per web path")
    parser.add_argument("--season-hands", type=int, default=40_000)
    parser.add_argument("--rebuilds", type=int, default=2, help="profiled runs per rebuild")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    wanted = args.only or list(NAMES)
    paths = web_paths(args.ops)
    if {"standings_rebuild", "ratings_rebuild"} & set(wanted):
        paths.update(rebuild_paths(args.season_hands))
    blocks = {}
    for name in wanted:
        op, title = paths[name]
        ops = args.rebuilds if name.endswith("_rebuild") else args.ops
        blocks[name] = measure(name, op, ops, title)
    write(args.output, blocks)
    print(f"\nwrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
