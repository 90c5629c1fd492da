"""Two phones at a 4-seat table of a club that asks for confirmation (390x844 each): Ann's phone,
opened from the table link, enters every hand of a short game; Bob, signed in and seated as Cat
on the other side, taps the ✓ on each hand's row as it arrives; the season standings then count
the game. Each page is checked with axe-core."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from leagues.clubs.models import Player, Season
from leagues.clubs.services import club_settings_update
from scorecards.models import Game, Hand
from scorecards.rules import rules_build
from scorecards.services import game_start, game_token_issue
from tests.browser.axe import assert_accessible
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in, tap_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = 10_000  # the sheet polls every 4 s


def accessible(page, what: str) -> None:
    """axe-core finds nothing on the page as it stands."""
    assert_accessible(page, what)


def test_two_phones_confirm_a_whole_game_and_the_season_counts_it(
    browser, live_server, club, alice, bob
) -> None:
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    today = timezone.localdate()
    season = Season.objects.create(
        club=club, name="Saison 2026", starts_on=today - datetime.timedelta(days=30)
    )
    seats = [Player.objects.create(club=club, name=n) for n in ("Ann", "Cat", "Eve", "Dan")]
    seats[1].user = bob  # Bob plays Cat: side 1, the other side from Ann's
    seats[1].save()
    # A short game: first to 30 (Ann's side makes +11 a hand, so it ends in the third hand).
    rules = rules_build({"preset": "standard", "target": 30})
    game = game_start(seats=seats, rules=rules, club=club, season=season, created_by=alice)
    token = game_token_issue(game=game)

    ann_phone = browser.new_context(viewport=PHONE, locale="en-CA").new_page()
    bob_phone = browser.new_context(viewport=PHONE, locale="en-CA").new_page()
    for phone in (ann_phone, bob_phone):
        phone.set_default_timeout(10_000)
    try:
        ann_phone.goto(f"{live_server.url}/t/{token}/")
        ann_phone.wait_for_selector("#hand-form")
        signed_in(bob_phone, live_server, bob)
        bob_phone.goto(f"{live_server.url}{game.get_absolute_url()}")
        bob_phone.wait_for_selector("#sheet")
        # Bob is seated: the sheet knows who he is and does not ask.
        assert bob_phone.locator("#seat-claim").count() == 0

        number = 0
        while not ann_phone.locator("#game-over").count():
            number += 1
            assert number <= 5
            if number == 1:
                ann_phone.select_option("select[name=entered_as]", "0")  # "held by Ann"
            tap_hand(ann_phone, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
            save_and_wait(ann_phone, number)
            # Ann's side entered it: her phone is offered no ✓, on any row.
            assert ann_phone.locator("form.confirm").count() == 0
            assert "unconfirmed" in (ann_phone.get_attribute(f"#hand-{number}", "class") or "")
            # Bob's phone sees the hand arrive (polling) with a ✓ on its own row.
            tick = bob_phone.locator(f"#hand-{number} form.confirm button")
            tick.wait_for(timeout=POLL)
            assert tick.inner_text() == "✓ Cat"
            assert bob_phone.locator("form.confirm").count() == 1  # the earlier ones are done
            # The ✓ sits inside its hand's row, wholly on the phone's screen width.
            box = tick.bounding_box()
            row = bob_phone.locator(f"#hand-{number}").bounding_box()
            assert box is not None and row is not None
            assert row["y"] <= box["y"] and box["y"] + box["height"] <= row["y"] + row["height"]
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            if number == 1:
                accessible(bob_phone, "sheet with a ✓")
                screenshot(bob_phone, "confirm-tick-on-the-row")
            tick.click()
            bob_phone.wait_for_selector(f"#hand-{number}:not(.unconfirmed)")
            assert bob_phone.locator(f"#hand-{number} .ok").count() == 1
        assert number == 3
        accessible(ann_phone, "sheet of the entering phone")

        # Every hand confirmed, by Cat, and Ann's phone sees it (polling).
        ann_phone.wait_for_selector("#hand-3:not(.unconfirmed)", timeout=POLL)
        assert ann_phone.locator("tr.unconfirmed").count() == 0
        hands = Hand.objects.filter(game=game)
        assert hands.count() == 3 and {h.confirmed_by_name for h in hands} == {"Cat"}
        assert {h.entered_seat for h in hands} == {0}
        assert Game.objects.filter(pk=game.pk).counted().exists()
        accessible(bob_phone, "sheet with every hand confirmed")
        screenshot(bob_phone, "confirm-all-confirmed")

        # The season standings count the game (the last confirmation queued the rebuild).
        bob_phone.goto(f"{live_server.url}/clubs/{club.slug}/standings/")
        updated = bob_phone.locator("#standings-updated")
        assert "Saison 2026" in updated.inner_text()
        assert "1 game counted" in updated.inner_text()
        rows = bob_phone.locator("#standings-table tbody tr")
        assert rows.count() == 4
        assert {rows.nth(i).locator("td").first.inner_text() for i in range(4)} == {
            "Ann",
            "Cat",
            "Eve",
            "Dan",
        }
        accessible(bob_phone, "season standings")
        screenshot(bob_phone, "confirm-standings")
    finally:
        ann_phone.context.close()
        bob_phone.context.close()


def test_the_settings_page_says_what_confirmation_will_do(page, live_server, club, alice):
    signed_in(page, live_server, alice)
    page.goto(f"{live_server.url}/clubs/{club.slug}/settings/")
    text = page.inner_text("main")
    assert "Turning this on: games already finished keep counting." in text
    assert "0 games are in progress now." in text
    accessible(page, "club settings")
    page.check("input[name=hands_need_confirmation]")
    page.click("form.stack button[type=submit]")
    page.wait_for_selector("text=Club settings saved.")
    assert "Hands need confirming since" in page.inner_text("main")
    club.refresh_from_db()
    assert club.hands_need_confirmation and club.confirmation_since is not None
