"""The sheet's small answers: a hand saved with htmx answers with its row and the parts around
it (out of band), a poll with the rows after the phone's last one, and the whole sheet only
when a row the phone shows has changed (an undo, a correction, a confirmation)."""

from __future__ import annotations

import random
import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.demo import demo_game_play
from scorecards.models import Hand
from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, hand_correct, hand_record, hand_undo

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ENDLESS = {"preset": "standard", "lose_at": None, "target": 500, "nt_target": None}


def hand(**changes) -> dict[str, str]:
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "4",
        "five_hearts": "1",
        "three_spades": "0",
    }
    return data | {key: str(value) for key, value in changes.items()}


def seen(html: str) -> dict[str, str]:
    """What the phone's sheet says it shows (the inputs of #sheet-seen), as htmx sends them."""
    state = re.search(r'<span id="sheet-seen".*?</span>', html, re.S)
    assert state, "no #sheet-seen"
    return dict(re.findall(r'name="(\w)" value="([^"]*)"', state.group(0)))


def page(client: Client, game) -> str:
    response = client.get(reverse("game_sheet", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def number_of(html: str) -> str:
    return re.search(r'name="number" value="(\d+)"', html).group(1)


@pytest.fixture
def long_game(club, players, alice):
    game = game_start(seats=players, rules=rules_build(ENDLESS), club=club, created_by=alice)
    demo_game_play(game, random.Random(6), max_hands=66)
    game.refresh_from_db()
    assert game.hand_count == 66 and game.status == "in_progress"
    return game


def test_a_hand_saved_in_a_66_hand_game_answers_under_3_kb(as_bob, long_game) -> None:
    """The answer carries the new row, not the 66 before it: under 3 KB (the whole sheet and
    form it replaced were over 40 KB)."""
    html = page(as_bob, long_game)
    url = reverse("hand_submit", args=[long_game.pk])
    response = as_bob.post(url, hand(number=67) | seen(html), headers=HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert len(response.content) < 3 * 1024, len(response.content)
    assert re.findall(r'<tr [^>]*id="hand-(\d+)"', body) == ["67"]
    assert 'hx-swap-oob="beforeend:#sheet-rows"' in body
    for part in ("sheet-seen", "sheet-status", "sheet-foot", "entry-head", "entry-undo"):
        assert f'id="{part}" hx-swap-oob="true"' in body, part
    assert number_of(body) == "68" and "Take back hand 67?" in body
    assert "hand-form" not in body  # the taps' fields stay on the phone
    # The next hand from the state this answer gave is small again.
    again = as_bob.post(url, hand(number=68) | seen(body), headers=HTMX)
    assert re.findall(r'<tr [^>]*id="hand-(\d+)"', again.content.decode()) == ["68"]


def test_the_rows_answer_matches_the_page(as_bob, long_game) -> None:
    """The row a small answer adds is the row the page draws, and the state it leaves is the
    page's."""
    html = page(as_bob, long_game)
    url = reverse("hand_submit", args=[long_game.pk])
    body = as_bob.post(url, hand(number=67) | seen(html), headers=HTMX).content.decode()
    fresh = page(as_bob, long_game)
    row = re.search(r'<tr [^>]*id="hand-67">.*?</tr>', body, re.S).group(0)
    assert row in fresh
    # The same game and hands; the phone's rows start where its page did (hand 27, one before
    # the fresh page's first: the sheet shows the last SHEET_ROWS hands and the phone keeps its).
    mine, page_now = seen(body), seen(fresh)
    assert (mine["v"], mine["n"]) == (page_now["v"], page_now["n"])
    assert mine["h"].startswith("26.") and page_now["h"].startswith("27.")
    totals = re.search(r'<p class="totals">.*?</p>', fresh, re.S).group(0)
    assert totals in body


def test_a_phone_behind_gets_the_whole_sheet(as_bob, as_alice, long_game, alice) -> None:
    """A hand corrected since the phone drew its rows: the answer is the whole sheet."""
    html = page(as_bob, long_game)
    hand_correct(
        game=long_game,
        number=3,
        hand=HandInput(thrown_in=True),
        by=alice,
    )
    url = reverse("hand_submit", args=[long_game.pk])
    response = as_bob.post(url, hand(number=67) | seen(html), headers=HTMX)
    body = response.content.decode()
    assert response["HX-Retarget"] == "#sheet" and response["HX-Reswap"] == "outerHTML"
    # The whole sheet: its last SHEET_ROWS rows, and the link to the earlier ones.
    assert 'id="hand-28"' in body and 'id="hand-67"' in body and 'id="hand-27"' not in body
    assert "Earlier hands (1–27)" in body


def test_no_state_sent_gets_the_whole_sheet(as_bob, long_game) -> None:
    url = reverse("hand_submit", args=[long_game.pk])
    response = as_bob.post(url, hand(number=67), headers=HTMX)
    assert response.status_code == 200 and response["HX-Reswap"] == "outerHTML"
    assert 'id="hand-28"' in response.content.decode()


def test_the_first_hand_removes_the_empty_line(as_bob, club, players, alice) -> None:
    game = game_start(seats=players, rules=rules_build(ENDLESS), club=club, created_by=alice)
    html = page(as_bob, game)
    assert 'id="no-hands"' in html
    url = reverse("hand_submit", args=[game.pk])
    body = as_bob.post(url, hand(number=1) | seen(html), headers=HTMX).content.decode()
    assert '<tr id="no-hands" hx-swap-oob="delete">' in body and 'id="hand-1"' in body


def test_a_redrawn_form_is_drawn_again_after_its_hand_is_saved(as_bob, club, players, alice):
    """A form shown again with its values (refused) has them as its defaults: once the hand
    is saved, the answer brings a blank form."""
    game = game_start(seats=players, rules=rules_build(ENDLESS), club=club, created_by=alice)
    url = reverse("hand_submit", args=[game.pk])
    refused = as_bob.post(url, hand(number=1, bid=5), headers=HTMX)
    assert refused.status_code == 422 and 'name="redraw"' in refused.content.decode()
    html = page(as_bob, game)
    data = hand(number=1, redraw=1) | seen(html)
    body = as_bob.post(url, data, headers=HTMX).content.decode()
    assert '<section id="entry" hx-swap-oob="true">' in body and 'id="hand-form"' in body
    assert 'name="redraw"' not in body


def test_the_last_hand_closes_the_form(as_bob, club, players, standard_rules, alice) -> None:
    """The hand that ends the game answers with the banner and the entry without its form."""
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    url = reverse("hand_submit", args=[game.pk])
    body = page(as_bob, game)
    for number in range(1, 30):
        data = hand(number=number, bid=12, tricks_bidder=8, five_hearts=0) | seen(body)
        body = as_bob.post(url, data, headers=HTMX).content.decode()
        game.refresh_from_db()
        if game.status != "in_progress":
            break
    assert game.status == "finished"
    assert 'id="game-over"' in body and 'id="sheet-status" hx-swap-oob="true"' in body
    assert '<section id="entry" hx-swap-oob="true">' in body and "hand-form" not in body


# --- polling ------------------------------------------------------------------------------------


def poll(client: Client, game, state: dict[str, str]):
    return client.get(reverse("game_poll", args=[game.pk]), state, headers=HTMX)


def test_a_poll_sends_the_rows_after_the_phones_last(as_bob, as_alice, long_game) -> None:
    state = seen(page(as_bob, long_game))
    assert poll(as_bob, long_game, state).status_code == 204
    for _ in range(2):
        hand_record(game=long_game, hand=HandInput(thrown_in=True))
    response = poll(as_bob, long_game, state)
    body = response.content.decode()
    assert response.status_code == 200 and "HX-Reswap" not in response
    assert re.findall(r'<tr [^>]*id="hand-(\d+)"', body) == ["67", "68"]
    # The hands changed under the phone's form: a fresh form for hand 69.
    assert '<section id="entry" hx-swap-oob="true">' in body and number_of(body) == "69"
    assert poll(as_bob, long_game, seen(body)).status_code == 204


def test_a_poll_after_an_undo_or_a_correction_sends_the_whole_sheet(
    as_bob, long_game, alice
) -> None:
    state = seen(page(as_bob, long_game))
    hand_undo(game=long_game, by=alice)
    response = poll(as_bob, long_game, state)
    assert response["HX-Reswap"] == "outerHTML" and response["HX-Retarget"] == "#sheet"
    body = response.content.decode()
    assert 'id="hand-65"' in body and 'id="hand-66"' not in body
    state = seen(body)
    hand_correct(game=long_game, number=60, hand=HandInput(thrown_in=True), by=alice)
    again = poll(as_bob, long_game, state)
    assert again["HX-Reswap"] == "outerHTML" and "corrected" in again.content.decode()


def test_a_poll_with_a_forged_state_gets_the_whole_sheet(as_bob, long_game) -> None:
    for state in ({"v": "x", "n": "66", "h": "0"}, {"v": "x", "n": "999", "h": ""}, {"v": "x"}):
        response = poll(as_bob, long_game, state)
        assert response.status_code == 200 and response["HX-Reswap"] == "outerHTML"


def test_plain_posts_still_redirect(as_bob, long_game) -> None:
    url = reverse("hand_submit", args=[long_game.pk])
    response = as_bob.post(url, hand(number=67))
    assert response.status_code == 303
    assert Hand.objects.filter(game=long_game).count() == 67


def test_the_small_answer_in_french(as_bob, long_game) -> None:
    """The small answer stays small in French too (longer words)."""
    french = {"Accept-Language": "fr"}
    html = as_bob.get(reverse("game_sheet", args=[long_game.pk]), headers=french)
    html = html.content.decode()
    url = reverse("hand_submit", args=[long_game.pk])
    headers = HTMX | french
    response = as_bob.post(url, hand(number=67) | seen(html), headers=headers)
    assert "Main 68" in response.content.decode()
    assert len(response.content) < 3 * 1024, len(response.content)


def test_the_small_answer_costs_no_more_queries_than_the_whole_sheet(
    as_bob, long_game, django_assert_max_num_queries
) -> None:
    """A saved hand answered with its row reads what the whole-sheet answer read (the names
    and corrected marks once each), no query per hand: 11 statements at most, as before
    (tests/test_table_sheet.py counts the whole-sheet answer alike)."""
    html = page(as_bob, long_game)
    url = reverse("hand_submit", args=[long_game.pk])
    with CaptureQueriesContext(connection) as queries:
        response = as_bob.post(url, hand(number=67) | seen(html), headers=HTMX)
    control = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK")
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(control)]
    assert len(statements) <= 11, statements
    assert "HX-Reswap" not in response and 'id="hand-67"' in response.content.decode()
    state = seen(response.content.decode())
    hand_record(game=long_game, hand=HandInput(thrown_in=True))
    with django_assert_max_num_queries(6):
        polled = poll(as_bob, long_game, state)
    assert re.findall(r'<tr [^>]*id="hand-(\d+)"', polled.content.decode()) == ["68"]
