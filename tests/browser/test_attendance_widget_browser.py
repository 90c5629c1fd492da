"""Attendance and the standings widget on a phone (390 x 844) and at 1280 x 800: from the club
page, one tap on Standings shows the attendance and the owner's widget link; the second opens
the widget. axe-core finds nothing to fix on the standings page or the widget."""

from __future__ import annotations

import pytest

from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.conftest import PASSWORD
from tests.test_attendance import season  # noqa: F401 (the fixture: three club nights)

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["phone", "desktop"])
def test_attendance_and_the_widget_in_two_taps_from_the_club_page(
    browser,
    live_server,
    club,
    season,  # noqa: F811
    viewport,
) -> None:
    club.standings_public = True
    club.embed_sites = "https://club.example.org"
    club.save(update_fields=["standings_public", "embed_sites"])
    season.min_nights = 2
    season.save(update_fields=["min_nights"])
    context = browser.new_context(viewport=viewport, locale="en-CA")
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "alice")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.stack button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/clubs/{club.slug}/")
        # Tap 1: the club's Standings.
        page.locator("nav.clubnav a", has_text="Standings").first.click()
        page.wait_for_url(f"**/clubs/{club.slug}/standings/")
        attendance = page.locator("#attendance")
        attendance.scroll_into_view_if_needed()
        assert attendance.is_visible()
        assert "3 club nights so far this season" in attendance.inner_text()
        assert "Ann — 3 nights, 3 games" in attendance.inner_text()
        assert page.locator("#apart-heading").inner_text() == "Not yet ranked: fewer than 2 nights"
        assert page.locator("#share-page").input_value().endswith(f"?season={season.pk}")
        assert "<iframe" in page.locator("#share-widget").input_value()
        name = "phone" if viewport["width"] < 500 else "desktop"
        screenshot(page, f"attendance-standings-{name}")
        assert_accessible(page, f"standings with attendance ({name})")
        # Tap 2: the widget.
        link = page.locator("#widget-link")
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_url(f"**/clubs/{club.slug}/seasons/{season.pk}/widget/")
        rows = page.locator("tbody tr")
        assert rows.count() == 3  # Ann, Bob and Cat: the guests wait for their second night
        assert page.locator("nav").count() == 0
        screenshot(page, f"standings-widget-{name}")
        assert_accessible(page, f"standings widget ({name})")
    finally:
        context.close()
