"""A real Celery worker (prefork, one child) for the worker-kill fault test, with one test hook:
the first run of each task writes the child's pid to `KAISER_PAUSE_FILE` and sleeps, so the test
can kill that child in the middle of the rebuild. Later runs go straight through.

    python -m tests.paused_worker --queues Q ...   (the arguments of `celery worker`)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from celery.signals import task_prerun

from kaiser_league.celery import app

PAUSE_FILE = Path(os.environ["KAISER_PAUSE_FILE"])


@task_prerun.connect
def _pause_first_run(task_id=None, task=None, **kwargs) -> None:
    with (PAUSE_FILE.parent / "runs.log").open("a") as runs:
        runs.write(f"{task.name} {os.getpid()}\n")
    if not PAUSE_FILE.exists():
        PAUSE_FILE.write_text(str(os.getpid()))
        time.sleep(60)  # killed here by the test


if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])
