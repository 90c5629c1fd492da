"""The SQLite backend's writer queue (kaiser_league.sqlite_queue): writers take turns through a
file lock, woken as soon as the writer before them is done, with SQLite's own lock and busy
timeout unchanged underneath. Each test opens its own database file through the backend (no
test database of the suite), so it runs in either suite."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import OperationalError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import ConnectionHandler

from kaiser_league.sqlite_queue.base import lock_path

HOLD = 0.3  # seconds the first writer keeps its transaction open


def _handler(path: Path, timeout: float = 20, mode: str = "IMMEDIATE") -> ConnectionHandler:
    return ConnectionHandler(
        {
            "default": {
                "ENGINE": "kaiser_league.sqlite_queue",
                "NAME": str(path),
                "OPTIONS": {
                    "transaction_mode": mode,
                    "timeout": timeout,
                },
            }
        }
    )


@pytest.fixture
def database(tmp_path: Path, django_db_blocker) -> Iterator[Path]:
    """A fresh database file of this test's own, not the suite's test database."""
    path = tmp_path / "queue.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA journal_mode=WAL")  # as settings' init_command makes it
        raw.execute("CREATE TABLE hand (id INTEGER PRIMARY KEY, who TEXT)")
    with django_db_blocker.unblock():
        yield path


def _connect(handler: ConnectionHandler) -> BaseDatabaseWrapper:
    """`handler`'s connection for this thread, known to `transaction.atomic` (which finds a
    connection by its alias among Django's) under an alias of its own."""
    connection = handler["default"]
    connection.alias = f"queue-{id(connection)}"
    connections[connection.alias] = connection
    return connection


def _write(handler: ConnectionHandler, who: str, hold: float = 0.0) -> None:
    connection = _connect(handler)
    try:
        with transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO hand (who) VALUES (%s)", [who])
            time.sleep(hold)
    finally:
        connection.close()


def _rows(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        return [row[0] for row in raw.execute("SELECT who FROM hand ORDER BY id")]


def _lock_held_elsewhere(path: Path) -> bool:
    fd = os.open(lock_path(str(path)), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_second_writer_waits_for_the_first_then_goes_on(database: Path) -> None:
    """How soon it goes on is measured by bench/submit_bench.py's bursts, not here."""
    first, second = _handler(database), _handler(database)
    inside = threading.Event()
    done: dict[str, float] = {}

    def hold() -> None:
        connection = _connect(first)
        with transaction.atomic(using=connection.alias):
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO hand (who) VALUES ('first')")
            inside.set()
            time.sleep(HOLD)
        done["first"] = time.monotonic()
        connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(5)
    assert _lock_held_elsewhere(database), "a transaction holds its turn"
    _write(second, "second")
    done["second"] = time.monotonic()
    holder.join()
    assert _rows(database) == ["first", "second"]
    assert done["second"] >= done["first"]


def test_the_turn_is_given_back_on_commit_rollback_and_close(database: Path) -> None:
    handler = _handler(database)
    _write(handler, "committed")
    assert not _lock_held_elsewhere(database)
    connection = _connect(handler)
    with pytest.raises(ZeroDivisionError), transaction.atomic(using=connection.alias):
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO hand (who) VALUES ('rolled back')")
        1 / 0  # noqa: B018
    assert not _lock_held_elsewhere(database)
    atomic = transaction.atomic(using=connection.alias)
    atomic.__enter__()
    assert _lock_held_elsewhere(database)
    connection.close()  # a dropped connection (a killed request) gives its turn back
    assert not _lock_held_elsewhere(database)
    assert _rows(database) == ["committed"]


def test_the_queue_and_sqlite_lock_share_one_timeout(database: Path) -> None:
    """A writer that never gets its turn goes on to SQLite, whose busy timeout is what is left
    of the same budget: "database is locked" after about `timeout`, not twice it."""
    fd = os.open(lock_path(str(database)), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # a writer that never finishes, holding both locks
    outsider = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    outsider.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError, match="locked"):
            _write(_handler(database, timeout=1.0), "late")
        waited = time.monotonic() - started
    finally:
        outsider.execute("ROLLBACK")
        outsider.close()
        os.close(fd)
    assert 0.95 < waited < 1.7  # one timeout, not the queue's and then SQLite's (2 s)
    assert _rows(database) == []


def test_a_writer_outside_the_queue_is_still_waited_for(database: Path) -> None:
    """The sqlite3 shell takes no turn: SQLite's busy timeout waits for it, as before."""
    outsider = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    outsider.execute("BEGIN IMMEDIATE")
    outsider.execute("INSERT INTO hand (who) VALUES ('shell')")
    release = threading.Timer(0.2, lambda: outsider.execute("COMMIT"))
    release.start()
    try:
        _write(_handler(database), "app")
    finally:
        release.join()
        outsider.close()
    assert _rows(database) == ["shell", "app"]


def test_many_threads_each_write_once(database: Path) -> None:
    handlers = [_handler(database) for _ in range(12)]
    errors: list[BaseException] = []

    def write(index: int) -> None:
        try:
            _write(handlers[index], f"w{index}", hold=0.002)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(_rows(database)) == sorted(f"w{i}" for i in range(12))
    assert not _lock_held_elsewhere(database)


def test_deferred_transactions_and_memory_databases_take_no_turn(database: Path) -> None:
    """A DEFERRED transaction may only read: it must not wait behind the writers."""
    fd = os.open(lock_path(str(database)), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        reader = _connect(_handler(database, timeout=0.2, mode="DEFERRED"))
        started = time.monotonic()
        with transaction.atomic(using=reader.alias), reader.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM hand")
        reader.close()
        assert time.monotonic() - started < 0.1
    finally:
        os.close(fd)
    memory = _connect(_handler(Path(":memory:")))
    with transaction.atomic(using=memory.alias), memory.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert memory._queue_fd is None  # type: ignore[attr-defined]
