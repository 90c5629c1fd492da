"""A whole small tournament (8 players, 3 rounds) run by a director from the browser, hands
entered from the tables' result slips on the director's table pages."""

from __future__ import annotations

import re

import pytest

from leagues.models import Tournament
from leagues.tournament_selectors import tournament_standings
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"]


def _enter_hand(page, bidder: int, tricks: tuple[int, int], side: int) -> None:
    page.select_option("#id_bidder", str(bidder))
    page.fill("#id_bid", "7")
    page.fill("#id_tricks_0", str(tricks[0]))
    page.fill("#id_tricks_1", str(tricks[1]))
    page.select_option("#id_five_hearts", str(side))
    page.select_option("#id_three_spades", str(side))
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector(".messages .success")


def test_director_runs_a_small_tournament(live_server, page, artifacts, club, alice) -> None:
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")

    # Set-up: 3 rounds of 2 hands each (one more on a tie).
    page.goto(f"{base}/tournaments/club/{club.slug}/")
    page.fill("#id_name", "Friday night")
    page.fill("#id_date", "2026-11-20")
    page.select_option("#id_format", "rotating")
    page.fill("#id_rounds", "3")
    page.fill("#id_hands_per_round", "2")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Draw round 1")
    tournament = Tournament.objects.get()

    # Registration: six walk-ins checked in at once, two registered and checked in later.
    for name in PLAYERS:
        page.fill("#id_name", name)
        if name not in ("Gus", "Hal"):
            page.check("#id_checked_in")
        page.click("#register button[type=submit]")
        page.wait_for_selector(f"#entries td:text-is('{name}')")
    for _ in range(2):
        page.click("#entries button.check-in >> nth=0")
        page.wait_for_timeout(300)
    page.wait_for_selector("text=8 here of 8")
    page.screenshot(path=str(artifacts / "tournament-registration.png"), full_page=True)

    for number in (1, 2, 3):
        page.goto(f"{base}{tournament.get_absolute_url()}")
        page.click("#draw")
        page.wait_for_selector(".table-card")
        assert page.locator(".table-card").count() == 2
        assert page.locator(".table-card svg.qr").count() == 2
        if number == 1:
            page.set_viewport_size({"width": 1024, "height": 1400})
            page.screenshot(path=str(artifacts / "tournament-cards.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{base}/tournaments/{tournament.pk}/console/")
        tables = page.locator("table.console tbody tr a")
        hrefs = [tables.nth(i).get_attribute("href") for i in range(tables.count())]
        assert len(hrefs) == 2
        for index, href in enumerate(hrefs):
            page.goto(f"{base}{href}")
            # Table 1: side 0 makes two bids; table 2: side 1 does.
            side = index % 2
            tricks = (7, 1) if side == 0 else (1, 7)
            _enter_hand(page, side, tricks, side)
            _enter_hand(page, side + 2, tricks, side)
            if number == 1 and index == 0:
                # The director corrects hand 2 from the slip: same service as the sheet.
                page.fill("#id_number", "2")
                _enter_hand(page, 2, (8, 0), 0)
                page.screenshot(path=str(artifacts / "tournament-table.png"), full_page=True)
        page.goto(f"{base}/tournaments/{tournament.pk}/console/")
        page.wait_for_selector("text=Every table has finished.")
        assert page.locator("tr.state-done").count() == 2
        page.screenshot(path=str(artifacts / f"tournament-console-{number}.png"), full_page=True)

    # Every round drawn: the console offers to end the night.
    page.click("#finish")
    page.wait_for_selector("text=Final standings.")
    page.screenshot(path=str(artifacts / "tournament-standings.png"), full_page=True)
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 8
    standings = tournament_standings(tournament)
    first = standings.rows[0]
    assert re.search(rf"\b{first.points}\b", rows.nth(0).inner_text())
    assert all(row.played == 3 for row in standings.rows)
    assert "then head-to-head" in page.content()

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{base}/tournaments/{tournament.pk}/projector/")
    page.wait_for_selector("#board table.standings")
    page.screenshot(path=str(artifacts / "tournament-projector.png"))
    # The page polls itself (htmx) and has no inline script.
    assert page.locator("#board[hx-trigger]").count() == 1
