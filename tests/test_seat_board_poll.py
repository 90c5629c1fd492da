"""The seat board redraws itself on the other phones: a claim, like a seat given back, changes
the game's version, and every poll answer that is not a 204 carries the board out of band,
drawn for the phone that polls ("this phone" and the give-back button are its own); a saved
hand's small answer carries it only when that hand claimed a seat."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorecards.models import Game
from tests.conftest import table_phone
from tests.test_table_sheet import HTMX, poll_query, seen_of, submit

pytestmark = pytest.mark.django_db

BOARD = re.compile(r'<(section|div)[^>]* id="seat-board".*?</\1>', re.S)


@pytest.fixture
def game(confirming_game) -> Game:
    return confirming_game


def _poll_url(phone: Client, game: Game, page: str | None = None) -> str:
    if page is None:
        page = phone.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    return reverse("game_poll", args=[game.pk]) + "?" + poll_query(page)


def _board(body: str) -> str:
    found = BOARD.search(body)
    assert found, "no #seat-board in the answer"
    return found[0]


def test_the_sheet_keeps_an_empty_hidden_board_while_no_seat_is_claimed(game) -> None:
    page = table_phone(game).get(reverse("game_sheet", args=[game.pk])).content.decode()
    # A target for the polls' out-of-band board, with no empty heading or landmark.
    assert _board(page) == '<div id="seat-board" hidden></div>'


def test_another_phones_claim_and_its_release_reach_the_board_at_the_next_poll(game) -> None:
    cat, other = table_phone(game), table_phone(game)
    url = _poll_url(other, game)
    assert other.get(url, headers=HTMX).status_code == 204

    claimed = cat.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"})
    assert claimed.status_code == 303
    answer = other.get(url, headers=HTMX)
    assert answer.status_code == 200
    body = answer.content.decode()
    board = _board(body)
    assert 'hx-swap-oob="true"' in board
    assert "Cat: claimed by a phone since" in board and "Ann: not claimed" in board
    # Drawn for the phone that polls: not its seat, and not its claim to let go.
    assert "this phone" not in board and "seat-release" not in board

    # Its version seen, nothing changed since: the next poll is a 204 again.
    url = _poll_url(other, game, body)
    assert other.get(url, headers=HTMX).status_code == 204

    released = cat.post(reverse("game_seat_release", args=[game.pk]), {"seat": "1"})
    assert released.status_code == 303
    gone = other.get(url, headers=HTMX)
    assert gone.status_code == 200
    board = _board(gone.content.decode())
    assert board == '<div id="seat-board" hidden hx-swap-oob="true"></div>'


def test_the_poll_after_a_claim_carries_the_claimers_own_board(game) -> None:
    cat = table_phone(game)
    url = _poll_url(cat, game)
    assert cat.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"}).status_code == 303
    board = _board(cat.get(url, headers=HTMX).content.decode())
    assert "(this phone)" in board and "Give my seat back" in board


def test_a_changed_poll_reads_the_board_in_one_query_more_at_most(game) -> None:
    cat, other = table_phone(game), table_phone(game)
    url = _poll_url(other, game)
    submit(cat, game)  # a change with no claim: the board is read, and shows nothing
    with CaptureQueriesContext(connection) as before:
        assert other.get(url, headers=HTMX).status_code == 200
    url = _poll_url(other, game)
    cat.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"})
    with CaptureQueriesContext(connection) as after:
        body = other.get(url, headers=HTMX).content.decode()
    assert "Cat: claimed by a phone since" in _board(body)
    assert len(after) <= len(before) + 1, [q["sql"] for q in after]


def test_a_saved_hands_answer_carries_the_board_only_when_it_claimed_a_seat(game) -> None:
    plain = table_phone(game)
    sheet = plain.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    body = submit(plain, game, headers=HTMX, number=1, **seen_of(sheet)).content.decode()
    # The small answer (the new row out of band), under 3 KB: no board.
    assert 'id="hand-1"' in body and 'id="sheet"' not in body
    assert 'id="seat-board"' not in body

    claiming = table_phone(game)
    sheet = claiming.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    answer = submit(claiming, game, headers=HTMX, number=2, entered_as=2, **seen_of(sheet))
    # (A phone that now holds a seat sees other ✓ marks: the whole sheet, its board with it.)
    board = _board(answer.content.decode())
    assert 'hx-swap-oob="true"' in board
    assert "Bob: claimed by a phone since" in board and "(this phone)" in board
