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

Bounded: a fixed number of hands and `--time-limit` seconds; 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from bench.harness import (
    HttpSession,
    django_ready,
    gunicorn_server,
    local_base_url,
    percentile,
    production_env,
    result,
)

CREATED, DUPLICATE, CONFLICT, INVALID = 201, 200, 409, 422
MISSING = {404, 405}


# --- The plan: which hands each table enters (pure; no Django models) ---------------------------


@dataclass(frozen=True)
class PlannedHand:
    number: int
    fields: dict[str, str]  # the form fields, idempotency_key included


@dataclass(frozen=True)
class TablePlan:
    table: int
    hands: tuple[PlannedHand, ...]


def hand_fields(hand, number: int, key: uuid.UUID) -> dict[str, str]:
    """The form of one hand as the hand endpoint takes it (a standard four-seat game)."""
    return {
        "idempotency_key": str(key),
        "number": str(number),
        "bidder": str(hand.bidder),
        "bid": str(hand.bid),
        "kind": hand.kind,
        "tricks_0": str(hand.tricks[0]),
        "tricks_1": str(hand.tricks[1]),
        "five_hearts": str(hand.five_hearts),
        "three_spades": str(hand.three_spades),
    }


def night_plan(tables: int, hands: int, seed: int = 6) -> list[TablePlan]:
    """For each table, up to `hands` plausible hands that the rules engine accepts in order (a
    table whose game ends sooner stops there). Deterministic for a seed; every key unique."""
    from leagues.demo import plausible_hand
    from scorecards.rules import game_score, rules_build

    rules = rules_build({"preset": "standard"})
    rng = random.Random(seed)
    plans = []
    for table in range(tables):
        inputs = []
        planned = []
        for number in range(1, hands + 1):
            hand = plausible_hand(rng, rules)
            inputs.append(hand)
            score = game_score(rules, inputs, table % 4)
            key = uuid.UUID(int=rng.getrandbits(128), version=4)
            planned.append(PlannedHand(number, hand_fields(hand, number, key)))
            if score.finished:
                break
        plans.append(TablePlan(table, tuple(planned)))
    return plans


# --- Set-up through the services (needs Django) ----------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    table: int
    game_id: int
    token: str


def night_setup(plans: list[TablePlan], tag: str | None = None) -> tuple[object, list[TableSetup]]:
    """A club with four players per table and one game per table, each with its table link.
    Returns (club, tables)."""
    from leagues.clubs.models import Club, Player
    from scorecards.rules import rules_build
    from scorecards.services import game_start, game_token_issue

    tag = tag or uuid.uuid4().hex[:8]
    club = Club.objects.create(name=f"Load night {tag}", slug=f"night-{tag}")
    rules = rules_build({"preset": "standard"})
    tables = []
    for plan in plans:
        seats = [
            Player.objects.create(club=club, name=f"T{plan.table + 1} P{seat + 1}")
            for seat in range(4)
        ]
        game = game_start(
            seats=seats,
            rules=rules,
            club=club,
            first_dealer=plan.table % 4,
            table_label=f"Table {plan.table + 1}",
        )
        tables.append(TableSetup(plan.table, game.pk, game_token_issue(game=game)))
    return club, tables


def stored_hands(game_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    """(number, idempotency key) of every stored hand, per game."""
    from scorecards.models import Hand

    stored: dict[int, list[tuple[int, str]]] = {gid: [] for gid in game_ids}
    rows = Hand.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "number", "idempotency_key"
    )
    for game_id, number, key in rows:
        stored[game_id].append((number, str(key)))
    return stored


# --- The run ---------------------------------------------------------------------------------


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


RETRY_DELAYS = (0.2, 0.4, 0.8, 1.5, 2.5, 4.0)  # about 9 s in all: a web process restarting


def _submit(phone: HttpSession, game_id: int, fields: dict[str, str]) -> tuple[int, float, int]:
    """POST one hand; on a dropped or refused connection, or a 502/503 from a proxy, resend it
    with the same idempotency key after a pause (as the phone's outbox does), up to
    len(RETRY_DELAYS) times. Returns (status or 0, seconds of the last try, retries)."""
    status = 0
    for attempt, delay in enumerate((*RETRY_DELAYS, None)):
        start = time.perf_counter()
        try:
            status, _, _ = phone.post_form(
                f"/games/{game_id}/hands/", fields, {"Accept": "application/json"}
            )
        except OSError:
            phone.close()
            status = 0
        if status not in (0, 502, 503) or delay is None:
            return status, time.perf_counter() - start, attempt
        time.sleep(delay)
    return status, time.perf_counter() - start, len(RETRY_DELAYS)


def _join(base_url: str, setup: TableSetup) -> HttpSession:
    phone = HttpSession(base_url)
    status, _, _ = phone.get(f"/t/{setup.token}/")
    if status not in (301, 302, 303):
        raise RuntimeError(f"table link of table {setup.table + 1}: HTTP {status}")
    status, _, _ = phone.get(f"/games/{setup.game_id}/")
    if status != 200:
        raise RuntimeError(f"sheet of table {setup.table + 1}: HTTP {status}")
    return phone


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
            phones = [_join(base_url, setup) for _ in range(phones_per_table)]
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


# --- The verdict -----------------------------------------------------------------------------


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
        env = production_env(
            static_root=Path(tmp) / "static",
            database_url=args.database_url,
            sqlite_path=Path(tmp) / "night.sqlite3",
        )
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
