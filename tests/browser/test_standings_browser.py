"""The standings page on a phone (390 x 844): sorting and paging swap the table only (htmx),
the URL follows, and the same links work with JavaScript off."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.standings.models import PlayerStanding

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def standings_club(django_user_model):
    user = django_user_model.objects.create_user("sec", password="kaiser-secretary-52")
    club = Club.objects.create(name="Club Kaiser de Ponteix", slug="ponteix")
    Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    players = [Player.objects.create(club=club, name=f"Joueur {i:02}") for i in range(30)]
    PlayerStanding.objects.bulk_create(
        PlayerStanding(season=season, player=p, games=10, wins=i % 11, points_for=100 + i)
        for i, p in enumerate(players)
    )
    from django.utils import timezone

    from leagues.standings.models import StandingsSnapshot

    StandingsSnapshot.objects.create(season=season, computed_at=timezone.now(), games=150)
    return club


def log_in(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "sec")
    page.fill("input[name=password]", "kaiser-secretary-52")
    page.click("form.stack button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


@pytest.mark.browser
def test_sort_and_page_swap_the_table_only(page, live_server, standings_club):
    log_in(page, live_server)
    page.goto(f"{live_server.url}/clubs/ponteix/standings/")
    assert page.locator("#standings-table tbody tr").count() == 25
    # Mark the page: a full reload would lose the mark, an htmx swap keeps it.
    page.evaluate("document.body.dataset.kept = 'yes'")
    page.click("#standings-table th >> text=Pts for")
    page.wait_for_url("**sort=points_for**")
    first = page.locator("#standings-table tbody tr").first.locator("td").first
    assert first.inner_text() == "Joueur 00"
    assert page.evaluate("document.body.dataset.kept") == "yes"
    page.click("#standings-table .pagination >> text=2")
    page.wait_for_url("**page=2**")
    page.wait_for_function("document.querySelectorAll('#standings-table tbody tr').length === 5")
    assert page.evaluate("document.body.dataset.kept") == "yes"
    assert page.locator("p.updated").inner_text().startswith("2026 · updated")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "standings-phone.png"), full_page=True)


@pytest.mark.browser
def test_the_same_links_work_without_javascript(browser, live_server, standings_club):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live_server)
        page.goto(f"{live_server.url}/clubs/ponteix/standings/")
        page.click("#standings-table th >> text=Pts for")
        page.wait_for_url("**sort=points_for**")
        first = page.locator("#standings-table tbody tr").first.locator("td").first
        assert first.inner_text() == "Joueur 00"
        page.fill("input[name=min_games]", "11")
        page.click("form.filters button")
        page.wait_for_url("**min_games=11**")
        assert "No counted games yet." in page.locator("#standings-table").inner_text()
    finally:
        context.close()


@pytest.mark.browser
def test_player_page_draws_the_rating_chart(page, live_server, django_user_model):
    from leagues.standings import rebuild as services
    from tests.leagues_helpers import two_games

    user = django_user_model.objects.create_user("sec", password="kaiser-secretary-52")
    club = Club.objects.create(name="Club Kaiser de Ponteix", slug="ponteix")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    players = {n: Player.objects.create(club=club, name=n) for n in ("Ann", "Bob", "Cat", "Dan")}
    for _ in range(3):
        two_games(club, season, players)
    services.ratings_rebuild(club_id=club.pk)
    services.standings_rebuild(season_id=season.pk)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/clubs/ponteix/players/{players['Bob'].pk}/")
    box = page.locator("svg.chart polyline").bounding_box()
    assert box is not None and box["width"] > 200
    assert page.locator("text=6 games").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "player-phone.png"), full_page=True)
