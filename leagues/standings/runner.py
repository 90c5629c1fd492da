"""The embedded default's worker for derived data: one background thread in the web process.

With no broker (Celery eager), the standings and ratings a game's change asks for used to be
computed inside the request that changed it. Here they are handed, once the transaction
commits, to a thread of the same process that runs them after the response, with its own
database connection (closed after each round of work). Work queued meanwhile merges: a round
end that finishes forty games of one season updates it once, by those forty games.

The same thread is the embedded default's beat: at its start (the first request after the
process starts, or the first hand-off) and every DERIVED_DATA_RECONCILE_SECONDS after, it runs
the reconciliation (`services.derived_data_reconcile`), so an update lost to a crash between a
game's commit and its update is repaired within that interval (docs/ratings.md says so).

`DERIVED_DATA_BACKGROUND` turns it on (the default when Celery is eager; the tests turn it off
and run the work in the caller, or turn it on and wait with `derived_data_flush`).
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.signals import request_started
from django.db import connection

from kaiser_league.budget import budget_this_thread

log = logging.getLogger(__name__)


@dataclass
class _Work:
    """What is waiting: a season's standings by some games ({season: {game}}) or in full
    (`full`), a club's ratings (with the one game that changed, when only one did)."""

    seasons: dict[int, set[int]] = field(default_factory=dict)
    full: set[int] = field(default_factory=set)
    clubs: dict[int, set[int]] = field(default_factory=dict)
    clubs_full: set[int] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.seasons or self.full or self.clubs or self.clubs_full)


_lock = threading.Condition()
_waiting = _Work()
_busy = False
_thread: threading.Thread | None = None
_next_reconcile = 0.0
_stopping = False
# The functions that do the work (set by `runner_install`, from `services`, which owns them).
_run: Callable[..., None] | None = None
_reconcile: Callable[[], Any] | None = None


def background() -> bool:
    """Whether the work goes to the thread: DERIVED_DATA_BACKGROUND, by default whenever Celery
    is eager (no broker, no worker)."""
    return bool(getattr(settings, "DERIVED_DATA_BACKGROUND", settings.CELERY_TASK_ALWAYS_EAGER))


def reconcile_interval() -> float:
    """Seconds between reconciliations: beat's (CELERY_BEAT_SCHEDULE, from the environment's
    DERIVED_DATA_RECONCILE_SECONDS), unless the settings name DERIVED_DATA_RECONCILE_SECONDS."""
    beat: Any = settings.CELERY_BEAT_SCHEDULE["derived-data-reconcile"]["schedule"]
    return float(getattr(settings, "DERIVED_DATA_RECONCILE_SECONDS", beat))


def runner_install(run: Callable[..., None], reconcile: Callable[[], Any]) -> None:
    """`run(season_games=, season_ids=, club_games=, club_ids=)` does the work of one round;
    `reconcile()` queues whatever is stale."""
    global _run, _reconcile
    _run, _reconcile = run, reconcile


def hand_off(
    *,
    season_games: Mapping[int, Iterable[int]] | None = None,
    season_ids: Iterable[int] = (),
    club_games: Mapping[int, Iterable[int]] | None = None,
    club_ids: Iterable[int] = (),
) -> None:
    """Queue work for the thread (merged with what waits) and wake it. Returns at once."""
    with _lock:
        for season, games in (season_games or {}).items():
            _waiting.seasons.setdefault(season, set()).update(games)
        _waiting.full.update(season_ids)
        for club, games in (club_games or {}).items():
            _waiting.clubs.setdefault(club, set()).update(games)
        _waiting.clubs_full.update(club_ids)
        _start()
        _lock.notify_all()


def derived_data_flush(timeout: float = 30.0) -> bool:
    """Wait until the thread has nothing waiting and nothing running (tests, the bench).
    Returns False on timeout."""
    deadline = time.monotonic() + timeout
    with _lock:
        while _waiting or _busy:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _lock.wait(left)
    return True


def _start() -> None:
    """Start the thread once per process (called with `_lock` held)."""
    global _thread, _busy, _stopping
    if _thread is None or not _thread.is_alive():
        _stopping = False
        _busy = True  # its first turn reconciles: `derived_data_flush` waits for it
        _thread = threading.Thread(target=_loop, name="derived-data", daemon=True)
        _thread.start()
        # A command that finished games (an import) ends only once they are counted.
        atexit.register(derived_data_flush, 120.0)


def runner_stop(timeout: float = 30.0) -> None:
    """Stop the thread once it has done what waits (tests: no thread outlives its test)."""
    global _stopping, _thread, _next_reconcile
    with _lock:
        thread, _stopping = _thread, True
        _lock.notify_all()
    if thread is not None:
        thread.join(timeout)
    with _lock:
        _thread, _next_reconcile = None, 0.0


def _take() -> _Work:
    global _waiting, _busy
    work, _waiting = _waiting, _Work()
    _busy = bool(work)
    return work


def _loop() -> None:
    global _busy, _next_reconcile
    interval = reconcile_interval()
    while True:
        with _lock:
            while not _waiting and not _stopping and time.monotonic() < _next_reconcile:
                _lock.wait(max(0.0, _next_reconcile - time.monotonic()))
            if _stopping and not _waiting:
                _busy = False
                _lock.notify_all()
                return
            work = _take()
            reconcile = time.monotonic() >= _next_reconcile
            if reconcile:
                _busy = True
                _next_reconcile = time.monotonic() + interval
        try:
            if work or reconcile:
                # A request's budget is not this thread's: a season rebuilt from nothing
                # may read for longer than a page may.
                budget_this_thread(settings.DB_COMMAND_STATEMENT_TIMEOUT)
            if work and _run is not None:
                _run(
                    season_games={
                        s: sorted(g) for s, g in work.seasons.items() if s not in work.full
                    },
                    season_ids=sorted(work.full),
                    club_games={
                        c: sorted(g) for c, g in work.clubs.items() if c not in work.clubs_full
                    },
                    club_ids=sorted(work.clubs_full),
                )
            # After the work (what was handed over is never kept waiting by the check).
            if reconcile and _reconcile is not None:
                _reconcile()  # hands its work back here: taken on the next turn
        except Exception:  # the thread must live on; reconciliation retries what failed
            log.exception("derived data update failed; reconciliation will catch up")
        finally:
            connection.close()  # this thread's own connection, never held between rounds
            with _lock:
                _busy = False
                _lock.notify_all()


def _request_started(**_kwargs: Any) -> None:
    # The first request after the process starts wakes the thread, whose first turn
    # reconciles: what a crash left stale is repaired without waiting for another game.
    if _thread is None and background():
        with _lock:
            _start()


request_started.connect(_request_started, dispatch_uid="derived_data_runner")
