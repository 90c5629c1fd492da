"""A long game's sheet shows its last SHEET_ROWS hands, totals from the engine's score of every
hand, and a link to the history page, which shows every hand once, a page at a time, to whoever
sees the sheet. The poll and the saved hand's answer stay small and right on a paged sheet."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.huge_game_bench import huge_record
from scorecards.history_views import HISTORY_PAGE
from scorecards.importing import game_import
from scorecards.models import Game
from scorecards.rules import MAX_HANDS, HandInput, record_score
from scorecards.services import hand_correct, hand_record, hand_undo
from scorecards.sheet import SHEET_ROWS
from tests.game_viewers import answers_by_viewer, assert_seen_as_the_sheet

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ROW = re.compile(r'<tr [^>]*id="hand-(\d+)"')


def rows_of(html: str) -> list[int]:
    return [int(n) for n in ROW.findall(html)]


def seen(html: str) -> dict[str, str]:
    state = re.search(r'<span id="sheet-seen".*?</span>', html, re.S)
    assert state, "no #sheet-seen"
    return dict(re.findall(r'name="(\w)" value="([^"]*)"', state.group(0)))


def totals(html: str) -> list[int]:
    head = re.search(r'<p class="totals">.*?</p>', html, re.S)
    assert head, "no totals"
    return [int(t) for t in re.findall(r"<b>(-?\d+)</b>", head.group(0))]


def row_totals(html: str, number: int) -> list[int]:
    """The totals the row of hand `number` shows (the engine's running score)."""
    row = re.search(rf'<tr [^>]*id="hand-{number}">.*?</tr>', html, re.S)
    assert row, f"no row {number}"
    return [
        int(t)
        for t in re.findall(r'<small class="delta">[^<]*</small> <b>(-?\d+)</b>', row.group(0))
    ]


def imported(club, alice, hands: int) -> Game:
    return game_import(club=club, record=huge_record(hands), created_by=alice)


@pytest.fixture
def huge(club, alice) -> Game:
    return imported(club, alice, MAX_HANDS)


def test_the_largest_game_s_sheet_shows_the_last_rows_and_the_engine_s_totals(as_bob, huge) -> None:
    answer = as_bob.get(reverse("game_sheet", args=[huge.pk]))
    html = answer.content.decode()
    assert answer.status_code == 200
    assert rows_of(html) == list(range(MAX_HANDS - SHEET_ROWS + 1, MAX_HANDS + 1))
    # The totals are the engine's over all 500 hands (and the game's stored ones), not a sum
    # of the 40 rows shown.
    final = record_score(huge_record(MAX_HANDS))["scores"]
    huge.refresh_from_db()
    assert totals(html) == list(final) == list(huge.scores)
    cells = re.findall(r'side-(\d)[^"]*"><small class="delta">([+-]?\d+)</small>', html)
    shown_sum = [sum(int(d) for side, d in cells if side == str(s)) for s in (0, 1)]
    assert len(cells) == 2 * SHEET_ROWS and totals(html) != shown_sum
    last = MAX_HANDS - SHEET_ROWS
    assert f"Earlier hands (1–{last})" in html
    assert reverse("game_history", args=[huge.pk]) in html
    # A fraction of the 200 kB the whole sheet drew (36 kB when this was written).
    assert len(answer.content) < 64 * 1024, len(answer.content)


def test_a_short_game_shows_every_hand_and_no_history_link(as_bob, club, alice) -> None:
    game = imported(club, alice, SHEET_ROWS)
    html = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert rows_of(html) == list(range(1, SHEET_ROWS + 1))
    assert "Earlier hands" not in html


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_queries_do_not_grow_with_the_hands(as_bob, club, alice, huge) -> None:
    small = imported(club, alice, SHEET_ROWS + 5)
    for name in ("game_sheet", "game_history", "game_poll"):
        few = _queries(as_bob, reverse(name, args=[small.pk]))
        many = _queries(as_bob, reverse(name, args=[huge.pk]))
        assert few == many, name
        assert many <= 12, (name, many)


def test_the_history_pages_cover_every_hand_exactly_once(as_bob, huge) -> None:
    url = reverse("game_history", args=[huge.pk])
    seen_numbers: list[int] = []
    page_url: str | None = url
    pages = 0
    while page_url:
        answer = as_bob.get(page_url)
        assert answer.status_code == 200
        html = answer.content.decode()
        numbers = rows_of(html)
        assert 0 < len(numbers) <= HISTORY_PAGE
        seen_numbers += numbers
        pages += 1
        following = re.search(r'href="([^"]+)"[^>]*rel="next"', html)
        page_url = following.group(1).replace("&amp;", "&") if following else None
    assert seen_numbers == list(range(1, MAX_HANDS + 1))
    assert pages == -(-MAX_HANDS // HISTORY_PAGE)
    # Each row's totals are the engine's: the last row's are the game's.
    huge.refresh_from_db()
    assert row_totals(html, MAX_HANDS) == list(huge.scores)


def test_the_history_page_answers_htmx_with_its_fragment_and_refuses_a_bad_page(
    as_bob, huge
) -> None:
    url = reverse("game_history", args=[huge.pk])
    fragment = as_bob.get(url + "?page=2", headers=HTMX).content.decode()
    assert fragment.lstrip().startswith('<section id="history"')
    assert "<html" not in fragment
    assert rows_of(fragment) == list(range(HISTORY_PAGE + 1, 2 * HISTORY_PAGE + 1))
    assert 'hx-get="' in fragment and 'rel="prev"' in fragment
    for bad in ("0", "14", "x", "١"):
        assert as_bob.get(url, {"page": bad}).status_code == 404, bad


def test_the_history_page_enters_nothing(as_alice, club, alice) -> None:
    """The rows say which hands wait for a confirmation; the history page has no entry form,
    and offers no ✓ to the account that entered the hands (tests/test_history_confirm.py: the
    ✓ it offers to the other side)."""
    club.hands_need_confirmation = True
    club.save()
    game = imported(club, alice, 3)
    html = as_alice.get(reverse("game_history", args=[game.pk])).content.decode()
    found = re.search(r'<section id="history".*?</section>', html, re.S)
    assert found, "no #history"
    section = found.group(0)
    assert rows_of(section) == [1, 2, 3]
    assert section.count('class="made unconfirmed"') + section.count('class="set unconfirmed"') == 3
    assert "<form" not in section and "<input" not in section


def test_who_sees_the_history_page(huge, alice, bob, charlie) -> None:
    """Owner and member see it; an outsider, an ex-member and nobody get 404; a table phone
    (the game's table link) sees it as it sees the sheet."""
    url = reverse("game_history", args=[huge.pk])
    answers = answers_by_viewer(url, huge, owner=alice, member=bob, outsider=charlie)
    assert_seen_as_the_sheet(answers)
    assert rows_of(answers["table link"].content.decode())[:1] == [1]


# --- the sheet's answers on a paged sheet -----------------------------------------------------


def _hand_data(number: int) -> dict[str, str]:
    return {
        "idempotency_key": str(uuid.uuid4()),
        "number": str(number),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "4",
        "five_hearts": "1",
        "three_spades": "0",
    }


MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


@pytest.fixture
def long_game(club, alice) -> Game:
    game = imported(club, alice, 100)
    assert game.status == "in_progress"
    return game


def test_a_poll_on_a_paged_sheet_answers_the_rows_after_the_phone_s_last(as_bob, long_game) -> None:
    html = as_bob.get(reverse("game_sheet", args=[long_game.pk])).content.decode()
    hand_record(game=long_game, hand=MADE)
    answer = as_bob.get(reverse("game_poll", args=[long_game.pk]), seen(html), headers=HTMX)
    body = answer.content.decode()
    assert answer.status_code == 200 and "HX-Reswap" not in answer
    assert rows_of(body) == [101]
    # The phone now shows hands 61-101: its next poll, after one more hand, gets hand 102 only.
    hand_record(game=long_game, hand=MADE)
    again = as_bob.get(reverse("game_poll", args=[long_game.pk]), seen(body), headers=HTMX)
    assert rows_of(again.content.decode()) == [102]


def test_a_saved_hand_on_a_paged_sheet_answers_its_row(as_bob, long_game) -> None:
    html = as_bob.get(reverse("game_sheet", args=[long_game.pk])).content.decode()
    url = reverse("hand_submit", args=[long_game.pk])
    answer = as_bob.post(url, _hand_data(101) | seen(html), headers=HTMX)
    body = answer.content.decode()
    assert answer.status_code == 200 and "HX-Reswap" not in answer
    assert rows_of(body) == [101]
    fresh = as_bob.get(reverse("game_sheet", args=[long_game.pk])).content.decode()
    assert totals(fresh) == totals(body)
    assert seen(body)["n"] == seen(fresh)["n"] == "101"


@pytest.mark.parametrize("change", ["undo", "correct_shown", "correct_earlier"])
def test_an_undo_or_a_correction_sends_the_whole_paged_sheet(
    as_bob, long_game, alice, change
) -> None:
    html = as_bob.get(reverse("game_sheet", args=[long_game.pk])).content.decode()
    if change == "undo":
        hand_undo(game=long_game, by=alice)
    else:
        number = 95 if change == "correct_shown" else 5
        hand_correct(game=long_game, number=number, hand=HandInput(thrown_in=True), by=alice)
    answer = as_bob.get(reverse("game_poll", args=[long_game.pk]), seen(html), headers=HTMX)
    body = answer.content.decode()
    # A hand corrected before the phone's rows changes the totals of the rows it shows.
    assert answer.status_code == 200 and answer["HX-Reswap"] == "outerHTML"
    last = 99 if change == "undo" else 100
    assert rows_of(body) == list(range(last - SHEET_ROWS + 1, last + 1))
    long_game.refresh_from_db()
    assert row_totals(body, last) == list(long_game.scores)
