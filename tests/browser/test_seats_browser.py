"""Seats at a 390x844 table: a phone gives its seat back and a replacement phone takes it, the
sheet showing who holds each seat and since when; the table link's QR one tap from the top."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorecards.models import SeatClaim, SeatRelease
from tests.browser.axe import assert_accessible
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_table_sheet_browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game(confirming_game):
    return confirming_game


def _phone(browser, live_server, game):
    context = browser.new_context(viewport=PHONE, locale="en-CA")
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(live_server.url + reverse("game_table_join", args=[game.table_token]))
    phone.wait_for_selector("#seat-claim")
    return phone


def _claim(phone, name: str) -> None:
    phone.select_option("#seat-claim select[name=seat]", label=name)
    phone.click("#seat-claim button")
    phone.wait_for_selector("#seat-board")


def test_a_seat_given_back_is_taken_by_a_replacement_phone(browser, live_server, game) -> None:
    first = _phone(browser, live_server, game)
    # Nothing is chosen for the phone: the empty choice shows until someone picks a name.
    assert first.eval_on_selector("#seat-claim select", "s => s.value") == ""
    _claim(first, "Cat")
    row = first.locator("#seat-row-1")
    assert "Cat: claimed by a phone since" in row.inner_text()
    assert "this phone" in row.inner_text()
    assert first.locator("#seat-row-0").inner_text().strip() == "Ann: not claimed"
    give_back = row.get_by_role("button", name="Give my seat back")
    box = give_back.bounding_box()
    assert box and box["height"] >= 44  # a finger's target
    assert_accessible(first, "sheet with the seat board")
    screenshot(first, "seat-board")
    give_back.click()
    first.wait_for_selector("#seat-claim")
    # No seat is claimed any more: only the board's hidden, empty placeholder stays.
    assert first.locator("#seat-board").is_hidden()
    assert first.locator("#seat-board li").count() == 0
    [trace] = SeatRelease.objects.filter(game=game)
    assert (trace.seat, trace.holder_name) == (1, "Cat")

    replacement = _phone(browser, live_server, game)
    _claim(replacement, "Cat")
    assert "this phone" in replacement.locator("#seat-row-1").inner_text()
    assert list(SeatClaim.objects.filter(game=game).values_list("seat", flat=True)) == [1]
    # The first phone, reloaded, sees Cat's seat held by another phone (not its own).
    first.reload()
    assert "this phone" not in first.locator("#seat-row-1").inner_text()
    assert first.locator("#seat-row-1 button").count() == 0
    first.context.close()
    replacement.context.close()


def test_another_phones_claim_and_its_release_show_without_a_reload(
    browser, live_server, game
) -> None:
    """Phone B's seat board follows phone A's claim and its release at B's next poll (every
    4 s), drawn for B: A's seat, not B's, and nothing for B to give back."""
    first, other = _phone(browser, live_server, game), _phone(browser, live_server, game)
    assert other.locator("#seat-board").is_hidden()
    other.evaluate("window.kaiserKept = true")  # gone if the page were loaded again
    _claim(first, "Cat")

    row = other.locator("#seat-row-1")
    row.wait_for(state="visible", timeout=6_000)
    assert "Cat: claimed by a phone since" in row.inner_text()
    assert "this phone" not in row.inner_text()
    assert row.locator("button").count() == 0
    assert other.locator("#seat-row-0").inner_text().strip() == "Ann: not claimed"
    assert other.evaluate("window.kaiserKept === true")
    assert_accessible(other, "sheet with another phone's claim swapped in by the poll")

    first.locator("#seat-row-1").get_by_role("button", name="Give my seat back").click()
    first.wait_for_selector("#seat-claim")
    other.locator("#seat-row-1").wait_for(state="detached", timeout=6_000)
    assert other.locator("#seat-board").is_hidden()
    assert other.evaluate("window.kaiserKept === true")
    first.context.close()
    other.context.close()


def test_the_table_link_and_its_qr_are_one_tap_from_the_top(page, live_server, game, alice):
    signed_in(page, live_server, alice)
    page.goto(live_server.url + reverse("game_sheet", args=[game.pk]))
    jump = page.get_by_role("link", name="Table link and QR code")
    box = jump.bounding_box()
    assert box and box["y"] < PHONE["height"] and box["height"] >= 44
    assert not page.locator(".qr-box svg").is_visible()
    jump.click()
    page.wait_for_selector(".qr-box svg", state="visible")
    assert page.locator("details.table-link").evaluate("d => d.open")
