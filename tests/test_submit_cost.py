"""What a hand submit costs: the SQL statements it sends, per identity, and that the cheaper
read still refuses whom it refused (outsider, ex-member) without writing anything."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.clubs import services as league_services
from leagues.clubs.models import Membership
from scorecards.models import Hand, HandVersion
from scorecards.services import game_start, game_token_issue
from tests.conftest import client_for
from tests.test_table_sheet import HTMX, JSON, submit

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK")
SAVEPOINTS = ("SAVEPOINT", "RELEASE")


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries]


def _outer_from(sql: str) -> str:
    """The first table the outermost FROM names (subqueries in its columns skipped)."""
    depth = 0
    for i, char in enumerate(sql):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and sql.startswith(' FROM "', i):
            return sql[i + 7 :].split('"', 1)[0]
    return ""


def _kinds(statements: list[str]) -> list[str]:
    """Each statement named by its verb and first table (transaction control left out); the
    writes of one statement (`WITH ... AS (INSERT ...)`) each named alike."""
    kinds = []
    for sql in statements:
        if sql.startswith(TRANSACTION_CONTROL):
            continue
        verb = sql.split()[0]
        if verb == "WITH":
            parts = re.findall(r'AS \((INSERT INTO|UPDATE) "(\w+)"', sql)
            kinds += [f"{part.split()[0]} {table}" for part, table in parts]
            continue
        table = sql.split('"')[1] if '"' in sql else ""
        if verb == "SELECT":
            table = _outer_from(sql)
        kinds.append(f"{verb} {table}")
    return kinds


@pytest.fixture
def played(club, players, standard_rules, alice):
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


def _table_phone(game) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    return client


WRITES = ["INSERT scorecards_hand", "INSERT scorecards_handversion", "UPDATE scorecards_game"]
# The member's role, own seat and seat claim come in the game's own query: no membership read.
MEMBER_JSON = [
    "SELECT django_session",
    "SELECT auth_user",
    "SELECT scorecards_game",  # the access check, which is the service's locked read too
    "SELECT scorecards_hand",
    *WRITES,
]
TABLE_JSON = ["SELECT django_session", *MEMBER_JSON[2:]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("who", "expected"), [("owner", MEMBER_JSON), ("member", MEMBER_JSON), ("table", TABLE_JSON)]
)
def test_a_json_submit_sends_these_statements_only(played, alice, bob, who, expected) -> None:
    client = {"owner": lambda: client_for(alice), "member": lambda: client_for(bob)}.get(
        who, lambda: _table_phone(played)
    )()
    for _ in range(3):
        assert submit(client, played, headers=JSON).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = submit(client, played, headers=JSON)
    assert response.status_code == 201
    statements = _statements(queries)
    if connection.vendor == "postgresql":
        # The hands so far come in the game's locked read (`state._hands_columns`).
        expected = [kind for kind in expected if kind != "SELECT scorecards_hand"]
    assert sorted(_kinds(statements)) == sorted(expected), statements
    # One transaction, no savepoint inside it (a hand that claims no seat needs none).
    assert not [sql for sql in statements if sql.startswith(SAVEPOINTS)], statements
    # On PostgreSQL the hand, its trace and the game's totals are written by one statement.
    writes = [sql for sql in statements if sql.startswith(("INSERT", "UPDATE", "WITH"))]
    assert len(writes) == (1 if connection.vendor == "postgresql" else 3), writes
    assert Hand.objects.filter(game=played).count() == 4
    assert HandVersion.objects.filter(game=played).count() == 4


@pytest.mark.django_db(transaction=True)
def test_an_htmx_submit_reads_no_membership_row(played, bob) -> None:
    client = client_for(bob)
    submit(client, played, headers=HTMX)
    with CaptureQueriesContext(connection) as queries:
        assert submit(client, played, headers=HTMX).status_code == 200
    kinds = _kinds(_statements(queries))
    assert "SELECT leagues_membership" not in kinds, kinds
    assert kinds.count("SELECT scorecards_game") == 1, kinds


@pytest.mark.parametrize("headers", [JSON, HTMX, None])
def test_outsider_and_ex_member_still_get_nothing(played, club, alice, as_charlie, headers) -> None:
    dora = get_user_model().objects.create_user("dora", password="pw-dora-123456")
    membership = Membership.objects.create(club=club, user=dora)
    ex_member = client_for(dora)
    assert submit(ex_member, played, headers=headers).status_code in (201, 200, 303)
    league_services.membership_remove(membership=membership, by=alice)
    before = (Hand.objects.count(), HandVersion.objects.count())
    for client in (as_charlie, ex_member, Client()):
        assert submit(client, played, headers=headers).status_code == 404
    assert (Hand.objects.count(), HandVersion.objects.count()) == before


def test_a_plain_member_still_enters_and_a_seat_claim_still_comes_with_the_hand(
    played, as_bob
) -> None:
    response = submit(as_bob, played, headers=JSON, entered_as=2)
    assert response.status_code == 201
    hand = Hand.objects.get(game=played)
    # Bob has a phone id; naming seat 2 claims it for him, and the hand is signed with it.
    assert hand.entered_seat == 2 and hand.entered_by_name == "Bob"
