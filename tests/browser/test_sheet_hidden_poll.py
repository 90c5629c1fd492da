"""A sheet whose page is hidden (another app open, the phone locked) stops polling, and asks
at once when it is shown again."""

from __future__ import annotations

import pytest

from tests.browser.test_table_sheet_browser import signed_in, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDE = """hidden => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_sheet_skips_its_polls_and_asks_when_shown(page, live_server, club, alice) -> None:
    signed_in(page, live_server, alice)
    start_game(page, live_server, club)
    polls: list[str] = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/poll" in request.url else None
    )
    page.wait_for_timeout(4_500)
    assert polls, "a shown sheet polls every 4 s"
    page.evaluate(HIDE, True)
    page.wait_for_timeout(300)
    polls.clear()
    page.wait_for_timeout(8_500)
    assert polls == []
    page.evaluate(HIDE, False)
    page.wait_for_timeout(1_000)
    assert len(polls) == 1
