"""A table with no signal does not play blind: the hands waiting in the phone's outbox show as
pending rows (what was entered, "pending — not yet scored", no score), with who deals next and
who bids first; once the signal returns the server's scored rows replace them, and its dealer is
the one the phone announced. Home and the club page with no signal show the offline page, which
lists the sheets this phone keeps and opens them."""

from __future__ import annotations

import re

import pytest

from scorecards.models import Hand
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.test_sheet_phone import until
from tests.browser.test_table_sheet_browser import signed_in, start_game, tap_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann", "Cat", "Bob", "Dan"]  # seats 0..3 (sides: Ann & Bob, Cat & Dan)


def kept(page, path: str) -> None:
    """The service worker controls the page and keeps the sheet at `path`."""
    until(page, "() => navigator.serviceWorker.controller !== null")
    until(page, f"() => caches.match('{path}').then(Boolean)")


def dealer_now(page) -> int:
    """The dealer of the hand the form takes, as the server drew it: the auction's last seat."""
    return int(page.get_attribute("#entry-head", "data-auction").split(" ")[-1])


def _sheet_offline(page, live_server, club, alice):
    """A game started and its sheet kept by the phone, then reloaded with no signal: the
    game and the dealer of its next hand."""
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    kept(page, f"/games/{game.pk}/")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#hand-form")
    return game, dealer_now(page)


def test_two_hands_offline_are_pending_rows_then_the_servers(
    page, live_server, club, players, alice
) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    game, first = _sheet_offline(page, live_server, club, alice)
    # Ann bids 8, her side takes 4 tricks: set (-8); then Cat bids 8 and is set too.
    for number, (bidder, hearts, spades) in enumerate([("Ann", 1, 0), ("Cat", 0, 1)], start=1):
        tap_hand(page, bidder=bidder, bid=8, tricks=4, hearts=hearts, spades=spades)
        page.click("#action-bar button.save")
        page.wait_for_selector(f"#pending-{number}")
    assert not Hand.objects.filter(game=game).exists()

    rows = page.locator("#pending-rows tr")
    assert rows.count() == 2
    one, two = page.locator("#pending-1"), page.locator("#pending-2")
    for row, bidder, hearts, spades in (
        (one, "Ann", "Cat & Dan", "Ann & Bob"),
        (two, "Cat", "Ann & Bob", "Cat & Dan"),
    ):
        text = row.inner_text()
        assert f"{bidder} 8" in text
        assert "tricks: 4" in text
        assert f"5♥ {hearts}" in text and f"3♠ {spades}" in text
        assert "pending — not yet scored" in text
        # No score: the number is the only figure column, and no -8 or running total.
        assert row.locator("td.num").count() == 1
        assert not re.search(r"[-−+]\d", text), text
    # The deal passes left after each hand: hand 1 is dealt by the server's dealer, hand 2 by
    # the next seat, hand 3 by the one after, the seat on its left bids first.
    assert one.locator("td").nth(1).inner_text() == NAMES[first]
    assert two.locator("td").nth(1).inner_text() == NAMES[(first + 1) % 4]
    announced = page.inner_text("#pending-next")
    expected = f"Next hand: {NAMES[(first + 2) % 4]} deals, {NAMES[(first + 3) % 4]} bids first."
    assert announced == expected
    assert page.locator("#pending-next").is_visible()
    assert page.locator("#pending-1").is_visible()
    screenshot(page, "offline-pending-rows")

    page.context.set_offline(False)
    page.wait_for_selector("#hand-2", timeout=15_000)
    page.wait_for_selector("#pending-rows", state="detached")
    page.wait_for_selector("#pending-next", state="detached")
    assert [h.bidder for h in Hand.objects.filter(game=game).order_by("number")] == [0, 1]
    # The server's rows carry its scores; and it deals hand 3 as the phone said.
    assert re.search(r"-8|−8", page.inner_text("#hand-1")), page.inner_text("#hand-1")
    page.wait_for_selector("#hand-form input[name=number][value='3']", state="attached")
    assert dealer_now(page) == (first + 2) % 4
    assert f"{NAMES[(first + 2) % 4]} deals" in page.inner_text("#entry-head .deal")


def test_a_misdeal_offline_keeps_the_dealer(page, live_server, club, players, alice) -> None:
    _game, first = _sheet_offline(page, live_server, club, alice)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button.misdeal")
    page.wait_for_selector("#pending-1")
    assert "Misdeal / thrown in" in page.inner_text("#pending-1")
    assert page.locator("#pending-1 td").nth(1).inner_text() == NAMES[first]
    # Dealt again by the same dealer.
    expected = f"Next hand: {NAMES[first]} deals, {NAMES[(first + 1) % 4]} bids first."
    assert page.inner_text("#pending-next") == expected
    page.context.set_offline(False)
    page.wait_for_selector("#hand-1.thrown", timeout=15_000)
    page.wait_for_selector("#pending-rows", state="detached")
    assert dealer_now(page) == first


def test_home_and_club_offline_list_the_kept_sheet(page, live_server, club, players, alice):
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    sheet = f"/games/{game.pk}/"
    kept(page, sheet)
    until(page, "() => caches.match('/offline/').then(Boolean)")
    page.context.set_offline(True)
    for where in ("/", f"/clubs/{club.slug}/"):
        page.goto(live_server.url + where)
        page.wait_for_selector("#offline-games a")
        assert page.url == live_server.url + where  # the page asked for, not a redirect
        assert "No signal" in page.inner_text("h1")
        links = page.locator("#offline-games a")
        assert links.count() == 1
        assert links.get_attribute("href") == sheet
        assert f"Game {game.pk}" in links.inner_text()
        assert club.name in links.inner_text()
        assert not page.locator("#offline-none").is_visible()
        box = links.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    assert_accessible(page, "offline page")
    screenshot(page, "offline-page")
    page.locator("#offline-games a").click()
    page.wait_for_selector("#hand-form")
    assert page.url == live_server.url + sheet
    assert "Hand 1" in page.inner_text("#entry-title")


def test_after_logout_the_offline_page_lists_nothing(page, live_server, club, players, alice):
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    kept(page, f"/games/{game.pk}/")
    page.click("header form[action='/accounts/logout/'] button")
    page.wait_for_selector("header a[href='/accounts/login/']")
    # The offline page is kept again as the signed-out phone sees it.
    until(page, "() => caches.match('/offline/').then(Boolean)")
    page.context.set_offline(True)
    page.goto(live_server.url + "/")
    page.wait_for_selector("h1:has-text('No signal')")
    page.wait_for_timeout(300)  # offline.js has read the cache
    assert page.locator("#offline-games a").count() == 0
    assert page.locator("#offline-none").is_visible()
    assert "alice" not in page.inner_text("header")
    assert page.locator("header a[href='/accounts/login/']").count() == 1
    assert_accessible(page, "offline page, nothing kept")


def test_after_a_refused_hand_the_next_dealer_waits_for_the_server(
    page, live_server, club, players, alice
) -> None:
    """A kept hand the server refuses (here: the page too old to send) stops and may be
    discarded: the phone no longer says who deals next."""
    game, first = _sheet_offline(page, live_server, club, alice)
    tap_hand(page, bidder="Ann", bid=8, tricks=4, hearts=1, spades=0)
    page.click("#action-bar button.save")
    page.wait_for_selector("#pending-1")
    assert f"Next hand: {NAMES[(first + 1) % 4]} deals" in page.inner_text("#pending-next")

    def refuse(route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=403, body="<h1>CSRF verification failed</h1>")
        else:
            route.continue_()

    page.route("**/hands/", refuse)
    page.context.set_offline(False)
    page.wait_for_selector("#bar-msg .refused")
    assert page.inner_text("#pending-next") == "Next dealer: when the signal returns."
    assert "pending — not yet scored" in page.inner_text("#pending-1")
    assert page.locator("#pending-1 td").nth(1).inner_text() == NAMES[first]
    # Discarded: no row waits, and the form's own dealer (the server's) is the one.
    page.locator("#bar-msg button[data-act=discard]").click()
    page.wait_for_selector("#pending-rows", state="detached")
    assert page.locator("#pending-next").count() == 0
    assert not Hand.objects.filter(game=game).exists()
