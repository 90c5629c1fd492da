"""Nothing moves under the finger, and the table always knows where it is: measured in a real
browser at 390x844 and 360x740. A refused hand puts its field on screen and focused (also when
another phone saved meanwhile); an error line that clears does not move the rows below it, nor
does an error the live preview finds while the hand is tapped in (its words in the bar); the
bar says the saved hand in the server's words and what an undo took back; every row says who
dealt and who bid first; the game-over banner is on screen and "Abandon" goes with the end."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorecards.models import Game, Hand
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.test_sheet_phone import above_bar, on_screen
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in, start_game, tap_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL = {"width": 360, "height": 740}


def top(locator) -> float:
    return locator.evaluate("(el) => el.getBoundingClientRect().top")


def focused_in(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => Boolean(document.activeElement && document.activeElement.closest(s))", selector
    )


def tap_without_bid(page, *, bidder: str) -> None:
    page.locator("#f-bidder label", has_text=bidder).click()
    page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
    page.locator("#f-five_hearts label").nth(1).click()
    page.locator("#f-three_spades label").nth(0).click()


def sheet_at(page, live_server, club, alice, size) -> None:
    """Alice's new game's sheet, at `size` (None: the phone's default)."""
    if size:
        page.set_viewport_size(size)
    signed_in(page, live_server, alice)
    start_game(page, live_server, club)


def settled(page) -> None:
    """Wait until the page has stopped scrolling (two reads 150 ms apart agree)."""
    last = None
    for _ in range(40):
        now = page.evaluate("scrollY")
        if now == last:
            return
        last = now
        page.wait_for_timeout(150)
    raise AssertionError("the page never stopped scrolling")


def refused_on_screen(page) -> dict:
    """The bid's error line is on screen, above the action bar, and the bid field has focus."""
    error = page.locator("#err-bid")
    assert error.inner_text().strip(), "no error under the bid"
    assert above_bar(error), error.evaluate("(el) => el.getBoundingClientRect().toJSON()")
    assert above_bar(page.locator("#f-bid legend"))
    assert focused_in(page, "#f-bid")
    return {"error_top": top(error), "scroll": page.evaluate("scrollY")}


@pytest.mark.parametrize("size", [None, SMALL], ids=["390x844", "360x740"])
def test_a_two_phone_refusal_keeps_the_error_on_screen_and_focused(
    browser, page, live_server, club, players, alice, bob, size
) -> None:
    if size:
        page.set_viewport_size(size)
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    other = browser.new_context(viewport=page.viewport_size, locale="en-CA").new_page()
    signed_in(other, live_server, bob)
    other.goto(live_server.url + reverse("game_sheet", args=[game.pk]))
    # Four hands on the sheet first, so the page is long enough to scroll far.
    for number in range(1, 5):
        tap_hand(page, bidder="Ann", bid=8, tricks=4, hearts=1, spades=0)
        save_and_wait(page, number)
    other.wait_for_selector("#hand-4", timeout=15_000)
    # The first phone saves hand 5; the poll brings it to the second, whose player then taps
    # hand 6 without its bid.
    tap_hand(page, bidder="Cat", bid=8, tricks=4, hearts=1, spades=0)
    save_and_wait(page, 5)
    other.wait_for_selector("#hand-5", timeout=15_000)
    other.wait_for_selector("#hand-form input[name=number][value='6']", state="attached")
    tap_without_bid(other, bidder="Bob")
    # Its player looks at the rows at the bottom, then taps Save in the bar.
    other.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    far = other.evaluate("scrollY")
    other.click("#action-bar button.save")
    other.wait_for_selector("#err-bid:not(:empty)")
    # Measured once the page has brought the field at fault into view and focused it (on a
    # loaded machine the scroll is still under way when the error shows).
    other.wait_for_function("() => Boolean(document.activeElement.closest('#f-bid'))")
    settled(other)
    first = refused_on_screen(other)
    # Still there after the page has settled and a poll has come and gone.
    other.wait_for_timeout(300)
    assert refused_on_screen(other) == first
    other.wait_for_timeout(4500)  # a poll has come and gone
    refused_on_screen(other)
    print(f"two phones {other.viewport_size}: scrolled at {far}, error at {first}")
    assert Hand.objects.filter(game=game).count() == 5
    other.context.close()


@pytest.mark.parametrize("size", [None, SMALL], ids=["390x844", "360x740"])
def test_an_error_clearing_does_not_move_the_rows_under_the_finger(
    page, live_server, club, players, alice, size
) -> None:
    sheet_at(page, live_server, club, alice, size)
    tap_without_bid(page, bidder="Ann")
    page.click("#action-bar button.save")
    page.wait_for_selector("#err-bid:not(:empty)")
    # The page brings the field at fault into view once the answer has settled, then focuses it:
    # measured after that, not while it scrolls.
    page.wait_for_function("() => Boolean(document.activeElement.closest('#f-bid'))")
    spades = page.locator("#f-three_spades label").nth(1)
    tricks = page.locator("#f-tricks label", has_text=re.compile(r"^5$"))
    before = (top(spades), top(tricks))
    page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
    page.wait_for_selector("#preview .preview-head")
    page.wait_for_function("() => !document.getElementById('err-bid').textContent.trim()")
    after = (top(spades), top(tricks))
    assert after == before, (before, after)
    # Where the finger goes next is where it was: the tap lands on the intended button.
    page.locator("#f-tricks label", has_text=re.compile(r"^5$")).click()
    assert page.locator("#f-tricks input[value='5']").is_checked()


def test_save_says_the_hand_and_undo_says_what_it_took_back(
    page, live_server, club, players, alice
) -> None:
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    # Ann bids 8, her side (Ann & Bob) takes the 8 tricks and both cards.
    tap_hand(page, bidder="Ann", bid=8, tricks=8, hearts=0, spades=0)
    page.wait_for_selector("#preview .preview-head.made")
    save_and_wait(page, 1)
    bar = page.locator("#bar-msg .msg.sent")
    said = bar.inner_text()
    assert re.fullmatch(r"Hand 1: Ann & Bob 8 made, \+\d+ / Cat & Dan [+-]?\d+", said), said
    assert above_bar(bar) or bar.evaluate("(el) => !!el.closest('#action-bar')")
    assert page.locator("#hand-1 a.hand-link").inner_text().strip() == "1"
    # The running score at the top flashes; focus is on the first field of the next hand.
    assert page.locator("#entry-head .totals.flash").count() == 1
    assert focused_in(page, "#f-bidder")
    assert page.title().startswith("Ann & Bob ") and " – Cat & Dan " in page.title()
    assert page.title().endswith(" · Kaiser League")
    tap_hand(page, bidder="Cat", bid=8, tricks=3, hearts=0, spades=1)
    page.wait_for_selector("#preview .preview-head.set")
    save_and_wait(page, 2)
    # The bar says it once the answer has settled (after the row is in).
    page.wait_for_function("() => document.getElementById('bar-msg').innerText.includes('Hand 2')")
    assert "Hand 2: Cat & Dan 8 set" in page.inner_text("#bar-msg")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form.undo button")
    page.wait_for_selector("#hand-2", state="detached")
    page.wait_for_function("() => document.getElementById('bar-msg').innerText.includes('back')")
    text = page.inner_text("#bar-msg")
    assert "Hand 2 taken back." in text and "Hand 2: " not in text, text
    assert Hand.objects.filter(game=game).count() == 1


def test_every_row_says_who_dealt_and_who_bid_first(page, live_server, club, players, alice):
    signed_in(page, live_server, alice)
    start_game(page, live_server, club)
    head = page.inner_text("#entry-head .deal")
    dealer = re.search(r"(\w+) deals", head).group(1)
    first = re.search(r"(\w+) bids first", head).group(1)
    seats = ["Ann", "Cat", "Bob", "Dan"]  # round the table
    assert first == seats[(seats.index(dealer) + 1) % 4], head
    for number in (1, 2):
        tap_hand(page, bidder="Ann", bid=8, tricks=4, hearts=1, spades=0)
        save_and_wait(page, number)
    for number in (1, 2):
        cell = page.locator(f"#hand-{number} td").nth(1).inner_text()
        dealer = cell.split()[0]
        assert f"{seats[(seats.index(dealer) + 1) % 4]} bids 1st" in cell, cell
    assert (
        page.locator("#hand-1 td").nth(1).inner_text().split()[0]
        != (page.locator("#hand-2 td").nth(1).inner_text().split()[0])
    )


def test_the_game_over_banner_is_on_screen_at_360x740_and_abandon_goes(
    page, live_server, club, players, alice
) -> None:
    page.set_viewport_size(SMALL)
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    assert page.locator(".sheet-stop a").count() == 1
    number = 0
    while not page.locator("#game-over").count():
        number += 1
        tap_hand(page, bidder="Ann", bid=8, tricks=8, hearts=0, spades=0)
        page.wait_for_selector("#preview .preview-head.made")
        save_and_wait(page, number)
        assert number < 10
    banner = page.locator("#game-over")
    box = banner.evaluate("(el) => el.getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= SMALL["height"], box
    # What no longer applies has gone without a reload: no "Abandon", no Save.
    assert page.locator(".sheet-stop a").count() == 0
    assert page.locator("#hand-form").count() == 0
    assert Game.objects.get(pk=game.pk).status == "finished"


def test_larger_text_is_kept_by_the_phone_and_a_hand_still_fits_one_screen(
    page, live_server, club, players, alice
) -> None:
    from tests.browser.test_sheet_phone import Taps, play_hand

    signed_in(page, live_server, alice)
    start_game(page, live_server, club)
    size = "() => parseFloat(getComputedStyle(document.querySelector('#f-bidder legend')).fontSize)"
    normal = page.evaluate(size)
    toggle = page.locator("#text-size")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    large = page.evaluate(size)
    assert large >= normal * 1.1, (normal, large)
    # Remembered by this phone: a reload (and any other page) opens in larger text.
    page.reload()
    page.wait_for_selector("#hand-form")
    assert page.evaluate(size) == large
    assert page.locator("#text-size").get_attribute("aria-pressed") == "true"
    # One hand, five taps and Save, never a scroll at 390x844.
    taps = Taps(page, scrolls_per_hand=0)
    for number in (1, 2):
        play_hand(page, taps, number)
    print(f"larger text: legend {normal} px -> {large} px")
    page.locator("#text-size").click()
    page.reload()
    page.wait_for_selector("#hand-form")
    assert page.evaluate(size) == normal


def boxes(page, selectors: list[str]) -> dict[str, tuple[float, float, float, float]]:
    """Where each of `selectors` is (x, y, width, height, in CSS px): in the page for what
    scrolls with it, on the screen for what is fixed there (the action bar's Save). A tap that
    scrolls the page to reach its target moves neither."""
    found = {}
    for selector in selectors:
        box = page.locator(selector).first.evaluate(
            """(el) => {
                const r = el.getBoundingClientRect();
                const fixed = Boolean(el.closest("#action-bar"));
                const dy = fixed ? 0 : window.scrollY, dx = fixed ? 0 : window.scrollX;
                return [r.x + dx, r.y + dy, r.width, r.height];
            }"""
        )
        assert box[2] and box[3], f"{selector} is not drawn"
        found[selector] = tuple(box)
    return found


def moved(before: dict, after: dict) -> dict:
    return {
        key: (before[key], after[key])
        for key in before
        if any(abs(a - b) > 1 for a, b in zip(before[key], after[key], strict=True))
    }


# The tap rows under the five of hearts, and the Save button, while its error comes and goes.
BELOW_HEARTS = [
    "#f-three_spades label >> nth=0",
    "#f-three_spades label >> nth=1",
    "details.more >> nth=-1",
    "#action-bar button.save",
]


@pytest.mark.parametrize("size", [None, SMALL], ids=["390x844", "360x740"])
def test_an_error_from_the_live_preview_does_not_move_the_rows_under_the_finger(
    page, live_server, club, players, alice, size
) -> None:
    sheet_at(page, live_server, club, alice, size)
    # Ann bids 8 and her side takes no trick: the five of hearts cannot be hers.
    page.locator("#f-bidder label", has_text="Ann").click()
    page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
    page.locator("#f-tricks label", has_text=re.compile(r"^0$")).click()
    page.wait_for_selector("#preview .hint")
    before = boxes(page, BELOW_HEARTS)
    page.locator("#f-five_hearts label").nth(0).click()
    page.wait_for_selector("#err-five_hearts:not(:empty)")
    # Its words in the bar's live preview, on screen; its field outlined in red where it is.
    said = page.locator("#preview .live-refusal")
    assert "who took no trick" in said.inner_text() and on_screen(said)
    assert "who took no trick" in page.locator("#err-five_hearts").text_content()
    outline = "(el) => getComputedStyle(el).outlineStyle"
    assert page.locator("#f-five_hearts").evaluate(outline) == "solid"
    assert page.locator("#f-three_spades").evaluate(outline) == "none"
    shown = boxes(page, BELOW_HEARTS)
    screenshot(page, f"live-error-{page.viewport_size['width']}")
    assert_accessible(page, "a hand refused by the live preview")
    assert not moved(before, shown), moved(before, shown)
    # Her side took 4 tricks after all: the error clears, and nothing moves either.
    page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
    page.wait_for_function("() => !document.getElementById('err-five_hearts').textContent.trim()")
    assert page.locator("#preview .live-refusal").count() == 0
    assert page.locator("#f-five_hearts").evaluate(outline) == "none"
    cleared = boxes(page, BELOW_HEARTS)
    assert not moved(before, cleared), moved(before, cleared)
    # The tap lands where the finger aims: the three of spades goes to Cat & Dan.
    page.locator("#f-three_spades label").nth(1).click()
    assert page.locator("#f-three_spades input[value='1']").is_checked()
