"""Logging out on a phone empties the service worker's cache: the next person on that phone
cannot open the sheets the last one kept for offline use."""

from __future__ import annotations

import pytest

from tests.browser.test_sheet_phone import until
from tests.browser.test_table_sheet_browser import signed_in, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_logout_clears_the_kept_sheets(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    game = start_game(page, live_server, club)
    sheet = f"/games/{game.pk}/"
    until(page, "() => navigator.serviceWorker.controller !== null")
    until(page, f"() => caches.match('{sheet}').then(Boolean)")
    page.click("header form[action='/accounts/logout/'] button")
    page.wait_for_selector("header a[href='/accounts/login/']")
    # The site's own files may be kept again at once (the home page asks for them); the sheet
    # is gone.
    until(page, f"() => caches.match('{sheet}').then((hit) => !hit)")
