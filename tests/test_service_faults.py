"""A database or a broker that is down answers 503 with Retry-After ("try again"), never 500:
JSON for the phone's outbox and htmx, the styled page for a browser. The last test really
cuts the connection of a PostgreSQL server (the lead runs it with -m postgres)."""

from __future__ import annotations

import logging

import pytest
from django.core.handlers.exception import response_for_exception
from django.db import InterfaceError, OperationalError, connection, connections
from django.test import RequestFactory
from django.urls import reverse
from kombu.exceptions import OperationalError as BrokerError

from kaiser_league.ops_middleware import RETRY_AFTER_SECONDS
from scorecards.services import game_start

pytestmark = pytest.mark.django_db


def _down(exception: BaseException):
    def fail(*args, **kwargs):
        raise exception

    return fail


@pytest.mark.parametrize(
    "fault",
    [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
        BrokerError("[Errno 111] Connection refused"),
    ],
    ids=["database", "connection", "broker"],
)
def test_a_page_whose_database_is_down_answers_503_with_retry_after(
    as_alice, monkeypatch, caplog, fault
) -> None:
    monkeypatch.setattr("leagues.views.clubs_of", _down(fault))
    with caplog.at_level(logging.WARNING):
        answer = as_alice.get("/")

    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert answer["Cache-Control"] == "no-store"
    assert answer["Content-Type"].startswith("text/html")
    page = answer.content.decode()
    assert "Try again in a moment" in page and "kaiser.css" in page
    # A warning naming the fault, not an error with a traceback mailed to the admins.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("service unavailable" in r.getMessage() for r in caplog.records)


def test_the_outbox_sending_a_hand_gets_json_503_with_retry_after(
    club, players, standard_rules, as_alice, monkeypatch
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    monkeypatch.setattr(
        "scorecards.table_views.game_for_member", _down(OperationalError("the database is down"))
    )

    answer = as_alice.post(
        reverse("hand_submit", args=[game.pk]),
        {"bidder": "0", "bid": "8"},
        HTTP_ACCEPT="application/json",
    )

    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = answer.json()
    assert body["status"] == "unavailable" and body["retry_after"] == RETRY_AFTER_SECONDS
    assert "try again" in body["message"].lower()


def test_an_htmx_request_gets_json_503(as_alice, monkeypatch) -> None:
    monkeypatch.setattr("leagues.views.clubs_of", _down(OperationalError("down")))
    answer = as_alice.get("/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 503
    assert answer.json()["status"] == "unavailable"


def test_a_fault_raised_outside_a_view_answers_503_and_any_other_error_500() -> None:
    """What Django does with an error raised by a middleware (reading the session or the
    account): the handler500 answers."""
    request = RequestFactory().get("/", HTTP_ACCEPT="application/json")
    try:
        raise OperationalError("could not connect to server")
    except OperationalError as exc:
        answer = response_for_exception(request, exc)
    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)

    try:
        raise ZeroDivisionError("a bug")
    except ZeroDivisionError as exc:
        answer = response_for_exception(RequestFactory().get("/"), exc)
    assert answer.status_code == 500
    assert "Retry-After" not in answer


@pytest.mark.parametrize(
    "bug",
    [ValueError("a bug"), OperationalError("no such table: leagues_club")],
    ids=["bug", "schema"],
)
def test_an_ordinary_error_of_a_view_still_answers_500(monkeypatch, bug) -> None:
    from django.test import Client

    monkeypatch.setattr("leagues.views.clubs_of", _down(bug))
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("erin", password="x")
    quiet = Client(raise_request_exception=False)
    quiet.force_login(user)
    answer = quiet.get("/")
    assert answer.status_code == 500
    assert "Retry-After" not in answer


def test_a_session_that_cannot_be_read_answers_503_through_the_whole_stack(
    alice, monkeypatch
) -> None:
    """The fault comes from the session store, wherever the first middleware or the view asks
    for it: the answer is 503 either way."""
    from django.test import Client

    from kaiser_league.sessions import SessionStore

    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    monkeypatch.setattr(
        SessionStore, "_get_session_from_db", _down(OperationalError("the database restarts"))
    )
    answer = browser.get("/")
    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)
    answer = browser.get("/", headers={"Accept": "application/json"})
    assert answer.status_code == 503 and answer.json()["status"] == "unavailable"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_connection_cut_by_the_postgresql_server_answers_503(alice) -> None:
    """The server ends this test's own connection (as a restart does) from a second one; the
    next page answers 503 with Retry-After, and the one after that works again."""
    from django.test import Client

    assert connection.vendor == "postgresql"
    # As a server answers: a fault raised in a middleware is not re-raised into the test.
    as_alice = Client(raise_request_exception=False)
    as_alice.force_login(alice)
    assert as_alice.get("/").status_code == 200  # the session and the connection are up
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()

    answer = as_alice.get("/")

    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER_SECONDS)
    # The broken connection is dropped at the end of a request; the next one reconnects.
    connection.close()
    assert as_alice.get("/").status_code == 200
