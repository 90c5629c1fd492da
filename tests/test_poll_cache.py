"""The sheet's "nothing changed" poll answered from the shared cache: no SQL query and no
session write while nothing changed; every write of the game ends it; an outsider or an
ex-member gets nothing from a token that is forged, another browser's, expired or kept."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.clubs import services as league_services
from leagues.clubs.models import Club, Membership
from scorecards import poll
from scorecards.models import Game
from scorecards.rules import HandInput
from scorecards.services import (
    game_abandon,
    game_delete,
    game_start,
    game_token_issue,
    games_delete,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
    seat_claim,
    seat_release,
)
from tests.conftest import client_for
from tests.test_table_sheet import HTMX, poll_query

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
SET = HandInput(bidder=1, bid=7, tricks=(1, 7), five_hearts=1, three_spades=1)


@pytest.fixture(autouse=True)
def shared_cache(settings, tmp_path):
    """A cache every process shares (files here; Redis on a server): the only kind the
    poll trusts."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }


@pytest.fixture
def game(club, players, standard_rules, alice):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(game=game, hand=MADE, entered_seat=0)
    return Game.objects.get(pk=game.pk)


def _table_phone(game) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game.table_token or game_token_issue(game=game)]))
    return client


def _poll_url(client: Client, game) -> str:
    """The poll URL as the phone's sheet sends it (its `v`, `n`, `h`), after one full poll
    that gave this browser its poll token."""
    page = client.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    url = reverse("game_poll", args=[game.pk]) + "?" + poll_query(page)
    first = client.get(url, headers=HTMX)
    assert first.status_code == 204
    assert poll.COOKIE in first.cookies
    assert first.cookies[poll.COOKIE]["path"] == reverse("game_poll", args=[game.pk])
    return url


@pytest.mark.parametrize("who", ["as_alice", "as_bob", "table phone"])
def test_nothing_changed_poll_sends_no_query_and_writes_no_session(
    request, game, who, django_assert_num_queries
) -> None:
    client = _table_phone(game) if who == "table phone" else request.getfixturevalue(who)
    url = _poll_url(client, game)
    for _ in range(3):
        with django_assert_num_queries(0):
            response = client.get(url, headers=HTMX)
        assert response.status_code == 204 and response.content == b""
        assert not response.cookies  # no session saved, no token renewed


def test_a_changed_version_takes_the_full_poll(as_bob, game) -> None:
    url = _poll_url(as_bob, game)
    hand_record(game=game, hand=SET, entered_seat=1)
    with CaptureQueriesContext(connection) as queries:
        changed = as_bob.get(url, headers=HTMX)
    assert changed.status_code == 200 and 'id="hand-2"' in changed.content.decode()
    assert len(queries) > 0


def _confirm(game, alice) -> None:
    Club.objects.filter(pk=game.club_id).update(hands_need_confirmation=True)
    seat_claim(game=game, seat=1, phone="cat")
    hand_confirm(game=game, number=1, phone="cat")


def _release(game, alice) -> None:
    seat_release(game=game, seat=1, by=alice, by_name="Alice")


WRITES = {
    "hand": lambda game, alice: hand_record(game=game, hand=SET, entered_seat=1),
    "undo": lambda game, alice: hand_undo(game=game, by=alice, by_name="Alice"),
    "correction": lambda game, alice: hand_correct(game=game, number=1, hand=SET, by=alice),
    "abandon": lambda game, alice: game_abandon(game=game, by=alice, reason="rain"),
    "finish": lambda game, alice: [
        hand_record(game=game, hand=MADE, entered_seat=0)
        for _ in range(20)
        if not Game.objects.get(pk=game.pk).is_finished
    ],
}


@pytest.mark.parametrize("write", [*WRITES, "confirmation", "seat claimed", "seat given back"])
def test_every_write_ends_the_short_answer(as_bob, game, alice, write) -> None:
    if write == "seat given back":
        seat_claim(game=game, seat=1, phone="cat")
    url = _poll_url(as_bob, game)
    before = Game.objects.get(pk=game.pk).updated_at
    if write == "confirmation":
        _confirm(game, alice)
    elif write == "seat claimed":
        seat_claim(game=game, seat=1, phone="cat")
    elif write == "seat given back":
        _release(game, alice)
    else:
        WRITES[write](game, alice)
    assert Game.objects.get(pk=game.pk).updated_at != before
    response = as_bob.get(url, headers=HTMX)
    assert response.status_code == 200, write
    assert response.content  # the sheet's change, not an empty 204


@pytest.mark.parametrize("how", ["by its starter", "in bulk"])
def test_a_deleted_game_is_not_answered_as_unchanged(
    as_alice, club, players, standard_rules, alice, how
) -> None:
    empty = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    url = _poll_url(as_alice, empty)
    if how == "by its starter":
        game_delete(game=empty, by=alice)
    else:
        games_delete(games=[empty])
    assert as_alice.get(url, headers=HTMX).status_code == 404


def test_a_version_without_a_write_is_never_cached_from_a_read(as_bob, game) -> None:
    """A cache miss (restart, eviction) takes the full poll, which does not fill the cache: a
    reader could put back a version a write has just replaced."""
    url = _poll_url(as_bob, game)
    poll.version_forget(game.pk)
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert as_bob.get(url, headers=HTMX).status_code == 204
        assert len(queries) > 0


def test_a_cache_each_process_keeps_to_itself_is_never_trusted(settings, as_bob, game) -> None:
    url = _poll_url(as_bob, game)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    hand_record(game=game, hand=SET, entered_seat=1)  # would publish, were the cache shared
    with CaptureQueriesContext(connection) as queries:
        assert as_bob.get(url + "&n=0", headers=HTMX).status_code == 200
    assert len(queries) > 0


def test_outsider_with_a_forged_or_borrowed_token_gets_nothing(as_bob, as_charlie, game) -> None:
    url = _poll_url(as_bob, game)
    borrowed = as_bob.cookies[poll.COOKIE].value
    forged = signing.dumps({"g": game.pk, "w": "0" * 20}, salt=poll.SALT, compress=False)
    for token in (borrowed, forged, "not-a-token"):
        as_charlie.cookies[poll.COOKIE] = token
        assert as_charlie.get(url, headers=HTMX).status_code == 404
    stranger = Client()  # no session at all
    stranger.cookies[poll.COOKIE] = borrowed
    assert stranger.get(url, headers=HTMX).status_code == 404


def test_an_ex_member_loses_the_sheet_at_its_first_change(club, game, alice) -> None:
    dora = get_user_model().objects.create_user("dora", password="pw-dora-123456")
    membership = Membership.objects.create(club=club, user=dora)
    client = client_for(dora)
    url = _poll_url(client, game)
    league_services.membership_remove(membership=membership, by=alice)
    # While nothing changed, the 204 shows nothing; the first change asks who polls.
    assert client.get(url, headers=HTMX).status_code == 204
    hand_record(game=game, hand=SET, entered_seat=1)
    assert client.get(url, headers=HTMX).status_code == 404


def test_an_expired_token_takes_the_full_poll(as_charlie, as_bob, game) -> None:
    url = _poll_url(as_bob, game)
    session_key = as_bob.cookies["sessionid"].value
    with mock.patch("django.core.signing.time.time", return_value=1_000_000_000):
        old = poll.token_make(game.pk, session_key)
    as_bob.cookies[poll.COOKIE] = old
    with CaptureQueriesContext(connection) as queries:
        response = as_bob.get(url, headers=HTMX)
    assert response.status_code == 204 and len(queries) > 0
    assert response.cookies[poll.COOKIE].value != old  # a fresh token for the next polls


def test_the_short_answer_is_never_kept_by_a_proxy_and_checks_the_host(as_bob, game) -> None:
    url = _poll_url(as_bob, game)
    response = as_bob.get(url, headers=HTMX)
    assert response.status_code == 204
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert as_bob.get(url, headers=HTMX, HTTP_HOST="evil.example").status_code == 400
