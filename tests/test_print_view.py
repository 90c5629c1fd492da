"""The print view draws every hand of the game on the paper sheet, not the sheet's last rows: on
one page for any real game, in pages of PRINT_HANDS for a longer one, totals the engine's, in a
number of queries that does not grow with the hands; whoever sees the sheet sees it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from bench.huge_game_bench import huge_record
from scorecards.importing import game_import
from scorecards.models import Game
from scorecards.print_views import PRINT_HANDS
from scorecards.rules import MAX_HANDS, record_score
from scorecards.sheet import SHEET_ROWS
from tests.game_viewers import answers_by_viewer, assert_seen_as_the_sheet

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="(?:made|set|thrown)">\s*<td>(\d+)</td>')
TOTAL = re.compile(r'<td class="num total">(-?\d+)</td>')


def printed(html: str) -> list[int]:
    """The numbers of the hands the paper sheet prints, in order."""
    return [int(n) for n in ROW.findall(html)]


def last_totals(html: str) -> list[int]:
    """The totals of the last row printed."""
    rows = re.findall(r'<tr class="(?:made|set|thrown)">.*?</tr>', html, re.S)
    assert rows, "no row printed"
    return [int(t) for t in TOTAL.findall(rows[-1])]


def imported(club, alice, hands: int) -> Game:
    return game_import(club=club, record=huge_record(hands), created_by=alice)


def engine_totals(hands: int) -> list[int]:
    return list(record_score(huge_record(hands))["scores"])


@pytest.fixture
def huge(club, alice) -> Game:
    return imported(club, alice, MAX_HANDS)


def test_who_sees_the_print_view(club, alice, bob, charlie) -> None:
    game = imported(club, alice, 10)
    url = reverse("game_print", args=[game.pk])
    answers = answers_by_viewer(url, game, owner=alice, member=bob, outsider=charlie)
    assert_seen_as_the_sheet(answers)
    assert printed(answers["table link"].content.decode()) == list(range(1, 11))


def test_a_real_game_prints_whole_on_one_page(as_bob, club, alice) -> None:
    """More hands than the sheet shows, fewer than a printed page holds: every one, once,
    with no pages to turn."""
    hands = 3 * SHEET_ROWS
    game = imported(club, alice, hands)
    html = as_bob.get(reverse("game_print", args=[game.pk])).content.decode()
    assert printed(html) == list(range(1, hands + 1))
    assert 'rel="next"' not in html and 'rel="prev"' not in html
    game.refresh_from_db()
    assert last_totals(html) == engine_totals(hands) == list(game.scores)
    # The game goes on: blank rows to write the next hands on.
    assert html.count('<tr class="blank">') == 5


def test_the_largest_game_prints_in_pages_each_hand_once(as_bob, huge) -> None:
    url = reverse("game_print", args=[huge.pk])
    pages = -(-MAX_HANDS // PRINT_HANDS)
    seen: list[int] = []
    for page in range(1, pages + 1):
        answer = as_bob.get(url, {"page": page})
        assert answer.status_code == 200
        html = answer.content.decode()
        first = (page - 1) * PRINT_HANDS + 1
        last = min(page * PRINT_HANDS, MAX_HANDS)
        assert printed(html) == list(range(first, last + 1)), page
        seen += printed(html)
        # Each page's last row carries the engine's totals over every hand before it.
        assert last_totals(html) == engine_totals(last)
        assert f"Page {page} of {pages}" in html
        assert (f'href="{url}?page={page + 1}" rel="next"' in html) == (page < pages)
        assert (f'href="{url}?page={page - 1}" rel="prev"' in html) == (page > 1)
        # The page links are for the screen: the paper has none.
        assert re.search(r'<nav class="pages no-print"', html)
        # The blank rows follow the last hand only.
        assert ('<tr class="blank">' in html) == (page == pages)
    assert seen == list(range(1, MAX_HANDS + 1))
    huge.refresh_from_db()
    assert engine_totals(MAX_HANDS) == list(huge.scores)
    # With no page asked, the first.
    assert printed(as_bob.get(url).content.decode())[:1] == [1]


def test_a_page_past_the_last_or_not_a_number_is_404(as_bob, huge) -> None:
    url = reverse("game_print", args=[huge.pk])
    for bad in ("0", str(-(-MAX_HANDS // PRINT_HANDS) + 1), "x", "١", ""):
        assert as_bob.get(url, {"page": bad}).status_code == 404, bad


@pytest.mark.parametrize("hands", [10, MAX_HANDS])
def test_the_print_view_s_queries_do_not_grow_with_the_hands(
    as_bob, club, alice, hands, django_assert_max_num_queries
) -> None:
    game = imported(club, alice, hands)
    # The session, the account, the game, its seats, its hands: whatever the length.
    with django_assert_max_num_queries(5):
        answer = as_bob.get(reverse("game_print", args=[game.pk]))
    assert answer.status_code == 200
    assert len(printed(answer.content.decode())) == min(hands, PRINT_HANDS)
