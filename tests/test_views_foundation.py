"""Health check, club page, game sheet and record download for owner / member / outsider."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecards.rules import HandInput, record_score
from scorecards.selectors import game_record
from scorecards.services import game_start, game_token_issue, game_token_revoke, hand_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(club, players, standard_rules, alice):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(
        game=game, hand=HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1)
    )
    return game


def test_healthz_reports_database_and_eager_broker(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] == "eager"


def test_home_anonymous_and_signed_in(client: Client, as_alice: Client, club) -> None:
    assert client.get("/").status_code == 200
    page = as_alice.get("/").content.decode()
    assert "Regina Kaiser Club" in page


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 302)]
)
def test_club_page_access(request, club, who, status) -> None:
    response = request.getfixturevalue(who).get(reverse("club_detail", args=[club.slug]))
    assert response.status_code == status


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 404)]
)
def test_game_sheet_access(request, game, who, status) -> None:
    response = request.getfixturevalue(who).get(reverse("game_sheet", args=[game.pk]))
    assert response.status_code == status
    if status == 200:
        assert "Ann &amp; Bob" in response.content.decode()


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404)]
)
def test_record_download(request, game, who, status) -> None:
    response = request.getfixturevalue(who).get(reverse("game_record_download", args=[game.pk]))
    assert response.status_code == status
    if status == 200:
        assert response["Content-Disposition"].endswith(f'kaiser-game-{game.pk}.json"')
        record = json.loads(response.content)
        assert record == game_record(game)
        assert record_score(record)["scores"] == [11, -1]


def test_game_sheet_queries_do_not_grow_with_hands(
    as_alice, game, django_assert_max_num_queries
) -> None:
    url = reverse("game_sheet", args=[game.pk])
    with CaptureQueriesContext(connection) as one_hand:
        assert as_alice.get(url).status_code == 200
    for _ in range(6):
        hand_record(
            game=game, hand=HandInput(bidder=1, bid=7, tricks=(4, 4), five_hearts=0, three_spades=1)
        )
    with django_assert_max_num_queries(10), CaptureQueriesContext(connection) as seven_hands:
        assert as_alice.get(url).status_code == 200
    assert len(seven_hands) == len(one_hand)


def test_game_sheet_htmx_renders_only_the_sheet(as_alice, game) -> None:
    response = as_alice.get(reverse("game_sheet", args=[game.pk]), headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="sheet"' in body
    assert "<html" not in body


def test_table_link_lets_a_phone_in_until_revoked(client: Client, game) -> None:
    sheet = reverse("game_sheet", args=[game.pk])
    assert client.get(sheet).status_code == 404
    token = game_token_issue(game=game)
    response = client.get(reverse("game_table_join", args=[token]))
    assert response.status_code == 302 and response["Location"] == sheet
    assert client.get(sheet).status_code == 200
    game_token_revoke(game=game)
    assert client.get(sheet).status_code == 404
    assert client.get(reverse("game_table_join", args=[token])).status_code == 404


def test_table_token_opens_only_its_own_game(
    client: Client, game, players, standard_rules, club
) -> None:
    other = game_start(seats=players, rules=standard_rules, club=club)
    client.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    assert client.get(reverse("game_sheet", args=[other.pk])).status_code == 404
