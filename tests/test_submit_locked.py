"""The hand submit reads the game once: its access check is the write's locked read. Whom it
refused it still refuses (before saying anything of the game's state), a key used already or
spent is still answered as before, and a refused try leaves nothing behind."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.clubs.models import Season
from scorecards.models import Game, Hand, HandVersion, SeatClaim
from scorecards.rules import HandInput
from scorecards.services import (
    game_start,
    game_token_issue,
    game_token_revoke,
    hand_record,
    hand_undo,
)
from tests.conftest import client_for
from tests.test_submit_cost import _kinds, _statements
from tests.test_table_sheet import HTMX, JSON, hand_data, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club) -> Season:
    return Season.objects.create(club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def game(club, players, standard_rules, alice, season) -> Game:
    return game_start(
        seats=players, rules=standard_rules, club=club, season=season, created_by=alice
    )


def _phone(game: Game) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    return client


def _written() -> tuple[int, int, int]:
    return Hand.objects.count(), HandVersion.objects.count(), SeatClaim.objects.count()


def _game_reads(queries: CaptureQueriesContext) -> int:
    return _kinds(_statements(queries)).count("SELECT scorecards_game")


@pytest.mark.parametrize("headers", [JSON, HTMX, None])
def test_a_closed_season_refuses_members_but_outsiders_still_get_404(
    game, season, as_bob, as_charlie, headers
) -> None:
    Season.objects.filter(pk=season.pk).update(closed_at=datetime.datetime.now(datetime.UTC))
    before = _written()
    # The outsider learns nothing of the game's state: 404, not "the season is closed".
    assert submit(as_charlie, game, headers=headers).status_code == 404
    assert submit(Client(), game, headers=headers).status_code == 404
    answer = submit(as_bob, game, headers=headers)
    assert answer.status_code == 409 if headers is JSON else answer.status_code in (200, 409)
    if headers is JSON:
        assert answer.json()["status"] == "closed"
    assert _written() == before


@pytest.mark.parametrize("headers", [JSON, HTMX])
def test_a_revoked_table_link_is_refused_and_the_game_is_not_left_locked(
    game, alice, as_bob, headers
) -> None:
    phone = _phone(game)
    assert submit(phone, game, headers=JSON).status_code == 201
    game_token_revoke(game=game, by=alice)
    before = _written()
    answer = submit(phone, game, headers=headers)
    assert answer.status_code in (403, 404)
    assert _written() == before
    # The refused try held the game's lock only for its transaction.
    assert submit(as_bob, game, headers=JSON, number=2).status_code == 201


@pytest.mark.parametrize("who", ["member", "table"])
def test_one_read_of_the_game_for_a_new_hand_a_repeat_and_a_spent_key(game, bob, who) -> None:
    client = client_for(bob) if who == "member" else _phone(game)
    data = hand_data(number=1)
    with CaptureQueriesContext(connection) as queries:
        assert (
            client.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON).status_code
            == 201
        )
    assert _game_reads(queries) == 1
    # The season's state comes with the game's locked read: its row is not read.
    assert "SELECT leagues_season" not in _kinds(_statements(queries))
    with CaptureQueriesContext(connection) as queries:
        again = client.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON)
    assert again.status_code == 200 and again.json()["status"] == "duplicate"
    assert _game_reads(queries) == 1
    hand_undo(game=game)
    before = _written()
    spent = client.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON)
    assert spent.status_code == 409 and spent.json()["status"] == "undone"
    assert _written() == before


@pytest.mark.parametrize("headers", [JSON, HTMX])
def test_a_key_of_another_game_with_a_seat_named_writes_no_claim(
    game, standard_rules, headers
) -> None:
    other = game_start(seats=["A", "B", "C", "D"], rules=standard_rules)
    key = uuid.uuid4()
    hand_record(game=other, hand=HandInput(thrown_in=True), idempotency_key=key)
    phone = _phone(game)
    before = _written()
    answer = submit(phone, game, headers=headers, idempotency_key=key, entered_as=1)
    assert answer.status_code == 422
    assert _written() == before


def test_a_seat_named_with_a_hand_is_claimed_with_it(game) -> None:
    phone = _phone(game)
    assert submit(phone, game, headers=HTMX, entered_as=1).status_code == 200
    hand = Hand.objects.get(game=game)
    assert SeatClaim.objects.filter(game=game, seat=1).count() == 1
    assert hand.entered_seat == 1 and hand.entered_by_name == "Cat"


def test_a_refused_hand_is_still_named_and_writes_nothing(game, as_bob) -> None:
    before = _written()
    answer = submit(as_bob, game, headers=JSON, bid=13)
    assert answer.status_code == 422
    assert _written() == before
    assert Game.objects.get(pk=game.pk).hand_count == 0


def test_an_htmx_answer_in_a_season_reads_the_game_once_and_no_season(game, as_bob) -> None:
    assert submit(as_bob, game, headers=HTMX).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert submit(as_bob, game, headers=HTMX, number=2).status_code == 200
    kinds = _kinds(_statements(queries))
    assert kinds.count("SELECT scorecards_game") == 1, kinds
    assert "SELECT leagues_season" not in kinds and "SELECT leagues_club" not in kinds, kinds
    assert "SELECT scorecards_handversion" not in kinds, kinds


def test_the_service_takes_a_locked_game_only_from_the_locked_read(game) -> None:
    plain = Game.objects.get(pk=game.pk)
    with pytest.raises(TransactionManagementError):
        hand_record(game=plain, hand=HandInput(thrown_in=True), locked=True)
    with pytest.raises(TransactionManagementError), transaction.atomic():
        hand_record(game=plain, hand=HandInput(thrown_in=True), locked=True)
    assert not Hand.objects.exists()
