#!/usr/bin/env python3
"""Run the processes of a Procfile together, as `make serve` does: web, worker, beat.

    python deploy/procrun.py deploy/Procfile

Each line `name: command` starts in its own process group (through /bin/sh, so `${VAR:-default}`
works) with its output prefixed by its name. Ctrl-C or SIGTERM stops every child; so does any one
child exiting, because a club server with no worker or no web process is not running. Children get
SIGTERM and `--grace` seconds to finish (gunicorn and Celery finish their current request or task),
then SIGKILL. The exit status is 0 after a signal, else the status of the child that stopped first.
No dependency: honcho or foreman would do the same, this is 100 lines we can read.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

LINE = re.compile(r"^(?P<name>[A-Za-z0-9_-]+):\s*(?P<command>.+)$")


def procfile_read(path: Path) -> list[tuple[str, str]]:
    """The (name, command) pairs of a Procfile, skipping blank lines and # comments."""
    entries = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = LINE.match(line)
        if match is None:
            raise SystemExit(f"{path}:{number}: expected 'name: command', got {raw!r}")
        entries.append((match["name"], match["command"]))
    if not entries:
        raise SystemExit(f"{path}: no processes")
    return entries


def _pump(name: str, width: int, stream, lock: threading.Lock) -> None:
    for raw in iter(stream.readline, b""):
        text = raw.decode(errors="replace").rstrip("\n")
        with lock:
            print(f"{name:<{width}} | {text}", flush=True)


def run(entries: list[tuple[str, str]], grace: float) -> int:
    stop = threading.Event()
    received: list[int] = []

    def on_signal(signum: int, _frame) -> None:
        received.append(signum)
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    lock = threading.Lock()
    width = max(len(name) for name, _ in entries)
    children: dict[str, subprocess.Popen] = {}
    for name, command in entries:
        child = subprocess.Popen(
            ["/bin/sh", "-c", f"exec {command}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # our own group: Ctrl-C reaches us only, we stop them in order
        )
        children[name] = child
        threading.Thread(target=_pump, args=(name, width, child.stdout, lock), daemon=True).start()
        with lock:
            print(f"{'procrun':<{width}} | started {name} (pid {child.pid}): {command}", flush=True)
    first_exit: tuple[str, int] | None = None
    while not stop.is_set():
        for name, child in children.items():
            if child.poll() is not None:
                first_exit = (name, child.returncode)
                stop.set()
                break
        stop.wait(0.2)
    with lock:
        why = f"{first_exit[0]} exited with {first_exit[1]}" if first_exit else "signal"
        print(f"{'procrun':<{width}} | stopping everything ({why})", flush=True)
    for child in children.values():
        if child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
    for name, child in children.items():
        if child.poll() is None:
            with lock:
                print(f"{'procrun':<{width}} | {name} did not stop, killing it", flush=True)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    if first_exit is not None and not received:
        return first_exit[1] or 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("procfile", type=Path)
    parser.add_argument("--grace", type=float, default=20.0, help="seconds before SIGKILL")
    args = parser.parse_args(argv)
    return run(procfile_read(args.procfile), args.grace)


if __name__ == "__main__":
    sys.exit(main())
