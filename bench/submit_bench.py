#!/usr/bin/env python3
"""Hand submit through gunicorn (production settings), beside the `/healthz` baseline and the
floor POST in the same run: one phone submitting alone, both as the outbox sends it (`Accept:
application/json`, a small JSON answer) and as the sheet's form does with htmx (`HX-Request`,
answered with the sheet fragment), and bursts of 40 phones (one per table) submitting at the
same instant, each burst beside a burst of 40 `/healthz` requests.

The floor POST (bench/floor, served by the same gunicorn only for the bench): a signed-in form
post whose CSRF token is checked, one indexed SELECT, one INSERT in a transaction and a small
template; the least a form post that saves a row can cost on this server. One follows each lone
submit (as many as the submits, interleaved), giving `…single.hand.ratio_floor_p50` and
`…single.htmx.ratio_floor_p50` beside the `/healthz` ratios. The phones hold a table link's
session (no account); the floor needs a signed-in one, so it runs as a member of the bench's
club signed in for it, which costs the floor one more SELECT (the user row) than a phone's
session: if anything the floor is a little slower and the ratio a little kinder.

    python bench/submit_bench.py           # SQLite, then PostgreSQL if BENCH_DATABASE_URL is set
    python bench/submit_bench.py --database-url sqlite
    python bench/submit_bench.py --database-url postgres://postgres@127.0.0.1:5432/kl_bench

On PostgreSQL the bench makes a club of its own and deletes it afterwards. Every submit goes to
the real endpoint `POST /games/<id>/hands/` through the table link, and every row is counted at
the end. Figures are named `submit.<vendor>.…`. Bounded: a fixed number of hands; 127.0.0.1
only.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import database_or_each, production_env_in, server_arguments
from bench.floor import FLOOR_POST, floor_form
from bench.harness import (
    HttpSession,
    django_ready,
    gunicorn_server,
    median,
    percentile,
    result,
    vendor_of,
)
from bench.night_plan import night_plan, night_setup, stored_hands, table_join

QUICK = os.environ.get("BENCH_QUICK") == "1"


def _at_once(calls: list) -> list[tuple[int, float]]:
    """Run each call in its own thread, released together; (status, seconds) of each."""
    barrier = threading.Barrier(len(calls))
    out: list[tuple[int, float]] = [(0, 0.0)] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        start = time.perf_counter()
        status = calls[i]()
        out[i] = (status, time.perf_counter() - start)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        help="'sqlite' or a postgres:// URL (default: SQLite, then BENCH_DATABASE_URL if set)",
    )
    parser.add_argument("--tables", type=int, default=40, help="phones in a burst")
    parser.add_argument("--bursts", type=int, default=3 if QUICK else 6)
    parser.add_argument(
        "--single", type=int, default=20 if QUICK else 80, help="lone submits of each kind"
    )
    server_arguments(parser)
    args = parser.parse_args(argv)
    status = database_or_each(__file__, argv, args)
    if status is not None:
        return status

    with tempfile.TemporaryDirectory(prefix="kaiser-submit-") as tmp:
        env = production_env_in(tmp, args.database_url, floor=True)
        django_ready(env)
        # Burst tables play `bursts` hands each; single-phone tables take the rest in turn.
        singles = max(1, 2 * args.single // 6 + 2)
        plans = night_plan(args.tables + singles, max(args.bursts, 8) + 4, seed=7)
        club, tables = night_setup(plans)
        member, session = floor_member(club)
        try:
            with gunicorn_server(env, workers=args.workers, threads=args.threads) as base:
                sent = measure(base, plans, tables, args, singles, session)
            stored = stored_hands([t.game_id for t in tables])
            rows = sum(len(r) for r in stored.values())
            vendor = vendor_of(args.database_url)
            result(f"submit.{vendor}.rows_stored", rows, "hands")
            result(f"submit.{vendor}.rows_missing_or_extra", abs(rows - sent), "hands")
        finally:
            from scorecards.models import Game

            Game.objects.filter(club=club).delete()
            club.delete()
            member.delete()  # and the floor's rows with it (ON DELETE CASCADE)
    return 0 if rows == sent else 1


def floor_member(club) -> tuple[Any, dict[str, str]]:
    """A member of `club` signed in for the floor POST: (user, {cookie name: session key})."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from leagues.clubs.models import Membership

    user = get_user_model().objects.create_user(f"floor-{club.slug}", password=uuid.uuid4().hex)
    Membership.objects.create(club=club, user=user)
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return user, {name: client.cookies[name].value}


HTMX = {"HX-Request": "true", "HX-Target": "sheet", "HX-Trigger": "hand-form"}
SEEN = re.compile(rb'<span id="sheet-seen".*?</span>', re.S)


def sheet_seen(page: bytes) -> dict[str, str]:
    """What the sheet says it shows (the inputs of #sheet-seen), sent with each hand; nothing
    from a sheet that has none (an older release)."""
    found = SEEN.search(page)
    if found is None:
        return {}
    pairs = re.findall(rb'name="(\w)" value="([^"]*)"', found.group(0))
    return {name.decode(): value.decode() for name, value in pairs}


def measure(base, plans, tables, args, singles, floor_cookies) -> int:
    vendor = vendor_of(args.database_url)
    print(f"gunicorn {args.workers} workers x {args.threads} threads on {base}, {vendor}")
    burst_plans, single_plans = plans[: args.tables], plans[args.tables :]
    burst_phones = [table_join(base, t) for t in tables[: args.tables]]
    single_phone = {t.game_id: table_join(base, t) for t in tables[args.tables :]}
    probes = [HttpSession(base) for _ in range(args.tables)]
    floor = HttpSession(base, cookies=dict(floor_cookies))
    floor_fields = floor_form(floor)
    sent = 0

    def post(phone, game_id, fields, headers=None):
        path = f"/games/{game_id}/hands/"
        return lambda: phone.post_form(path, fields, headers or {"Accept": "application/json"})

    # Warm every worker and connection with /healthz.
    _at_once([lambda p=p: p.get("/healthz")[0] for p in probes])

    # Warm the floor (every worker) as well, untimed.
    for _ in range(2 * args.workers):
        floor.post_form(FLOOR_POST, floor_fields)

    # One phone alone: a JSON submit, the baselines, an htmx submit, the baselines, and so on
    # (a noisy moment hits all alike). Each table's hands go in order, in either form.
    lone: dict[str, list[float]] = {"json": [], "htmx": []}
    fragment_bytes: list[float] = []
    base_s: list[float] = []
    floor_s: list[float] = []
    queue = [
        (setup, planned)
        for plan, setup in zip(single_plans, tables[args.tables :], strict=True)
        for planned in plan.hands
    ][: 2 * args.single]
    probe = probes[0]
    for index, (setup, planned) in enumerate(queue):
        phone = single_phone[setup.game_id]
        kind = "htmx" if index % 2 else "json"
        headers = {**HTMX, "HX-Current-URL": f"{base}/games/{setup.game_id}/"}
        fields = planned.fields
        if kind == "htmx":
            # As the sheet's form sends it: with what the phone's sheet shows (its poll keeps it
            # current), read here from the page, untimed.
            fields = {**fields, **sheet_seen(phone.get(f"/games/{setup.game_id}/")[2])}
        call = post(phone, setup.game_id, fields, headers if kind == "htmx" else None)
        start = time.perf_counter()
        status, _, body = call()
        lone[kind].append(time.perf_counter() - start)
        if status != (200 if kind == "htmx" else 201):
            raise SystemExit(f"single {kind} submit: HTTP {status}")
        if kind == "htmx":
            fragment_bytes.append(len(body))
        sent += 1
        start = time.perf_counter()
        probe.get("/healthz")
        base_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        status, _, _ = floor.post_form(FLOOR_POST, floor_fields)
        floor_s.append(time.perf_counter() - start)
        if status != 200:
            raise SystemExit(f"floor POST: HTTP {status}")

    # Bursts: every table submits its next hand at the same instant; then 40 /healthz at once.
    burst_s, burst_base_s, burst_wall, base_wall = [], [], [], []
    for round_ in range(args.bursts):
        calls = []
        for phone, plan, setup in zip(
            burst_phones, burst_plans, tables[: args.tables], strict=True
        ):
            if round_ < len(plan.hands):
                call = post(phone, setup.game_id, plan.hands[round_].fields)
                calls.append(lambda call=call: call()[0])
        start = time.perf_counter()
        answers = _at_once(calls)
        burst_wall.append(time.perf_counter() - start)
        bad = [s for s, _ in answers if s != 201]
        if bad:
            raise SystemExit(f"burst {round_ + 1}: statuses {sorted(set(bad))}")
        sent += len(answers)
        burst_s += [s for _, s in answers]
        start = time.perf_counter()
        answers = _at_once([lambda p=p: p.get("/healthz")[0] for p in probes[: len(calls)]])
        base_wall.append(time.perf_counter() - start)
        burst_base_s += [s for _, s in answers]

    ms = 1000
    key = f"submit.{vendor}"
    result(f"{key}.single.baseline_healthz.p50", median(base_s) * ms, "ms")
    result(f"{key}.single.baseline_healthz.p95", percentile(base_s, 95) * ms, "ms")
    result(f"{key}.single.floor_post.p50", median(floor_s) * ms, "ms")
    result(f"{key}.single.floor_post.p95", percentile(floor_s, 95) * ms, "ms")
    for kind, seconds in lone.items():
        name = "hand" if kind == "json" else "htmx"
        result(f"{key}.single.{name}.p50", median(seconds) * ms, "ms")
        result(f"{key}.single.{name}.p95", percentile(seconds, 95) * ms, "ms")
        result(f"{key}.single.{name}.ratio_p50", median(seconds) / median(base_s), "x baseline")
        result(
            f"{key}.single.{name}.ratio_floor_p50",
            median(seconds) / median(floor_s),
            "x floor POST",
        )
    result(f"{key}.single.htmx.fragment_bytes", median(fragment_bytes), "bytes")
    result(f"{key}.burst40.baseline_healthz.p50", median(burst_base_s) * ms, "ms")
    result(f"{key}.burst40.baseline_healthz.p95", percentile(burst_base_s, 95) * ms, "ms")
    result(f"{key}.burst40.hand.p50", median(burst_s) * ms, "ms")
    result(f"{key}.burst40.hand.p95", percentile(burst_s, 95) * ms, "ms")
    result(
        f"{key}.burst40.hand.ratio_p95",
        percentile(burst_s, 95) / percentile(burst_base_s, 95),
        "x baseline",
    )
    result(f"{key}.burst40.hand.wall", median(burst_wall) * ms, "ms per burst")
    result(f"{key}.burst40.baseline_healthz.wall", median(base_wall) * ms, "ms per burst")
    result(f"{key}.requests", sent, "hands")
    for phone in [*burst_phones, *single_phone.values(), *probes, floor]:
        phone.close()
    return sent


if __name__ == "__main__":
    sys.exit(main())
