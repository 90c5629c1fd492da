"""Every feature of a club's season is at most two taps from the club page for a signed-in
member, on a phone (390 x 844) and at 1280 x 800, in English and in French: the nights'
calendar, attendance, the awards and records, a player's page with each game's rating
explained, and, for the owner of a public club, the public page's link and the widget.
axe-core finds nothing to fix on any page reached. (The end of a game, two taps from the game
page, is tests/browser/test_game_end_browser.py.)"""

from __future__ import annotations

import pytest

from leagues.clubs.models import Player
from leagues.standings import rebuild
from tests.browser.axe import assert_accessible
from tests.conftest import PASSWORD
from tests.leagues_helpers import two_games
from tests.test_attendance import season  # noqa: F401 (the fixture: three club nights)

pytestmark = pytest.mark.browser

# Words a user reads, in each language (the French from the merged catalogue).
WORDS = {
    "en-CA": {"explained": "were expected to take", "game": "game ", "nights": "3 club nights"},
    "fr-CA": {"explained": "devaient prendre", "game": "partie ", "nights": "3 soirées"},
}


class Taps:
    """Counts the taps from the club page; each feature starts again from the club page."""

    def __init__(self, page, url: str) -> None:
        self.page, self.url, self.count = page, url, 0

    def start(self) -> None:
        self.page.goto(self.url)
        self.count = 0

    def tap(self, locator) -> None:
        locator.scroll_into_view_if_needed()
        locator.click()
        self.count += 1


def _signed_in(browser, live_server, viewport, locale, username):
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return context, page


@pytest.mark.parametrize("locale", ["en-CA", "fr-CA"], ids=["en", "fr"])
@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
    ids=["phone", "desktop"],
)
def test_every_season_feature_in_two_taps_from_the_club_page(
    browser,
    live_server,
    club,
    season,  # noqa: F811
    viewport,
    locale,
) -> None:
    # Two full games beside the nights' short tables, so the ratings have games to explain.
    two_games(club, season, {p.name: p for p in Player.objects.filter(club=club)})
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    club.standings_public = True
    club.embed_sites = "https://club.example.org"
    club.save(update_fields=["standings_public", "embed_sites"])
    words = WORDS[locale]
    where = f"{locale}, {viewport['width']}"
    club_url = f"{live_server.url}/clubs/{club.slug}/"
    standings = "nav.clubnav a[href$='/standings/']"

    context, page = _signed_in(browser, live_server, viewport, locale, "bob")  # a member
    try:
        taps = Taps(page, club_url)
        taps.start()
        assert_accessible(page, f"club page ({where})")

        # The nights' calendar: one tap on the club page's link answers an iCalendar file.
        link = page.locator("a[type='text/calendar']")
        assert link.is_visible()
        taps.count += 1  # the tap: a browser hands the file to the calendar, so read it here
        answer = page.request.get(link.get_attribute("href"))
        assert answer.headers["content-type"].startswith("text/calendar")
        assert answer.text().count("BEGIN:VEVENT") == 3
        calendar_taps = taps.count

        # Attendance: one tap on Standings.
        taps.start()
        taps.tap(page.locator(standings).first)
        page.wait_for_url(f"**/clubs/{club.slug}/standings/")
        attendance = page.locator("#attendance")
        attendance.scroll_into_view_if_needed()
        assert attendance.is_visible()
        assert words["nights"] in attendance.inner_text()
        attendance_taps = taps.count
        assert_accessible(page, f"standings ({where})")

        # Awards and records: Standings, then the season's awards.
        taps.start()
        taps.tap(page.locator(standings).first)
        taps.tap(page.locator("#awards-link"))
        page.wait_for_url(f"**/clubs/{club.slug}/seasons/{season.pk}/awards/")
        awards = page.locator("#awards")
        assert awards.is_visible()
        assert awards.locator("tbody tr").count() >= 1
        # An award names the game it comes from, linked to the game's sheet (this season's
        # bids are all trump: no no-trump or kaiser award names a hand here).
        where_from = awards.locator("tbody a[href*='/games/']").first
        assert where_from.inner_text().startswith(words["game"])
        awards_taps = taps.count
        assert_accessible(page, f"awards ({where})")

        # A player's page: Standings, then a name in the attendance; each game explained.
        taps.start()
        taps.tap(page.locator(standings).first)
        taps.tap(page.locator("#attendance a", has_text="Ann").first)
        page.wait_for_url(f"**/clubs/{club.slug}/players/*/")
        explained = page.locator("td.explained").first
        explained.scroll_into_view_if_needed()
        assert explained.is_visible()
        assert words["explained"] in explained.inner_text()
        assert page.locator("svg.chart").is_visible()  # the rating history
        assert page.locator("tr[class^=outcome-]").count() == 5  # three nights, two games
        assert page.locator("table.records").first.is_visible()  # partners' record
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        player_taps = taps.count
        assert_accessible(page, f"player page ({where})")
    finally:
        context.close()

    context, page = _signed_in(browser, live_server, viewport, locale, "alice")  # the owner
    try:
        taps = Taps(page, club_url)
        # The public page's link and the widget: Standings, then the widget.
        taps.start()
        taps.tap(page.locator(standings).first)
        assert page.locator("#share-page").input_value().endswith(f"?season={season.pk}")
        assert "<iframe" in page.locator("#share-widget").input_value()
        share_taps = taps.count
        taps.tap(page.locator("#widget-link"))
        page.wait_for_url(f"**/clubs/{club.slug}/seasons/{season.pk}/widget/")
        assert page.locator("tbody tr").count() == 6
        widget_taps = taps.count
        assert_accessible(page, f"widget ({where})")
    finally:
        context.close()

    assert {
        "calendar": calendar_taps,
        "attendance": attendance_taps,
        "awards": awards_taps,
        "player page": player_taps,
        "public link": share_taps,
        "widget": widget_taps,
    } == {
        "calendar": 1,
        "attendance": 1,
        "awards": 2,
        "player page": 2,
        "public link": 1,
        "widget": 2,
    }
