"""Django's SQLite backend, with writers queued by the kernel instead of by SQLite's busy
handler.

Every transaction begins IMMEDIATE (settings), so it takes SQLite's write lock at BEGIN. A
second writer then waits in SQLite's busy handler, which polls with growing sleeps (1, 2, 5,
10, 15, 20, 25, 25, 25, 50, 50, 100 ms): when forty phones submit at a round's end, most of
them sleep tens of milliseconds after the lock was already free, and the last ones wait for
nothing but their own sleeps. Here each transaction first takes an exclusive `flock` on a file
beside the database, one open file per connection (so two threads of one process exclude each
other too), and gives it back when the transaction ends: a waiting writer is woken by the kernel
the moment the one before it finishes.

The queue only orders who asks SQLite next: SQLite's own lock still guards the data, and a
writer that does not take part (the sqlite3 shell, another program) is still waited for by the
busy timeout. The wait keeps the busy timeout's bound: a writer that cannot get its turn within
it goes on to BEGIN anyway and gets SQLite's own answer ("database is locked"). The kernel
drops the lock of a process that dies, so a killed worker never blocks the others. An
in-memory database (one connection's own) has no file and no queue.
"""

from __future__ import annotations

import fcntl
import os
import time
from typing import Any

from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteDatabaseWrapper

# The first retries come quickly (a hand's write holds the lock about a millisecond), then
# every few milliseconds: never the tens of milliseconds of SQLite's own schedule.
_POLL_SECONDS = (0.0002, 0.0005, 0.001, 0.002)
# A wait longer than this counts against BEGIN's own busy timeout (shorter waits are the normal
# queue of a busy night, not worth two more statements).
_SHORTEN_AFTER = 0.25


def lock_path(database: str) -> str:
    """The file whose lock orders the writers of `database` (beside its -wal and -shm)."""
    return f"{database}-writers.lock"


class DatabaseWrapper(SQLiteDatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._queue_fd: int | None = None
        self._queue_held = False

    def _queue_file(self) -> str | None:
        """The queue's file; None where transactions do not take the write lock at BEGIN (a
        DEFERRED reader must not wait for writers) or there is no file."""
        name = str(self.settings_dict["NAME"])
        if getattr(self, "transaction_mode", None) not in ("IMMEDIATE", "EXCLUSIVE"):
            return None
        if self.is_in_memory_db() or not name:
            return None
        return lock_path(name)

    def get_new_connection(self, conn_params: Any) -> Any:
        connection = super().get_new_connection(conn_params)
        path = self._queue_file()
        if path is not None:
            self._queue_fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return connection

    def _timeout(self) -> float:
        return float(self.settings_dict["OPTIONS"].get("timeout", 5))

    def _queue_take(self) -> float:
        """Wait for this connection's turn, up to the busy timeout; the seconds waited."""
        fd = self._queue_fd
        if fd is None or self._queue_held:
            return 0.0
        started = time.monotonic()
        deadline = started + self._timeout()
        tries = 0
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break  # SQLite's busy handler answers from here
                time.sleep(_POLL_SECONDS[min(tries, len(_POLL_SECONDS) - 1)])
                tries += 1
                continue
            self._queue_held = True
            break
        return time.monotonic() - started

    def _queue_give(self) -> None:
        if self._queue_held and self._queue_fd is not None:
            self._queue_held = False
            fcntl.flock(self._queue_fd, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self) -> None:
        self.ensure_connection()
        waited = self._queue_take()
        # The queue and SQLite's lock share one budget: a turn that came late leaves BEGIN only
        # the rest of the busy timeout, so a writer never waits longer than the timeout says
        # (gunicorn kills a worker that waits past its own).
        budget = self._timeout() - waited
        short = waited > _SHORTEN_AFTER
        try:
            if short:
                self.connection.execute(f"PRAGMA busy_timeout = {max(0, int(budget * 1000))}")
            try:
                super()._start_transaction_under_autocommit()  # type: ignore[misc]
            finally:
                if short:
                    self.connection.execute(f"PRAGMA busy_timeout = {int(self._timeout() * 1000)}")
        except BaseException:
            self._queue_give()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()  # type: ignore[misc]
        finally:
            # A failed COMMIT leaves the transaction open for Django's rollback: keep the turn.
            if not self._in_transaction():
                self._queue_give()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._queue_give()

    def _in_transaction(self) -> bool:
        connection = self.connection
        return connection is not None and connection.in_transaction

    def _close(self) -> None:
        try:
            super()._close()  # type: ignore[misc]
        finally:
            self._queue_give()
            if self._queue_fd is not None:
                os.close(self._queue_fd)
                self._queue_fd = None
