#!/usr/bin/env python3
"""The sheet's "nothing changed" poll through gunicorn (production settings, a shared Redis
cache), beside `/healthz` in the same run: latency of one phone polling alone, and polls per
second per core (requests answered per CPU-second of the server's processes, read from
/proc), in alternating rounds so that both see the same machine.

    python bench/poll_bench.py            # SQLite; Redis started on a free 127.0.0.1 port

Every open sheet polls every 4 s; a hosted service of 200 clubs x 40 players is about 2,000
polls/s. The poll measured is the one a phone sends while nothing changed: it carries the
sheet's version and the poll token the first (full) poll gave it, and is answered 204 from the
cache with no SQL query. Figures are named `poll.sqlite.…`. Bounded: a fixed number of
requests per round; 127.0.0.1 only. Needs `redis-server` (Debian's package `redis-server`):
without a shared cache the poll is never answered from the cache.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (
    GunicornServer,
    HttpSession,
    free_port,
    median,
    percentile,
    production_env,
    result,
)
from bench.proc_cpu import tree_cpu_seconds
from bench.submit_bench import sheet_seen

QUICK = os.environ.get("BENCH_QUICK") == "1"
HTMX = {"HX-Request": "true"}


def _round(
    sessions: list[HttpSession], path: str, requests: int, expect: int, server_pid: int
) -> tuple[float, float]:
    """`requests` GETs of `path` over the sessions' threads: (requests/s of wall time,
    requests per server CPU-second)."""
    counter = iter(range(requests))
    lock = threading.Lock()
    bad: list[int] = []

    def worker(session: HttpSession) -> None:
        while True:
            with lock:
                if next(counter, None) is None:
                    return
            status, _, _ = session.get(path, headers=HTMX)
            if status != expect:
                with lock:
                    bad.append(status)

    threads = [threading.Thread(target=worker, args=(s,)) for s in sessions]
    cpu = tree_cpu_seconds(server_pid)
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    cpu = tree_cpu_seconds(server_pid) - cpu
    if bad:
        raise RuntimeError(f"{path}: {len(bad)} answers were not {expect}, first {bad[0]}")
    return requests / wall, requests / max(cpu, 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3 if QUICK else 6)
    parser.add_argument("--requests", type=int, default=400 if QUICK else 1500)
    parser.add_argument("--single", type=int, default=100 if QUICK else 300)
    parser.add_argument("--clients", type=int, default=4, help="polling phones at once")
    args = parser.parse_args(argv)
    redis = shutil.which("redis-server")
    if redis is None:
        print("redis-server is not installed: the poll is never answered from the cache")
        return 1
    port = free_port()
    store = subprocess.Popen(
        [redis, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return _measure(args, f"redis://127.0.0.1:{port}/0")
    finally:
        store.terminate()
        store.wait(timeout=10)


def _measure(args: argparse.Namespace, cache_url: str) -> int:
    env = production_env(
        static_root=Path(tempfile.mkdtemp(prefix="kaiser-poll-")) / "static",
        sqlite_path=Path(tempfile.mkdtemp(prefix="kaiser-poll-")) / "poll.sqlite3",
    )
    env["CACHE_URL"] = cache_url
    env.pop("ALLOW_PER_PROCESS_CACHE", None)
    os.environ.update({"CACHE_URL": cache_url})
    from bench.http_bench import setup_data

    data = setup_data(env, 20)  # the games are written here, their versions into Redis
    # One worker, one thread: the per-core figure is the server's CPU per request.
    server = GunicornServer(env, workers=1, threads=1)
    try:
        base = server.start()
        assert server.process is not None
        server_pid = server.process.pid
        phones = []
        for _ in range(args.clients):
            phone = HttpSession(base)
            phone.cookies[data["session_cookie"]] = data["session"]
            phones.append(phone)
        sheet = data["sheet_path"]
        seen = sheet_seen(phones[0].get(sheet)[2])
        poll_path = sheet.rstrip("/") + "/poll?" + "&".join(f"{k}={v}" for k, v in seen.items())
        for phone in phones:
            # The first poll takes the full path and gives the phone its poll token.
            status, _, _ = phone.get(poll_path, headers=HTMX)
            if status != 204 or "kl_poll" not in phone.cookies:
                print(f"the first poll answered {status} without a poll token")
                return 1
        single_poll: list[float] = []
        single_health: list[float] = []
        single_full: list[float] = []  # the same poll without its token: the long way
        for _ in range(args.single):
            for path, times, expect in (
                ("/healthz", single_health, 200),
                (poll_path, single_poll, 204),
                (poll_path + "&full", single_full, 204),
            ):
                token = phones[0].cookies.pop("kl_poll", "")
                if times is not single_full:
                    phones[0].cookies["kl_poll"] = token
                start = time.perf_counter()
                status, _, _ = phones[0].get(path, headers=HTMX)
                times.append((time.perf_counter() - start) * 1000)
                if status != expect:
                    print(f"{path} answered {status}")
                    return 1
        rates: dict[str, list[tuple[float, float]]] = {"healthz": [], "poll": []}
        for _ in range(args.rounds):
            rates["healthz"].append(_round(phones, "/healthz", args.requests, 200, server_pid))
            rates["poll"].append(_round(phones, poll_path, args.requests, 204, server_pid))
    finally:
        server.close()
    result("poll.sqlite.single.baseline_healthz.p50", median(single_health), "ms")
    result("poll.sqlite.single.unchanged.p50", median(single_poll), "ms")
    result("poll.sqlite.single.unchanged.p95", percentile(single_poll, 95), "ms")
    result("poll.sqlite.single.full_path.p50", median(single_full), "ms")
    for name, figures in rates.items():
        per_second = median([wall for wall, _ in figures])
        per_core = median([core for _, core in figures])
        label = "baseline_healthz" if name == "healthz" else "unchanged"
        result(f"poll.sqlite.load.{label}.per_second", per_second, "requests/s")
        result(f"poll.sqlite.load.{label}.per_core", per_core, "requests/s per core")
    poll_core = median([core for _, core in rates["poll"]])
    health_core = median([core for _, core in rates["healthz"]])
    result("poll.sqlite.load.unchanged.cost_x_healthz", health_core / poll_core, "x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
