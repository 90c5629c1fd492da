"""A Celery worker as the unit starts it writes its lines in the project's format (UTC with the
zone, the request-id field) and knows the housekeeping tasks beat queues."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.harness import ROOT

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"


def test_worker_lines_share_the_project_format_and_know_the_housekeeping_tasks(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    # An in-process broker: nothing to install, the worker starts and waits as on a server.
    env.update(CELERY_BROKER_URL="memory://", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    out = tmp_path / "worker.log"
    celery = str(Path(sys.executable).parent / "celery")
    command = [celery, "--app", "kaiser_league", "worker", "--pool", "solo", "--loglevel", "INFO"]
    command += ["--without-mingle", "--without-gossip", "--without-heartbeat"]
    with out.open("wb") as sink:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and " ready." not in out.read_text():
            time.sleep(0.2)
    finally:
        worker.send_signal(signal.SIGINT)
        worker.wait(timeout=30)
    text = out.read_text()
    for task in ("worker_heartbeat", "sessions_purge", "login_attempts_purge"):
        assert f". kaiser_league.{task}" in text
    lines = [line for line in text.splitlines() if re.match(r"\d{4}-", line)]
    assert any(
        re.fullmatch(STAMP + r" INFO \[-\] celery\.apps\.worker: .* ready\.", line)
        for line in lines
    ), text
    # No line in Celery's own format ("[2026-01-31 20:00:00,000: INFO/MainProcess]", local time).
    assert not re.search(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}: ", text, re.M)
