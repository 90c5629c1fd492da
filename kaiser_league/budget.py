"""How long one SQL statement may run: the time budget of a request, and the larger one of a
command or the worker.

A web request's statements run under `settings.DB_STATEMENT_TIMEOUT` seconds each (PostgreSQL's
`statement_timeout`, set on every connection by kaiser_league/settings.py): past it the server
cancels the statement, Django raises OperationalError, and the request answers 503 with
Retry-After (`kaiser_league.ops_middleware.FaultMiddleware`), so no one request holds a worker
and a connection for long. A management command (an import, a restore, a rebuild from nothing)
and the Celery worker hold no web worker and may run longer: `budget_set` gives every
connection of their process `settings.DB_COMMAND_STATEMENT_TIMEOUT` instead, and
`budget_this_thread` the connection of the web process's background thread. SQLite has no
statement timeout: there the budget is the busy timeout (settings) and gunicorn's `timeout`.
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

# Seconds each statement of this process may run; None: the connection's own (the web budget).
_process_budget: int | None = None


def statement_timeout_sql(seconds: int) -> tuple[str, list[str]]:
    """The statement that gives this session's statements `seconds` each (0: no limit)."""
    return "SELECT set_config('statement_timeout', %s, false)", [f"{max(0, seconds) * 1000}"]


def _apply(connection: BaseDatabaseWrapper, seconds: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(*statement_timeout_sql(seconds))


def budget_set(seconds: int) -> None:
    """Every connection of this process, open or opened later, runs each statement up to
    `seconds` (0: no limit). For processes that hold no web worker: commands, the worker."""
    global _process_budget
    _process_budget = seconds
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None:
            _apply(connection, seconds)


def budget_this_thread(seconds: int) -> None:
    """This thread's connection (opened now if need be) runs each statement up to `seconds`
    until it closes: for a thread of a web process that serves no request (the derived data's
    background thread, whose rebuild from nothing may run longer than a request may)."""
    connection = connections["default"]
    connection.ensure_connection()
    _apply(connection, seconds)


def _on_connect(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    if _process_budget is not None:
        _apply(connection, _process_budget)


connection_created.connect(_on_connect, dispatch_uid="kaiser_league.budget")
