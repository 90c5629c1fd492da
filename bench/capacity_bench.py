#!/usr/bin/env python3
"""Capacity: the hand submits per second gunicorn (production settings) sustains with a p95
under 200 ms, and that rate per core of the web processes, in an open-loop step test.

    python bench/capacity_bench.py          # SQLite, then PostgreSQL if BENCH_DATABASE_URL is set
    python bench/capacity_bench.py --database-url sqlite
    python bench/capacity_bench.py --database-url postgres://postgres@127.0.0.1:5432/kl_bench

Each step offers submits at a fixed rate for `--step` seconds (8; 3 with BENCH_QUICK=1),
whatever the answers' pace (open loop: a submit is due at its time and its latency counts from
then, so a server falling behind shows in the figures rather than slowing the offer). The rate
steps up (2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 80, 96, 128, 192, 256 hands/s) until a step's
p95 reaches 200 ms or a submit fails (`capacity.<vendor>.limit_reached` 1); when the last
step still holds, the figures are a floor, not the server's limit (0). Every submit is the real
one, `POST /games/<id>/hands/` with `Accept: application/json` and an idempotency key, sent by a
table's phone holding the table link's session; a table has one hand in flight at a time, its
game's hands in order, and moves to a new game when its game is over (the games are started,
and their phones join, between steps: the steps time hands only). Up to `--tables` tables play
at once (40); the most recently answered table sends next, so a slow step keeps few
connections warm, as a quiet night does.

Per step: offered and achieved rate, latency p50/p95 (from the submit's due time), errors, the
CPU seconds of gunicorn's master and workers (/proc) and the cores they used (CPU over wall
seconds), those of every `postgres` process on the machine (PostgreSQL only; another job's
queries count too), and this client's own (it shares the machine). The figure: the highest
achieved rate of a step with p95 < 200 ms and no error, and that rate over the cores gunicorn
used in that step, `capacity.<vendor>.per_core` (hands/s per core). Every acknowledged hand is
counted in the database at the end. On PostgreSQL the bench's clubs are deleted afterwards.
Bounded: a fixed number of submits per step, a timeout per submit; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import queue
import resource
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cli import database_or_each, production_env_in, server_arguments
from bench.harness import (
    GunicornServer,
    HttpSession,
    django_ready,
    median,
    percentile,
    result,
    vendor_of,
)
from bench.night_plan import (
    CREATED,
    DUPLICATE,
    PlannedHand,
    night_plan,
    night_setup,
    stored_hands,
    table_join,
)
from bench.proc_cpu import postgres_cpu_seconds, tree_cpu_seconds

QUICK = os.environ.get("BENCH_QUICK") == "1"
RATES = (2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 80.0, 96.0, 128.0, 192.0, 256.0)
P95_LIMIT = 0.200  # seconds
SUBMIT_TIMEOUT = 15.0
JSON = {"Accept": "application/json"}


@dataclass
class Table:
    """One table's phone on one game: its session (the table link's), the game's planned
    hands and how many were acknowledged."""

    phone: HttpSession
    game_id: int
    hands: tuple[PlannedHand, ...]
    sent: int = 0


@dataclass
class Step:
    offered: float
    submits: int = 0
    latencies: list[float] = field(default_factory=list)  # of acknowledged submits, seconds
    errors: int = 0
    wall: float = 0.0
    server_cpu: float = 0.0
    db_cpu: float = 0.0
    client_cpu: float = 0.0

    @property
    def achieved(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0

    @property
    def cores(self) -> float:
        return self.server_cpu / self.wall if self.wall else 0.0

    @property
    def sustained(self) -> bool:
        return not self.errors and percentile(self.latencies, 95) < P95_LIMIT


@dataclass
class Night:
    """Every table and game of the run: the tables waiting to send (last answered first), the
    games started but not yet sat at, and what the server acknowledged."""

    base: str
    idle: queue.LifoQueue[Table] = field(default_factory=queue.LifoQueue)
    reserve: deque[Table] = field(default_factory=deque)
    clubs: list[Any] = field(default_factory=list)
    game_ids: list[int] = field(default_factory=list)
    acknowledged: set[tuple[int, str]] = field(default_factory=set)
    unknown: int = 0  # submits whose fate the phone never learnt (no answer)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def hands_ready(self) -> int:
        tables = [*self.reserve, *list(self.idle.queue)]
        return sum(len(t.hands) - t.sent for t in tables)

    def start_games(self, hands: int, tables: int, seed: int) -> None:
        """Start games (and join their phones) until `hands` hands are ready to be sent by at
        least `tables` tables."""
        while self.hands_ready() < hands or len(self.reserve) + self.idle.qsize() < tables:
            plans = night_plan(max(4, tables - len(self.reserve) - self.idle.qsize()), 60, seed)
            seed += 1_000
            club, setups = night_setup(plans)
            self.clubs.append(club)
            for plan, setup in zip(plans, setups, strict=True):
                phone = table_join(self.base, setup)
                phone.close()  # idle connections are closed by the server (keepalive) anyway
                phone.timeout = SUBMIT_TIMEOUT
                self.game_ids.append(setup.game_id)
                self.reserve.append(Table(phone, setup.game_id, plan.hands))

    def seat(self, count: int) -> None:
        """Sit tables down until `count` are ready to send."""
        while self.idle.qsize() < count and self.reserve:
            self.idle.put(self.reserve.popleft())

    def submit(self, table: Table, due: float, step: Step) -> None:
        """Send the table's next hand; put the table back (or its next game) to wait."""
        hand = table.hands[table.sent]
        try:
            status, _, _ = table.phone.post_form(
                f"/games/{table.game_id}/hands/", hand.fields, JSON
            )
        except (OSError, http.client.HTTPException):
            status = 0
        done = time.perf_counter()
        # A resent submit (a keep-alive connection the server had just closed) may find its
        # hand stored already: the same key's answer says so, and the hand is acknowledged.
        stored = status in (CREATED, DUPLICATE)
        with self.lock:
            if stored:
                step.latencies.append(done - due)
                self.acknowledged.add((table.game_id, hand.fields["idempotency_key"]))
                table.sent += 1
            else:
                step.errors += 1
                self.unknown += status in (0, 502, 503, 504)
        if stored and table.sent < len(table.hands):
            self.idle.put(table)
            return
        # Game over, or a hand whose fate is unsure: this table moves to a new game.
        table.phone.close()
        with contextlib.suppress(IndexError):
            self.idle.put(self.reserve.popleft())


def step_run(night: Night, rate: float, seconds: float, server_pid: int, db: bool) -> Step:
    """Offer `rate` submits a second for `seconds`, and wait for every answer."""
    step = Step(rate, submits=max(1, round(rate * seconds)))
    before = (tree_cpu_seconds(server_pid), postgres_cpu_seconds() if db else 0.0)
    client = resource.getrusage(resource.RUSAGE_SELF)
    with ThreadPoolExecutor(max_workers=night.idle.qsize() + 1) as pool:
        start = time.perf_counter() + 0.05
        futures = []
        for i in range(step.submits):
            due = start + i / rate
            time.sleep(max(0.0, due - time.perf_counter()))
            try:
                # Every table has a hand in flight: the submit waits (its latency runs).
                table = night.idle.get(timeout=SUBMIT_TIMEOUT)
            except queue.Empty:
                with night.lock:
                    step.errors += step.submits - i
                break
            futures.append(pool.submit(night.submit, table, due, step))
        wait(futures, timeout=SUBMIT_TIMEOUT * 2)
    step.wall = max(step.submits / rate, time.perf_counter() - start)
    step.server_cpu = tree_cpu_seconds(server_pid) - before[0]
    step.db_cpu = (postgres_cpu_seconds() - before[1]) if db else 0.0
    after = resource.getrusage(resource.RUSAGE_SELF)
    step.client_cpu = after.ru_utime + after.ru_stime - client.ru_utime - client.ru_stime
    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        help="'sqlite' or a postgres:// URL (default: SQLite, then BENCH_DATABASE_URL if set)",
    )
    parser.add_argument(
        "--rates",
        type=lambda text: tuple(float(r) for r in text.split(",")),
        default=RATES,
        help="hands/s offered by the steps, comma-separated",
    )
    parser.add_argument("--step", type=float, default=3 if QUICK else 8, help="seconds a step")
    parser.add_argument("--tables", type=int, default=40, help="tables playing at once, at most")
    server_arguments(parser)
    args = parser.parse_args(argv)
    status = database_or_each(__file__, argv, args)
    if status is not None:
        return status

    with tempfile.TemporaryDirectory(prefix="kaiser-capacity-") as tmp:
        env = production_env_in(tmp, args.database_url)
        django_ready(env)
        server = GunicornServer(env, workers=args.workers, threads=args.threads)
        night = Night(base=server.start())
        try:
            assert server.process is not None
            steps = measure(night, args, server.process.pid)
            server.close()
            return verify(night, steps, vendor_of(args.database_url))
        finally:
            server.close()
            from scorecards.models import Game

            for club in night.clubs:
                Game.objects.filter(club=club).delete()
                club.delete()


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure(night: Night, args: argparse.Namespace, server_pid: int) -> list[Step]:
    vendor = vendor_of(args.database_url)
    key = f"capacity.{vendor}"
    print(f"gunicorn {args.workers} workers x {args.threads} threads on {night.base}, {vendor}")
    print(f"load average before (1, 5, 15 min): {_load()}")
    probe = HttpSession(night.base)
    healthz = []
    for _ in range(50):
        start = time.perf_counter()
        probe.get("/healthz")
        healthz.append(time.perf_counter() - start)
    probe.close()
    result(f"{key}.baseline_healthz.p50", median(healthz) * 1000, "ms")
    db = vendor == "postgresql"
    # Warm every worker on the real path, untimed.
    night.start_games(args.tables * 2, args.tables, seed=1)
    night.seat(args.tables)
    step_run(night, 4, 2, server_pid, db)
    steps = []
    for index, rate in enumerate(args.rates):
        hands = round(rate * args.step)
        # A game lasts about 20 hands: its table then needs a new one.
        night.start_games(hands + args.tables * 2, args.tables + hands // 10, seed=10 + index)
        night.seat(args.tables)
        time.sleep(0.5)  # the set-up's requests drain
        step = step_run(night, rate, args.step, server_pid, db)
        steps.append(step)
        name = f"{key}.rate{rate:g}"
        result(f"{name}.offered", rate, "hands/s")
        result(f"{name}.achieved", step.achieved, "hands/s")
        result(f"{name}.p50", median(step.latencies) * 1000, "ms")
        result(f"{name}.p95", percentile(step.latencies, 95) * 1000, "ms")
        result(f"{name}.errors", step.errors, "submits")
        result(f"{name}.server_cpu", step.server_cpu, "s")
        result(f"{name}.server_cores", step.cores, "cores")
        result(f"{name}.client_cpu", step.client_cpu, "s")
        if db:
            result(f"{name}.postgres_cpu", step.db_cpu, "s (every postgres process)")
        if not step.sustained:
            break
    limit_reached = bool(steps) and not steps[-1].sustained
    result(f"{key}.limit_reached", int(limit_reached), "(1: a step failed)")
    best = max((s for s in steps if s.sustained), key=lambda s: s.achieved, default=None)
    rate = best.achieved if best else 0.0
    result(f"{key}.max_rate", rate, "hands/s at p95 < 200 ms")
    result(f"{key}.cores_at_max", best.cores if best else 0.0, "cores")
    result(f"{key}.per_core", rate / best.cores if best and best.cores else 0.0, "hands/s per core")
    if db and best:
        both = (best.server_cpu + best.db_cpu) / best.wall
        result(f"{key}.per_core_with_postgres", rate / both if both else 0.0, "hands/s per core")
    print(f"load average after (1, 5, 15 min): {_load()}")
    return steps


def verify(night: Night, steps: list[Step], vendor: str) -> int:
    """Every acknowledged hand stored once; a hand stored unacknowledged only for a submit
    that got no answer. Returns the exit status."""
    stored = stored_hands(night.game_ids)
    keys = [(game_id, key) for game_id, rows in stored.items() for _number, key in rows]
    missing = len(night.acknowledged - set(keys)) + (len(keys) - len(set(keys)))
    unacknowledged = len(set(keys) - night.acknowledged)
    key = f"capacity.{vendor}"
    result(f"{key}.rows_acknowledged", len(night.acknowledged), "hands")
    result(f"{key}.rows_stored", len(keys), "hands")
    result(f"{key}.rows_missing_or_doubled", missing, "hands")
    result(f"{key}.rows_stored_unacknowledged", unacknowledged, "hands")
    ok = missing == 0 and unacknowledged <= night.unknown
    return 0 if ok and steps else 1


if __name__ == "__main__":
    sys.exit(main())
