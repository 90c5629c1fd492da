#!/usr/bin/env python3
"""`make bench`: run every bench/*_bench.py present, each in its own process, and write
bench/RESULTS.md with the machine, the date, the goals table and every figure.

Each benchmark prints its figures as lines `RESULT name=value unit` (anything else it prints is
shown but not collected) and measures its own baseline in the same run, so ratios hold on a noisy
machine. The goals table (bench/goals.py) puts each figure the speed work is judged by beside
its baseline and its goal. A benchmark that fails or times out, or one that ran without printing
a figure of the table, is reported and makes the exit status 1; a missed goal does too with
--strict.

    python bench/run_all.py                 # everything; SQLite, and PostgreSQL when
                                            # BENCH_DATABASE_URL is set
    python bench/run_all.py --only http     # bench/http_bench.py only
    BENCH_QUICK=1 python bench/run_all.py   # short runs (each bench reads BENCH_QUICK), written
                                            # to a temporary file rather than RESULTS.md
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))

from bench import goals  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
RESULT = re.compile(r"^RESULT (?P<name>[\w.:/-]+)=(?P<value>\S+)(?: (?P<unit>.*))?$")


def parse_results(output: str) -> list[tuple[str, str, str]]:
    """The (name, value, unit) of every `RESULT name=value unit` line, in order."""
    found = []
    for line in output.splitlines():
        match = RESULT.match(line.strip())
        if match:
            found.append((match["name"], match["value"], (match["unit"] or "").strip()))
    return found


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    postgres = os.environ.get("BENCH_DATABASE_URL", "")
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = ""
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "cpu": f"{cpu} ({os.cpu_count()} logical)",
        "memory": memory,
        "os": platform.platform(),
        "python": platform.python_version(),
        "commit": commit,
        "databases": "throw-away SQLite (WAL)"
        + (f", PostgreSQL {postgres.split('@')[-1]}" if postgres else ", no PostgreSQL"),
        "load average at the end (1, 5, 15 min)": load,
    }


def run_one(path: Path, timeout: float) -> tuple[int, str, float]:
    """Run one benchmark, echoing its output; returns (exit status, output, seconds)."""
    start = time.monotonic()
    lines: list[str] = []
    process = subprocess.Popen(
        [sys.executable, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            print(f"  {line}", end="", flush=True)
            lines.append(line)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        status = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        lines.append(f"TIMEOUT after {timeout:.0f} s\n")
        status = 124
    reader.join(timeout=5)
    return status, "".join(lines), time.monotonic() - start


def judged(runs: list[tuple[str, int, str, float]]) -> list[goals.Row]:
    """The goals table of these runs."""
    results: dict[str, tuple[float, str]] = {}
    for _name, _status, output, _seconds in runs:
        for key, value, unit in parse_results(output):
            try:
                results[key] = (float(value), unit)
            except ValueError:
                continue
    ran = {name.removesuffix(".py").removesuffix("_bench") for name, *_ in runs}
    return goals.judge(results, ran, bool(os.environ.get("BENCH_DATABASE_URL")))


def report(info: dict[str, str], runs: list[tuple[str, int, str, float]], note: str = "") -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Benchmark results",
        "",
        *([f"**{note}**", ""] if note else []),
        f"Written by `make bench` (bench/run_all.py) on {now}"
        f"{' (BENCH_QUICK=1: short runs, small sizes)' if QUICK else ''}. Every figure is "
        "measured beside its baseline in the same run; compare ratios between machines, not "
        "absolute times.",
        "",
        "| machine | |",
        "|---|---|",
        *(f"| {key} | {value} |" for key, value in info.items()),
        "",
        "## Goals",
        "",
        *goals.summary(judged(runs)),
        "",
    ]
    for name, status, output, seconds in runs:
        state = "ok" if status == 0 else f"FAILED (exit {status})"
        out += [f"## {name}", "", f"{state}, {seconds:.0f} s", ""]
        results = parse_results(output)
        if results:
            out += ["| figure | value | unit |", "|---|---:|---|"]
            out += [f"| {key} | {value} | {unit} |" for key, value, unit in results]
            out.append("")
        if status != 0:
            tail = output.strip().splitlines()[-15:]
            out += ["```", *tail, "```", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only NAME_bench.py (repeatable)")
    parser.add_argument(
        "--timeout", type=float, default=float(os.environ.get("BENCH_TIMEOUT", 900))
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(tempfile.gettempdir()) / "kaiser-bench-quick.md"
        if QUICK
        else BENCH_DIR / "RESULTS.md",
    )
    parser.add_argument("--dir", type=Path, default=BENCH_DIR, help="where the benchmarks are")
    parser.add_argument("--note", default="", help="a line at the top (e.g. what run this is)")
    parser.add_argument("--strict", action="store_true", help="a missed goal fails the run")
    args = parser.parse_args(argv)
    benches = sorted(args.dir.glob("*_bench.py"))
    if args.only:
        benches = [b for b in benches if b.stem.removesuffix("_bench") in args.only]
    if not benches:
        print("no benchmarks found (bench/*_bench.py)", file=sys.stderr)
        return 1
    runs = []
    for path in benches:
        print(f"== {path.name}", flush=True)
        status, output, seconds = run_one(path, args.timeout)
        runs.append((path.name, status, output, seconds))
        print(f"== {path.name}: {'ok' if status == 0 else f'FAILED ({status})'} in {seconds:.0f} s")
    args.output.write_text(report(machine(), runs, args.note) + "\n")
    rows = judged(runs)
    print("\n".join(["", *goals.summary(rows), ""]))
    print(f"wrote {args.output}")
    for row in goals.failed(rows):
        print(f"MISSING: {row.figure.label} ({row.figure.key}) was not printed by its bench")
    missed = [row for row in rows if row.verdict == goals.FAIL]
    ok = all(status == 0 for _, status, _, _ in runs) and not goals.failed(rows)
    return 0 if ok and not (args.strict and missed) else 1


if __name__ == "__main__":
    sys.exit(main())
