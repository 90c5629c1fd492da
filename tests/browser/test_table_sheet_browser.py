"""The table score sheet on a 390x844 phone, driven by tapping: start a game and play it to its
end, correct a hand, confirm from a second phone, lose the network while sending, in French."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorecards.models import Game, Hand
from tests.browser.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(page, live_server, user) -> None:
    """Give the page's browser context the session of `user` (no login form to type)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def start_game(page, live_server, club, names=("Ann", "Cat", "Bob", "Dan")) -> Game:
    page.goto(f"{live_server.url}/clubs/{club.slug}/games/new")
    for seat, name in enumerate(names):
        page.fill(f"#id_seat_{seat}", name)
    page.locator("button[name=start]").last.click()
    page.wait_for_selector("#hand-form")
    return Game.objects.get()


def tap_hand(page, *, bidder: str, bid: int, tricks: int, hearts: int, spades: int, kind=""):
    """Tap one hand in: bidder, bid, (kind), tricks of the bidding side, the two cards."""
    page.locator("#f-bidder label", has_text=bidder).click()
    page.locator("#f-bid label", has_text=re.compile(rf"^{bid}$")).click()
    if kind:
        page.locator("#f-kind label", has_text=kind).click()
    page.locator("#f-tricks label", has_text=re.compile(rf"^{tricks}$")).click()
    page.locator("#f-five_hearts label").nth(hearts).click()
    page.locator("#f-three_spades label").nth(spades).click()


def save_and_wait(page, number: int) -> None:
    page.click("button.save")
    page.wait_for_selector(f"#hand-{number}")
    # The fresh form for the next hand (or the game-over banner, or round over) has arrived.
    page.wait_for_selector(
        f"#hand-form input[name=number][value='{number + 1}'], #game-over, #round-over",
        state="attached",
    )


def test_play_a_whole_game_by_tapping(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    page.goto(f"{live_server.url}/clubs/{club.slug}/games/new")
    screenshot(page, "game-new")
    game = start_game(page, live_server, club)
    assert page.viewport_size == PHONE
    screenshot(page, "sheet-empty")
    # Ann bids 8 and her side takes every trick and both cards: +10 a hand; 52 is reached in
    # hand 6. Hand 3 is a misdeal (same dealer again).
    number = 0
    while not page.locator("#game-over").count():
        number += 1
        if number == 3:
            page.once("dialog", lambda dialog: dialog.accept())  # the misdeal asks first
            page.click("button[name=thrown_in]")
            page.wait_for_selector("#hand-3.thrown")
            continue
        tap_hand(page, bidder="Ann", bid=8, tricks=8, hearts=0, spades=0)
        page.wait_for_selector("#preview .preview-head.made")
        assert "+10" in page.inner_text("#preview")
        if number == 2:
            screenshot(page, "hand-preview")
        save_and_wait(page, number)
        assert number < 10
    assert number == 7
    banner = page.inner_text("#game-over")
    assert "Ann & Bob win: they reached 60." in banner
    assert page.locator("#hand-form").count() == 0
    assert page.locator("svg.chart path.side").count() == 2
    screenshot(page, "game-over")
    page.click("text=Print view")
    page.wait_for_selector("table.paper-sheet")
    page.set_viewport_size({"width": 800, "height": 1000})
    screenshot(page, "print-view")
    game.refresh_from_db()
    assert game.is_finished and game.scores == [60, 0] and Hand.objects.count() == 7


def test_inline_errors_and_a_refused_hand(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    start_game(page, live_server, club)
    # All 8 tricks to Ann's side, but the 3 of spades to the other side: the engine refuses.
    tap_hand(page, bidder="Ann", bid=8, tricks=8, hearts=0, spades=1)
    page.wait_for_selector("#err-three_spades:not(:empty)")
    assert "took no trick" in page.inner_text("#err-three_spades")
    screenshot(page, "inline-error")
    page.click("button.save")
    page.wait_for_selector("#entry .field-error:not(:empty)")
    assert Hand.objects.count() == 0
    # The bar says it was not saved, and the field at fault is on screen.
    assert "Not saved" in page.inner_text("#bar-msg .refused")
    error = page.locator("#entry .field-error:not(:empty)").first
    box, bar = error.bounding_box(), page.locator("#action-bar").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"]


def test_correct_a_hand(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    tap_hand(page, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
    save_and_wait(page, 1)
    tap_hand(page, bidder="Cat", bid=7, tricks=7, hearts=1, spades=1)
    save_and_wait(page, 2)
    page.click("#hand-1 a")
    page.locator("#f-tricks label", has_text=re.compile(r"^7$")).click()
    page.click("#correct-form button.save")
    page.wait_for_selector("#hand-form")
    game.refresh_from_db()
    assert Hand.objects.get(game=game, number=1).tricks == [7, 1]
    assert game.scores[0] == 12 + 1
    page.click("#hand-1 a")
    assert "corrected" in page.inner_text(".versions")
    screenshot(page, "hand-history")


def test_confirm_from_a_second_phone(browser, page, live_server, club, players, alice) -> None:
    club.hands_need_confirmation = True
    club.save()
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    game.refresh_from_db()
    # The second phone at the table opens the table link (no account).
    other = browser.new_context(viewport=PHONE).new_page()
    other.goto(f"{live_server.url}/t/{game.table_token}/")
    other.wait_for_selector("#hand-form")
    tap_hand(page, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
    save_and_wait(page, 1)
    # The other phone sees the hand within a few seconds (polling), unconfirmed.
    other.wait_for_selector("#hand-1.unconfirmed", timeout=8000)
    # It says who holds it (kept on the server): only then may it confirm, for that seat.
    other.select_option("#seat-claim select[name=seat]", "1")
    other.click("#seat-claim button")
    other.click("#hand-1 form.confirm button:has-text('Cat')")
    other.wait_for_selector("#hand-1:not(.unconfirmed)")
    screenshot(other, "confirmed-on-second-phone")
    page.wait_for_selector("#hand-1:not(.unconfirmed)", timeout=8000)
    assert Hand.objects.get(game=game).confirmed_by_name == "Cat"
    other.context.close()


def test_network_lost_while_sending(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    # Hand 1 reaches the server, but the answer is lost on the way back.
    state = {"drops": 1}

    def drop_answer(route) -> None:
        if state["drops"]:
            state["drops"] -= 1
            route.fetch()
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/hands/", drop_answer)
    tap_hand(page, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
    page.click("button.save")
    page.wait_for_selector("#bar-msg .waiting")
    assert "1 hand waiting to send" in page.inner_text("#bar-msg")
    screenshot(page, "outbox-waiting")
    assert Hand.objects.filter(game=game).count() == 1  # it did arrive
    # Hand 2 while fully offline: it waits behind hand 1.
    page.context.set_offline(True)
    tap_hand(page, bidder="Cat", bid=7, tricks=7, hearts=1, spades=1)
    page.click("button.save")
    page.wait_for_selector("#bar-msg .waiting:has-text('2 hands waiting')")
    page.context.set_offline(False)
    page.wait_for_selector("#bar-msg .waiting", state="detached", timeout=15000)
    page.wait_for_selector("#hand-2", timeout=10000)
    hands = Hand.objects.filter(game=game).order_by("number")
    assert [h.bidder for h in hands] == [0, 1]  # none lost, none twice
    assert page.locator("#hand-1").count() == 1
    screenshot(page, "outbox-sent")
    # Back to normal: the next hand is saved in place (no page load) once the sheet caught up.
    page.wait_for_selector("#hand-form .totals:not([hidden])")
    page.evaluate("() => { window.stillHere = true; }")
    tap_hand(page, bidder="Bob", bid=8, tricks=6, hearts=0, spades=1)
    save_and_wait(page, 3)
    assert page.evaluate("() => window.stillHere === true")


def test_french_sheet(browser, live_server, club, players, alice) -> None:
    context = browser.new_context(viewport=PHONE, locale="fr-CA")
    page = context.new_page()
    signed_in(page, live_server, alice)
    start_game(page, live_server, club)
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Enregistrer la main" in page.inner_text("#hand-form")
    tap_hand(page, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
    page.wait_for_selector("#preview .preview-head.made")
    assert "Réussie" in page.inner_text("#preview")
    save_and_wait(page, 1)
    assert "Donneur" in page.inner_text("#sheet")
    screenshot(page, "sheet-french")
    context.close()


def test_quick_game_with_three_players(page, live_server, charlie) -> None:
    signed_in(page, live_server, charlie)
    page.goto(f"{live_server.url}/games/new")
    page.select_option("#id_preset", "three-player")
    page.wait_for_selector("#id_seat_3", state="detached")
    for seat, name in enumerate(["Mom", "Dad", "Lea"]):
        page.fill(f"#id_seat_{seat}", name)
    page.press("#id_seat_2", "Enter")  # Enter starts the game
    page.wait_for_selector("#hand-form")
    assert page.locator("input[name=tricks_2]").count() == 9
    screenshot(page, "quick-game-three-players")
    game = Game.objects.get()
    assert game.club is None and game.rules["preset"] == "three-player"
