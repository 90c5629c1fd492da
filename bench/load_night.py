#!/usr/bin/env python3
"""A club night under load: 40 tables, 160 phones, hands entered through the table sheet's hand
endpoint, compressed into a short run, with a burst of 40 simultaneous submits. Then every row in
the database is counted against what the phones were told.

    python bench/load_night.py                          # own gunicorn, throw-away SQLite
    python bench/load_night.py --database-url postgres://postgres@127.0.0.1:5432/kaiser_i6
    python bench/load_night.py --base-url http://127.0.0.1:8000 --database-url ...  # a running
                                                        # server (make serve) on that database

The hand-entry endpoint is the real table sheet's (`hand_submit`, scorecards/table_views.py):
`POST /games/<id>/hands/` with form fields `idempotency_key`
(a UUID), `number`, `bidder`, `bid`, `kind`, `tricks_0`, `tricks_1`, `five_hearts`,
`three_spades`, header `Accept: application/json`; answers 201 created, 200 duplicate (same key
again), 409 conflict (that number is taken), 422 invalid. A phone gets in through the table link
`/t/<token>/` (a session cookie), then reads the sheet for its CSRF cookie.

Each table sends its hands every `--interval` game seconds (90), divided by `--speedup`; some
phones resend the same hand with the same key (a dropped answer: expect 200) and some tables have
a second phone enter the same hand number (expect 409). Half-way, all tables submit at the same
instant (the burst). Pass: no 5xx, no connection failure left unretried, every acknowledged hand
stored exactly once and nothing else stored. Exit status: 0 pass, 1 fail, 2 endpoint missing.

Bounded: a fixed number of hands and `--time-limit` seconds; 127.0.0.1 only. The plan and the
set-up are in bench/night_plan.py, the verdict in bench/night_verdict.py; this module runs the
night.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import production_env_in
from bench.harness import (
    HttpSession,
    django_ready,
    gunicorn_server,
    local_base_url,
)
from bench.night_plan import (  # noqa: F401 - the load tests import the whole night from here
    CONFLICT,
    CREATED,
    DUPLICATE,
    INVALID,
    MISSING,
    PlannedHand,
    TablePlan,
    TableSetup,
    hand_fields,
    night_plan,
    night_setup,
    stored_hands,
    table_join,
)
from bench.night_verdict import (  # noqa: F401
    NightRun,
    Outcome,
    Verdict,
    night_report,
    night_verify,
    verdict_results,
)

RETRY_DELAYS = (0.2, 0.4, 0.8, 1.5, 2.5, 4.0)  # about 9 s in all: a web process restarting


def _submit(phone: HttpSession, game_id: int, fields: dict[str, str]) -> tuple[int, float, int]:
    """POST one hand; on a dropped, refused or cut connection, or a 502/503 from a proxy, resend it
    with the same idempotency key after a pause (as the phone's outbox does), up to
    len(RETRY_DELAYS) times. Returns (status or 0, seconds of the last try, retries)."""
    status = 0
    for attempt, delay in enumerate((*RETRY_DELAYS, None)):
        start = time.perf_counter()
        try:
            status, _, _ = phone.post_form(
                f"/games/{game_id}/hands/", fields, {"Accept": "application/json"}
            )
        except (OSError, http.client.HTTPException):
            # Refused, dropped, or cut mid-answer (a web process killed after its commit): the
            # phone cannot tell whether the hand was stored, so it sends it again.
            phone.close()
            status = 0
        if status not in (0, 502, 503) or delay is None:
            return status, time.perf_counter() - start, attempt
        time.sleep(delay)
    return status, time.perf_counter() - start, len(RETRY_DELAYS)


def night_run(
    base_url: str,
    plans: list[TablePlan],
    tables: list[TableSetup],
    *,
    phones_per_table: int = 4,
    interval: float = 90.0,
    speedup: float = 45.0,
    burst: bool = True,
    resend_share: float = 0.1,
    conflict_share: float = 0.05,
    time_limit: float = 300.0,
    seed: int = 6,
    burst_started: threading.Event | None = None,
) -> NightRun:
    """Play the night against `base_url`: one thread per table, its phones taking turns. Every
    phone joins its table first; the night's clock starts once all have. `burst_started` (if
    given) is set the moment the burst is released (a fault test restarts the server then)."""
    local_base_url(base_url)
    run = NightRun()
    lock = threading.Lock()
    rng = random.Random(seed)
    gap = interval / speedup
    offsets = [rng.uniform(0, gap) for _ in plans]
    burst_number = max(1, min(len(p.hands) for p in plans) // 2 + 1) if burst else None
    barrier = (
        threading.Barrier(len(plans), action=burst_started.set if burst_started else None)
        if burst
        else None
    )
    missing = threading.Event()
    clock = {"start": time.monotonic()}
    deadline = clock["start"] + time_limit

    def clock_start() -> None:
        clock["start"] = time.monotonic()

    joined = threading.Barrier(len(plans), action=clock_start)

    def table_thread(plan: TablePlan, setup: TableSetup, offset: float) -> None:
        table_rng = random.Random(seed * 1000 + plan.table)
        try:
            phones = [table_join(base_url, setup) for _ in range(phones_per_table)]
        except (RuntimeError, OSError) as exc:
            with lock:
                run.join_failures.append(str(exc))
            joined.abort()
            if barrier is not None:
                barrier.abort()
            return
        with contextlib.suppress(threading.BrokenBarrierError):
            joined.wait(timeout=max(1.0, deadline - time.monotonic()))
        start = clock["start"]
        passed_burst = False
        try:
            for planned in plan.hands:
                at_burst = planned.number == burst_number
                if at_burst:
                    passed_burst = True
                    with contextlib.suppress(threading.BrokenBarrierError):
                        assert barrier is not None
                        barrier.wait(timeout=max(1.0, deadline - time.monotonic()))
                else:
                    when = start + offset + (planned.number - 1) * gap
                    time.sleep(max(0.0, min(when, deadline) - time.monotonic()))
                if missing.is_set() or time.monotonic() > deadline:
                    with lock:
                        run.stopped_by_time_limit |= time.monotonic() > deadline
                    return
                phone = phones[(planned.number - 1) % len(phones)]
                sends = [(phone, planned.fields, "enter")]
                if table_rng.random() < resend_share:
                    sends.append((phone, planned.fields, "resend"))
                if table_rng.random() < conflict_share:
                    other = phones[planned.number % len(phones)]
                    rival = dict(planned.fields, idempotency_key=str(uuid.uuid4()))
                    sends.append((other, rival, "conflict"))
                for sender, fields, kind in sends:
                    status, seconds, retries = _submit(sender, setup.game_id, fields)
                    with lock:
                        run.connection_retries += retries
                        run.outcomes.append(
                            Outcome(
                                plan.table,
                                setup.game_id,
                                planned.number,
                                fields["idempotency_key"],
                                status,
                                seconds,
                                kind,
                                at_burst and kind == "enter",
                            )
                        )
                    if status in MISSING:
                        missing.set()
                        run.endpoint_missing = True
                        return
        finally:
            if barrier is not None and not passed_burst:
                # A table that stops before the burst must not hold the others at the barrier.
                barrier.abort()
            for phone in phones:
                phone.close()

    threads = [
        threading.Thread(target=table_thread, args=(plan, setup, offset), daemon=True)
        for plan, setup, offset in zip(plans, tables, offsets, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()) + 30)
    run.seconds = time.monotonic() - clock["start"]
    return run


# --- Command line ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="a running server (else one is started)")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--phones", type=int, default=4, help="phones per table")
    parser.add_argument("--hands", type=int, default=10, help="hands per table (at most)")
    parser.add_argument("--interval", type=float, default=90.0, help="game seconds per hand")
    parser.add_argument("--speedup", type=float, default=45.0)
    parser.add_argument("--no-burst", action="store_true")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    if args.base_url:
        local_base_url(args.base_url)
        if not args.database_url:
            parser.error("--base-url needs --database-url: the rows are counted in the database")
    if args.tables * args.hands > 20_000 or args.time_limit > 3600:
        parser.error("bounded runs only: at most 20000 hands and one hour")

    with tempfile.TemporaryDirectory(prefix="kaiser-night-") as tmp:
        env = production_env_in(tmp, args.database_url)
        django_ready(env, migrate=not args.base_url)
        plans = night_plan(args.tables, args.hands, args.seed)
        club, tables = night_setup(plans)
        options = {
            "phones_per_table": args.phones,
            "interval": args.interval,
            "speedup": args.speedup,
            "burst": not args.no_burst,
            "time_limit": args.time_limit,
            "seed": args.seed,
        }
        try:
            if args.base_url:
                run = night_run(args.base_url, plans, tables, **options)
            else:
                with gunicorn_server(env, workers=args.workers, threads=args.threads) as base:
                    run = night_run(base, plans, tables, **options)
            verdict = night_verify(run, stored_hands([t.game_id for t in tables]))
        finally:
            from scorecards.models import Game

            Game.objects.filter(club=club).delete()
            club.delete()
    print(night_report(verdict, run, args.tables, args.phones))
    if verdict.endpoint_missing:
        return 2
    verdict_results(verdict)
    return 0 if verdict.passed else 1


if __name__ == "__main__":
    sys.exit(main())
