#!/usr/bin/env python3
"""Hand submit through gunicorn (production settings), beside the `/healthz` baseline in the
same run: one phone submitting alone, and bursts of 40 phones (one per table) submitting at the
same instant, each burst beside a burst of 40 `/healthz` requests.

Throw-away SQLite by default, PostgreSQL with --database-url / BENCH_DATABASE_URL (a club of its
own, deleted afterwards). Every submit goes to the real endpoint `POST /games/<id>/hands/` with
`Accept: application/json` through the table link, and every row is counted at the end.
Bounded: a fixed number of hands; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    HttpSession,
    django_ready,
    gunicorn_server,
    median,
    percentile,
    production_env,
    result,
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
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--tables", type=int, default=40, help="phones in a burst")
    parser.add_argument("--bursts", type=int, default=3 if QUICK else 6)
    parser.add_argument("--single", type=int, default=30 if QUICK else 120)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="kaiser-submit-") as tmp:
        env = production_env(
            static_root=Path(tmp) / "static",
            database_url=args.database_url,
            sqlite_path=Path(tmp) / "bench.sqlite3",
        )
        django_ready(env)
        # Burst tables play `bursts` hands each; single-phone tables take the rest in turn.
        singles = max(1, args.single // 8 + 1)
        plans = night_plan(args.tables + singles, max(args.bursts, 8) + 4, seed=7)
        club, tables = night_setup(plans)
        try:
            with gunicorn_server(env, workers=args.workers, threads=args.threads) as base:
                sent = measure(base, plans, tables, args, singles)
            stored = stored_hands([t.game_id for t in tables])
            rows = sum(len(r) for r in stored.values())
            result("submit.rows_stored", rows, "hands")
            result("submit.rows_missing_or_extra", abs(rows - sent), "hands")
        finally:
            from scorecards.models import Game

            Game.objects.filter(club=club).delete()
            club.delete()
    return 0 if rows == sent else 1


def measure(base, plans, tables, args, singles) -> int:
    vendor = "postgresql" if args.database_url else "sqlite"
    print(f"gunicorn {args.workers} workers x {args.threads} threads on {base}, {vendor}")
    burst_plans, single_plans = plans[: args.tables], plans[args.tables :]
    burst_phones = [table_join(base, t) for t in tables[: args.tables]]
    single_phone = {t.game_id: table_join(base, t) for t in tables[args.tables :]}
    probes = [HttpSession(base) for _ in range(args.tables)]
    json_accept = {"Accept": "application/json"}
    sent = 0

    def post(phone, game_id, fields):
        return lambda: phone.post_form(f"/games/{game_id}/hands/", fields, json_accept)[0]

    # Warm every worker and connection with /healthz.
    _at_once([lambda p=p: p.get("/healthz")[0] for p in probes])

    # One phone alone: a submit, then the baseline, alternating (a noisy moment hits both).
    submit_s, base_s = [], []
    queue = [
        (setup, planned)
        for plan, setup in zip(single_plans, tables[args.tables :], strict=True)
        for planned in plan.hands
    ][: args.single]
    probe = probes[0]
    for setup, planned in queue:
        phone = single_phone[setup.game_id]
        start = time.perf_counter()
        status = post(phone, setup.game_id, planned.fields)()
        submit_s.append(time.perf_counter() - start)
        if status != 201:
            raise SystemExit(f"single submit: HTTP {status}")
        sent += 1
        start = time.perf_counter()
        probe.get("/healthz")
        base_s.append(time.perf_counter() - start)

    # Bursts: every table submits its next hand at the same instant; then 40 /healthz at once.
    burst_s, burst_base_s, burst_wall, base_wall = [], [], [], []
    for round_ in range(args.bursts):
        calls = []
        for phone, plan, setup in zip(
            burst_phones, burst_plans, tables[: args.tables], strict=True
        ):
            if round_ < len(plan.hands):
                calls.append(post(phone, setup.game_id, plan.hands[round_].fields))
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
    result("submit.single.baseline_healthz.p50", median(base_s) * ms, "ms")
    result("submit.single.baseline_healthz.p95", percentile(base_s, 95) * ms, "ms")
    result("submit.single.hand.p50", median(submit_s) * ms, "ms")
    result("submit.single.hand.p95", percentile(submit_s, 95) * ms, "ms")
    result("submit.single.hand.ratio_p50", median(submit_s) / median(base_s), "x baseline")
    result("submit.burst40.baseline_healthz.p50", median(burst_base_s) * ms, "ms")
    result("submit.burst40.baseline_healthz.p95", percentile(burst_base_s, 95) * ms, "ms")
    result("submit.burst40.hand.p50", median(burst_s) * ms, "ms")
    result("submit.burst40.hand.p95", percentile(burst_s, 95) * ms, "ms")
    result(
        "submit.burst40.hand.ratio_p95",
        percentile(burst_s, 95) / percentile(burst_base_s, 95),
        "x baseline",
    )
    result("submit.burst40.hand.wall", median(burst_wall) * ms, "ms per burst")
    result("submit.burst40.baseline_healthz.wall", median(base_wall) * ms, "ms per burst")
    result("submit.requests", sent, "hands")
    for phone in [*burst_phones, *single_phone.values(), *probes]:
        phone.close()
    return sent


if __name__ == "__main__":
    sys.exit(main())
