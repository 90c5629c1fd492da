"""What a club night did (each submit's outcome) and the verdict on it: every row in the
database counted against what the phones were told, the latencies, the closing report."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import percentile, result
from bench.night_plan import CONFLICT, CREATED, DUPLICATE, MISSING


@dataclass
class Outcome:
    table: int
    game_id: int
    number: int
    key: str
    status: int  # 0: no answer after retries
    seconds: float
    kind: str  # "enter", "resend", "conflict"
    burst: bool = False


@dataclass
class NightRun:
    outcomes: list[Outcome] = field(default_factory=list)
    endpoint_missing: bool = False
    join_failures: list[str] = field(default_factory=list)
    connection_retries: int = 0
    seconds: float = 0.0
    stopped_by_time_limit: bool = False


@dataclass
class Verdict:
    sent: int
    statuses: dict[int, int]
    server_errors: int
    unanswered: int
    unexpected: list[str]  # answers that break the contract (e.g. a resend not given 200)
    acknowledged: int  # hands the phones were told are stored
    stored: int
    lost: list[str]  # acknowledged but not in the database
    extra: list[str]  # in the database but never acknowledged, or stored twice
    p50_ms: float
    p95_ms: float
    max_ms: float
    burst_p95_ms: float
    steady_p95_ms: float  # every submit outside the burst
    endpoint_missing: bool

    @property
    def passed(self) -> bool:
        return not (
            self.endpoint_missing
            or self.server_errors
            or self.unanswered
            or self.unexpected
            or self.lost
            or self.extra
        )


def night_verify(run: NightRun, stored: dict[int, list[tuple[int, str]]]) -> Verdict:
    """Count the rows against what was sent and what each phone was told."""
    statuses: dict[int, int] = {}
    for outcome in run.outcomes:
        statuses[outcome.status] = statuses.get(outcome.status, 0) + 1
    acknowledged: dict[tuple[int, int], str] = {}
    unexpected = []
    for o in run.outcomes:
        where = f"game {o.game_id} hand {o.number} ({o.kind})"
        if o.kind == "enter" and o.status in (CREATED, DUPLICATE):
            acknowledged[(o.game_id, o.number)] = o.key
        elif o.kind == "resend" and o.status not in (DUPLICATE, CREATED):
            unexpected.append(f"{where}: HTTP {o.status}, expected 200 for the same key")
        elif o.kind == "conflict" and o.status not in (CONFLICT,):
            if o.status in (CREATED, DUPLICATE):
                unexpected.append(f"{where}: a second key for a taken number was stored")
            elif o.status and o.status < 500:
                unexpected.append(f"{where}: HTTP {o.status}, expected 409")
        elif o.kind == "enter" and o.status and o.status < 500 and o.status not in MISSING:
            unexpected.append(f"{where}: HTTP {o.status}")
    lost = []
    extra = []
    for game_id, rows in stored.items():
        seen: dict[int, list[str]] = {}
        for number, key in rows:
            seen.setdefault(number, []).append(key)
        for number, keys in seen.items():
            if len(keys) > 1:
                extra.append(f"game {game_id} hand {number}: {len(keys)} rows")
            if acknowledged.get((game_id, number)) not in keys:
                extra.append(f"game {game_id} hand {number}: stored but never acknowledged")
    stored_keys: dict[tuple[int, int], set[str]] = {}
    for game_id, rows in stored.items():
        for number, key in rows:
            stored_keys.setdefault((game_id, number), set()).add(key)
    for (game_id, number), key in acknowledged.items():
        if key not in stored_keys.get((game_id, number), set()):
            lost.append(f"game {game_id} hand {number}: acknowledged, not stored")
    answered = [o.seconds * 1000 for o in run.outcomes if o.status]
    burst = [o.seconds * 1000 for o in run.outcomes if o.burst and o.status]
    return Verdict(
        sent=len(run.outcomes),
        statuses=dict(sorted(statuses.items())),
        server_errors=sum(n for s, n in statuses.items() if s >= 500),
        unanswered=statuses.get(0, 0),
        unexpected=unexpected,
        acknowledged=len(acknowledged),
        stored=sum(len(rows) for rows in stored.values()),
        lost=lost,
        extra=extra,
        p50_ms=percentile(answered, 50),
        p95_ms=percentile(answered, 95),
        max_ms=max(answered, default=0.0),
        burst_p95_ms=percentile(burst, 95),
        steady_p95_ms=percentile(
            [o.seconds * 1000 for o in run.outcomes if o.status and not o.burst], 95
        ),
        endpoint_missing=run.endpoint_missing,
    )


def night_report(verdict: Verdict, run: NightRun, tables: int, phones: int) -> str:
    """The closing report (also RESULT lines for bench/run_all.py)."""
    lines = [f"load night: {tables} tables, {tables * phones} phones, {run.seconds:.1f} s"]
    if verdict.endpoint_missing:
        lines.append(
            "ENDPOINT MISSING: POST /games/<id>/hands/ answered 404/405. The hand-entry endpoint "
            "(issue #3) is not on this server yet; nothing was measured."
        )
        return "\n".join(lines)
    if run.join_failures:
        lines.append(f"JOIN FAILURES: {len(run.join_failures)}, first: {run.join_failures[0]}")
    lines += [
        f"requests {verdict.sent}, statuses {json.dumps(verdict.statuses)}",
        f"acknowledged hands {verdict.acknowledged}, rows stored {verdict.stored}",
        f"lost {len(verdict.lost)}, extra or duplicated {len(verdict.extra)}, "
        f"server errors {verdict.server_errors}, unanswered {verdict.unanswered}, "
        f"contract breaks {len(verdict.unexpected)}, connection retries {run.connection_retries}",
        f"submit latency p50 {verdict.p50_ms:.1f} ms, p95 {verdict.p95_ms:.1f} ms, "
        f"max {verdict.max_ms:.1f} ms; outside the burst p95 {verdict.steady_p95_ms:.1f} ms; "
        f"burst of {tables} p95 {verdict.burst_p95_ms:.1f} ms",
    ]
    for problem in (verdict.lost + verdict.extra + verdict.unexpected)[:10]:
        lines.append(f"  - {problem}")
    if run.stopped_by_time_limit:
        lines.append("stopped by the time limit before every hand was sent")
    lines.append("PASS" if verdict.passed else "FAIL")
    return "\n".join(lines)


def verdict_results(verdict: Verdict) -> None:
    result("load_night.requests", verdict.sent, "requests")
    result("load_night.server_errors", verdict.server_errors, "responses")
    result("load_night.lost", len(verdict.lost), "hands")
    result("load_night.extra", len(verdict.extra), "hands")
    result("load_night.submit.p50", verdict.p50_ms, "ms")
    result("load_night.submit.p95", verdict.p95_ms, "ms")
    result("load_night.steady.p95", verdict.steady_p95_ms, "ms")
    result("load_night.burst.p95", verdict.burst_p95_ms, "ms")
