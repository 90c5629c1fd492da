"""axe-core finds nothing to fix on every page a phone or the projector uses, in English and in
French: home, login, club, new game, the score sheet mid-game and finished, its history page and
its print view, a night's table page, standings, the night, the director's console and the
projector."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.demo import demo_club_create, demo_night_create
from leagues.standings import rebuild as services
from scorecards.models import Game
from tests.browser.axe import axe_report, axe_violations
from tests.browser.conftest import PHONE
from tests.browser.test_table_sheet_browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_phone_and_projector_page_has_no_axe_violation(browser, live_server, language):
    club, _created = demo_club_create()
    season = club.seasons.get()
    services.standings_rebuild(season_id=season.pk)
    with translation.override(language):
        night = demo_night_create(club=club)
    owner = club.memberships.get().user
    games = Game.objects.filter(club=club, tournament_table__isnull=True)
    finished = games.filter(status="finished").order_by("pk").first()
    playing = games.filter(status="in_progress").order_by("pk").first()
    assert finished is not None and playing is not None
    table = night.round_set.order_by("number").last().tables.order_by("pk").last()

    context = browser.new_context(viewport=PHONE, locale=f"{language}-CA")
    page = context.new_page()
    page.set_default_timeout(10_000)
    base = live_server.url
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    # Signed out: the login page.
    pages = [("login", reverse("login"))]
    found: dict[str, str] = {}
    for what, url in pages:
        page.goto(base + url)
        violations = axe_violations(page)
        if violations:
            found[what] = axe_report(violations)
    signed_in(page, live_server, owner)
    pages = [
        ("home", reverse("home")),
        ("club", reverse("club_detail", args=[club.slug])),
        ("new game", reverse("club_game_new", args=[club.slug])),
        ("sheet mid-game", reverse("game_sheet", args=[playing.pk])),
        ("sheet finished", reverse("game_sheet", args=[finished.pk])),
        ("hands of a game", reverse("game_history", args=[playing.pk])),
        ("print view", reverse("game_print", args=[finished.pk])),
        ("table page", reverse("tournament_table", args=[night.pk, table.pk])),
        ("standings", reverse("standings", args=[club.slug])),
        ("night", reverse("tournament_detail", args=[night.pk])),
        ("console", reverse("tournament_console", args=[night.pk])),
    ]
    for what, url in pages:
        response = page.goto(base + url)
        assert response is not None and response.status == 200, (what, url)
        assert page.locator("html").get_attribute("lang") == language
        violations = axe_violations(page)
        if violations:
            found[what] = axe_report(violations)
    page.set_viewport_size(PROJECTOR)
    for show in ("seating", "standings"):
        page.goto(f"{base}{reverse('tournament_projector', args=[night.pk])}?show={show}")
        violations = axe_violations(page)
        if violations:
            found[f"projector {show}"] = axe_report(violations)
    context.close()
    assert found == {}, "\n".join(f"{what}:\n{report}" for what, report in found.items())
