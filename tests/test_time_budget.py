"""Every request has a time budget: a statement past PostgreSQL's `statement_timeout` (5 s for a
request, set on each connection by the settings; larger for commands and the worker), or a
SQLite lock not given within its busy timeout, answers 503 with Retry-After, never 500; gunicorn's
`timeout` stands above both. The last test really cancels a slow statement on PostgreSQL (the
lead runs it with -m postgres)."""

from __future__ import annotations

import json
import logging
import os
import runpy
import subprocess
import sys
import time
from types import SimpleNamespace

import psycopg
import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.db.utils import DatabaseErrorWrapper
from django.test import Client
from django.urls import reverse

from kaiser_league.budget import budget_set, budget_this_thread, statement_timeout_sql
from kaiser_league.ops_middleware import RETRY_AFTER_SECONDS
from scorecards.services import game_start

pytestmark = pytest.mark.django_db

TIMED_OUT = "canceling statement due to statement timeout"


def _fail(exception: BaseException):
    def fail(*args, **kwargs):
        raise exception

    return fail


def test_psycopg_s_cancelled_statement_reaches_django_as_an_operational_error() -> None:
    """What the server's cancel becomes in Django: an OperationalError, which the fault
    middleware answers with 503 (not a bug's 500)."""
    assert issubclass(psycopg.errors.QueryCanceled, psycopg.OperationalError)
    with (
        pytest.raises(OperationalError, match="statement timeout"),
        # The wrapper Django puts around every PostgreSQL call (its driver: psycopg).
        DatabaseErrorWrapper(SimpleNamespace(Database=psycopg, errors_occurred=False)),
    ):
        raise psycopg.errors.QueryCanceled(TIMED_OUT)


@pytest.mark.parametrize(
    "fault", [TIMED_OUT, "database is locked"], ids=["statement_timeout", "sqlite_busy"]
)
def test_a_sheet_over_its_budget_answers_503_with_retry_after(
    club, players, standard_rules, alice, monkeypatch, caplog, fault
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    monkeypatch.setattr("scorecards.table_views.sheet_context", _fail(OperationalError(fault)))
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    with caplog.at_level(logging.WARNING):
        page = browser.get(reverse("game_sheet", args=[game.pk]))
        phone = browser.get(reverse("game_sheet", args=[game.pk]), headers={"HX-Request": "true"})
    assert page.status_code == 503 and page["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "Try again in a moment" in page.content.decode()
    assert phone.status_code == 503 and phone.json()["status"] == "unavailable"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_history_page_over_its_budget_answers_503(
    club, players, standard_rules, alice, monkeypatch
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    monkeypatch.setattr("scorecards.hands_page.sheet_hands", _fail(OperationalError(TIMED_OUT)))
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    answer = browser.get(
        reverse("game_history", args=[game.pk]), headers={"Accept": "application/json"}
    )
    assert answer.status_code == 503 and answer["Retry-After"] == str(RETRY_AFTER_SECONDS)


def _settings_with(env: dict[str, str]) -> dict:
    """The DATABASES a server with `env` runs with (read in a fresh process)."""
    code = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'kaiser_league.settings';"
        "from django.conf import settings;"
        "print(json.dumps({'db': settings.DATABASES['default'].get('OPTIONS', {}),"
        " 'engine': settings.DATABASES['default']['ENGINE'],"
        " 'web': settings.DB_STATEMENT_TIMEOUT, 'command': settings.DB_COMMAND_STATEMENT_TIMEOUT}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "DB_"))}
    out = subprocess.run(
        [sys.executable, "-c", code], env=clean | env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_postgresql_server_sets_the_request_budget_on_each_connection() -> None:
    url = "postgres://kaiser:secret@127.0.0.1:5432/kaiser?sslmode=prefer"
    read = _settings_with({"DATABASE_URL": url})
    assert read["web"] == 5 and read["command"] > 60
    assert read["db"]["options"] == "-c statement_timeout=5s"
    assert read["db"]["sslmode"] == "prefer"  # the URL's own options are kept
    read = _settings_with({"DATABASE_URL": url, "DB_STATEMENT_TIMEOUT": "2"})
    assert read["db"]["options"] == "-c statement_timeout=2s"


def test_sqlite_waits_for_the_lock_less_than_gunicorn_waits_for_a_worker() -> None:
    """SQLite cannot cancel a statement: its budget is the lock wait (busy timeout, shared by
    the writers' queue and SQLite's own lock: tests/test_sqlite_queue.py), which must end, and
    answer 503, before gunicorn kills the worker (a killed worker answers nothing)."""
    read = _settings_with({})
    assert read["engine"] == "kaiser_league.sqlite_queue"
    busy = read["db"]["timeout"]
    assert f"busy_timeout={busy * 1000}" in read["db"]["init_command"]
    gunicorn = runpy.run_path("deploy/gunicorn.conf.py")
    assert 0 < busy < gunicorn["timeout"] <= 60


def test_commands_and_the_worker_take_the_larger_budget(monkeypatch) -> None:
    sql, params = statement_timeout_sql(600)
    assert "statement_timeout" in sql and params == ["600000"]
    assert statement_timeout_sql(0)[1] == ["0"]  # no limit
    with open("manage.py", encoding="utf-8") as handle:
        assert "budget_set(settings.DB_COMMAND_STATEMENT_TIMEOUT)" in handle.read()
    with open("kaiser_league/celery.py", encoding="utf-8") as handle:
        assert "budget_set(settings.DB_COMMAND_STATEMENT_TIMEOUT)" in handle.read()
    monkeypatch.setattr("kaiser_league.budget._process_budget", None)
    budget_set(600)  # on SQLite nothing to set, and nothing breaks
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_statement_past_its_budget_on_postgresql_answers_503(alice, monkeypatch) -> None:
    """A real cancel: the request budget of a fresh connection is the settings' 5 s; with a
    budget of 200 ms, a page whose read sleeps 2 s is cancelled by the server and answers 503
    with Retry-After; the next page, within its budget, answers 200."""
    assert connection.vendor == "postgresql"
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == f"{settings.DB_STATEMENT_TIMEOUT}s"

    def slow_clubs(*args, **kwargs):
        # A budget of 200 ms for this session, then a read that takes 2 s.
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', '200', false)")
            cursor.execute("SELECT pg_sleep(2)")
        return []

    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    assert browser.get("/").status_code == 200
    try:
        monkeypatch.setattr("leagues.views.clubs_of", slow_clubs)
        started = time.monotonic()
        answer = browser.get("/")
        assert time.monotonic() - started < 1.5  # cancelled, not slept through
        assert answer.status_code == 503
        assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)
        monkeypatch.undo()
        assert browser.get("/").status_code == 200
    finally:
        connection.close()  # the next connection starts with the settings' budget again


def test_the_background_thread_of_a_web_process_takes_the_larger_budget() -> None:
    """The derived data's thread (a season rebuilt from nothing runs in it on the embedded
    default) sets the command budget on its connection at each round, not the request's."""
    with open("leagues/standings/runner.py", encoding="utf-8") as handle:
        assert "budget_this_thread(settings.DB_COMMAND_STATEMENT_TIMEOUT)" in handle.read()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_thread_s_budget_holds_on_its_connection_until_it_closes() -> None:
    assert connection.vendor == "postgresql"
    connection.close()
    try:
        budget_this_thread(600)
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "10min"
    finally:
        connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == f"{settings.DB_STATEMENT_TIMEOUT}s"
