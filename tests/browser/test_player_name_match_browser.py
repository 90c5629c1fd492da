"""On a 390x844 phone: a walk-in typed "Jerome Pelletier" at a club with "Jérôme Pelletier" is
asked about before the game starts (the question visible beside the seat), and picking the
club's player seats Jérôme; no second player is made."""

from __future__ import annotations

import pytest

from leagues.clubs.models import Player
from scorecards.models import Game, Seat
from tests.browser.conftest import screenshot
from tests.browser.test_table_sheet_browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_look_alike_name_is_asked_about_and_the_club_player_picked(
    page, live_server, club, bob
) -> None:
    jerome = Player.objects.create(club=club, name="Jérôme Pelletier")
    signed_in(page, live_server, bob)
    page.goto(f"{live_server.url}/clubs/{club.slug}/games/new")
    for seat, name in enumerate(("Jerome Pelletier", "Ann", "Bob", "Dan")):
        page.fill(f"#id_seat_{seat}", name)
    page.locator("button[name=start]").last.click()
    question = page.locator("fieldset.seat-ask")
    question.wait_for()
    assert "“Jerome Pelletier” looks like a player of the club" in question.inner_text()
    assert question.is_visible() and question.bounding_box()["width"] <= 390
    assert not Game.objects.exists()
    screenshot(page, "start-form-look-alike")
    page.locator("fieldset.seat-ask label", has_text="Jérôme Pelletier, the club's player").click()
    page.locator("button[name=start]").last.click()
    page.wait_for_selector("#hand-form")
    seat = Seat.objects.get(seat=0)
    assert seat.player == jerome and seat.name == "Jérôme Pelletier"
    assert Player.objects.filter(club=club).count() == 1
