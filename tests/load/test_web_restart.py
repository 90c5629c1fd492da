"""Fault: the web process restarts in the middle of a burst of 40 simultaneous submits. The
phones resend with their idempotency keys until the server answers again: no hand lost, none
stored twice (every row counted against what the phones were told). SQLite and PostgreSQL."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from bench.load_night import (
    night_plan,
    night_report,
    night_run,
    night_setup,
    night_verify,
    stored_hands,
)
from scorecards.models import Hand, HandVersion

TABLES = 40


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["crash", "restart"])
def test_a_web_restart_mid_burst_loses_and_duplicates_nothing(web_server, sig) -> None:
    plans = night_plan(TABLES, 3)
    _, tables = night_setup(plans)
    burst = threading.Event()
    restarts: list[float] = []

    def restart_at_burst() -> None:
        if not burst.wait(timeout=60):
            return
        time.sleep(0.03)  # let the burst reach the server: requests are in flight
        started = time.monotonic()
        web_server.stop(sig)
        web_server.start()
        restarts.append(time.monotonic() - started)

    fault = threading.Thread(target=restart_at_burst)
    fault.start()
    run = night_run(
        web_server.base_url,
        plans,
        tables,
        speedup=600,
        resend_share=0.2,
        conflict_share=0.1,
        time_limit=90,
        burst_started=burst,
    )
    fault.join(timeout=60)
    verdict = night_verify(run, stored_hands([t.game_id for t in tables]))
    report = night_report(verdict, run, tables=TABLES, phones=4)
    assert restarts, "the server was not restarted"
    assert run.connection_retries > 0, "no phone saw the restart: it came too late"
    assert not run.join_failures, report
    assert verdict.passed, report
    # Every hand of the plan was acknowledged and is stored exactly once, with one version.
    planned = sum(len(p.hands) for p in plans)
    assert verdict.acknowledged == verdict.stored == planned, report
    assert Hand.objects.count() == HandVersion.objects.count() == planned
    print(report, f"\nrestart took {restarts[0]:.2f} s")
