"""The sheet in one screen per hand: at 390x844 every control tapped next, the action bar and any
message are on screen without scrolling; at 360x640 one scroll a hand at most. Counts taps. And
the sheet that opens with no signal: reload offline, enter two hands, back online, two rows."""

from __future__ import annotations

import re

import pytest

from scorecards.models import Game, Hand
from tests.browser.test_table_sheet_browser import signed_in, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where an element is, against the screen and the fixed action bar that covers its bottom.
GEOMETRY = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.getElementById("action-bar");
  const barTop = bar ? bar.getBoundingClientRect().top : innerHeight;
  return {top: r.top, bottom: r.bottom, barTop: barTop, height: innerHeight, scrollY: scrollY};
}"""


def above_bar(locator) -> bool:
    """On screen and not hidden behind the action bar (or in the bar itself)."""
    if locator.evaluate("(el) => Boolean(el.closest('#action-bar'))"):
        return on_screen(locator)
    g = locator.evaluate(GEOMETRY)
    return g["top"] >= 0 and g["bottom"] <= g["barTop"] + 0.5


def on_screen(locator) -> bool:
    g = locator.evaluate(GEOMETRY)
    return g["top"] >= 0 and g["bottom"] <= g["height"] + 0.5


class Taps:
    """Taps one control at a time, as a thumb would: first checks that it is on screen
    (scrolling once if allowed, and counting it), then checks the bar and any message."""

    def __init__(self, page, *, scrolls_per_hand: int) -> None:
        self.page = page
        self.allowed = scrolls_per_hand
        self.taps = 0
        self.scrolls = 0

    def new_hand(self) -> None:
        self.taps = 0
        self.scrolls = 0

    def tap(self, locator) -> None:
        if not above_bar(locator):
            self.scrolls += 1
            assert self.scrolls <= self.allowed, "one more swipe than allowed for this hand"
            locator.scroll_into_view_if_needed()
            assert above_bar(locator), "still not on screen after scrolling"
        locator.click()
        self.taps += 1
        self.bar_and_messages_on_screen()

    def bar_and_messages_on_screen(self) -> None:
        page = self.page
        if page.locator("#action-bar").count():
            assert on_screen(page.locator("#action-bar"))
            assert on_screen(page.locator("#action-bar button.save"))
        for message in page.locator("#bar-msg .msg, #game-over").all():
            assert on_screen(message), message.inner_text()


def play_hand(page, taps: Taps, number: int) -> None:
    """Bidders take turns round the table; each bids 8, takes 4 tricks and the 3 of spades, the
    other side the 5 of hearts: set each time, so twelve hands never end the game."""
    bidder = ["Ann", "Cat", "Bob", "Dan"][(number - 1) % 4]
    taps.new_hand()
    taps.tap(page.locator("#f-bidder label", has_text=bidder))
    taps.tap(page.locator("#f-bid label", has_text=re.compile(r"^8$")))
    taps.tap(page.locator("#f-tricks label", has_text=re.compile(r"^4$")))
    bidding = 0 if bidder in ("Ann", "Bob") else 1
    taps.tap(page.locator("#f-five_hearts label").nth(1 - bidding))
    taps.tap(page.locator("#f-three_spades label").nth(bidding))
    page.wait_for_selector("#preview .preview-head.set")
    assert "Set" in page.inner_text("#preview")
    taps.bar_and_messages_on_screen()
    taps.tap(page.locator("#action-bar button.save"))
    page.wait_for_selector(f"#hand-{number}.flash")
    page.wait_for_selector(f"#hand-form input[name=number][value='{number + 1}']", state="attached")
    page.wait_for_selector("#bar-msg .sent")
    # The bar says the saved hand in the server's words: "Hand 1: Ann & Bob 8 set, -8 / ...".
    assert f"Hand {number}: " in page.inner_text("#bar-msg")
    taps.bar_and_messages_on_screen()
    assert taps.taps <= 6, f"hand {number} took {taps.taps} taps"
    # Back at the top of the form: the first control of the next hand is on screen.
    assert above_bar(page.locator("#f-bidder label").first)


def play_twelve(page, live_server, club, alice, *, scrolls_per_hand: int) -> list[int]:
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    taps = Taps(page, scrolls_per_hand=scrolls_per_hand)
    positions = []
    for number in range(1, 13):
        play_hand(page, taps, number)
        positions.append(page.evaluate("scrollY"))
    assert Hand.objects.filter(game=game).count() == 12
    return positions


def test_twelve_hands_on_one_screen_390x844(page, live_server, club, players, alice) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    positions = play_twelve(page, live_server, club, alice, scrolls_per_hand=0)
    # Nothing drifts: after each save the page is at the same place.
    assert len(set(positions[1:])) == 1, positions


def test_twelve_hands_at_360x640_one_scroll_at_most(page, live_server, club, players, alice):
    page.set_viewport_size({"width": 360, "height": 640})
    positions = play_twelve(page, live_server, club, alice, scrolls_per_hand=1)
    assert len(set(positions[1:])) == 1, positions


def test_misdeal_asks_first_and_keeps_the_taps(page, live_server, club, players, alice):
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    page.locator("#f-bidder label", has_text="Ann").click()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("button.misdeal")
    page.wait_for_timeout(300)
    assert not Hand.objects.filter(game=game).exists()
    assert page.locator("#f-bidder input[value='0']").is_checked()  # the taps are still there


def test_every_refusal_says_what_to_do(page, live_server, club, players, alice) -> None:
    """A revoked table link (403 JSON with a message), an expired page (403 without one) and a
    server error (kept and tried again): each shows in the bar; nothing is retried silently."""
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    answers = [
        (403, '{"status": "revoked", "message": "This table link was revoked."}'),
        (403, "<h1>CSRF verification failed</h1>"),
        (500, "<h1>Server Error</h1>"),
    ]

    def refuse(route) -> None:
        if answers and route.request.method == "POST":
            status, body = answers.pop(0)
            route.fulfill(status=status, body=body)
        else:
            route.continue_()

    page.route("**/hands/", refuse)
    for expected in ("This table link was revoked.", "Reload the page", "error 500"):
        page.locator("#f-bidder label", has_text="Ann").click()
        page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
        page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
        page.locator("#f-five_hearts label").nth(1).click()
        page.locator("#f-three_spades label").nth(0).click()
        page.click("#action-bar button.save")
        message = page.locator("#bar-msg .msg", has_text=expected)
        message.wait_for()
        assert on_screen(message)
        if expected != "error 500":
            assert page.locator("#f-bidder input[value='0']").is_checked()  # the hand is kept
            page.locator("#bar-msg button[data-act=dismiss]").click()
    # The server error queued the hand; it goes once the server answers again.
    page.wait_for_selector("#hand-1", timeout=15000)
    assert Hand.objects.filter(game=game).count() == 1


def until(page, script: str, seconds: float = 10) -> None:
    """Poll `script` (wait_for_function would need eval, which our CSP refuses)."""
    for _ in range(int(seconds * 5)):
        if page.evaluate(script):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"never true: {script}")


def test_sheet_opens_offline_and_sends_queued_hands_once(page, live_server, club, players, alice):
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    # The service worker controls the page and holds the sheet as last seen.
    until(page, "() => navigator.serviceWorker.controller !== null")
    until(page, "() => caches.match(location.pathname).then(Boolean)")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#hand-form")
    # Really offline: anything the service worker does not keep fails.
    assert page.evaluate("() => fetch('/healthz').then(() => 'up', () => 'down')") == "down"
    assert "Hand 1" in page.inner_text("#entry-title")
    for number, (bidder, hearts, spades) in enumerate([("Ann", 1, 0), ("Cat", 0, 1)], start=1):
        page.locator("#f-bidder label", has_text=bidder).click()
        page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
        page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
        page.locator("#f-five_hearts label").nth(hearts).click()
        page.locator("#f-three_spades label").nth(spades).click()
        page.click("#action-bar button.save")
        page.wait_for_selector(f"#bar-msg .waiting:has-text('{number}')")
        assert on_screen(page.locator("#bar-msg .waiting"))
    assert "2 hands waiting to send" in page.inner_text("#bar-msg")
    assert not Hand.objects.filter(game=game).exists()
    page.context.set_offline(False)
    page.wait_for_selector("#hand-2", timeout=15_000)
    page.wait_for_selector("#bar-msg .waiting", state="detached")
    page.wait_for_timeout(6000)  # another round of the outbox: nothing is sent twice
    hands = Hand.objects.filter(game=game).order_by("number")
    assert [h.number for h in hands] == [1, 2]
    assert [h.bidder for h in hands] == [0, 1]
    assert Game.objects.get().hand_count == 2
