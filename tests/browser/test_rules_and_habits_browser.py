"""Rules chosen in words and table habits on a 390x844 phone: a Lost Heir game started from the
rules form (a sold hand, a taken-over hand, a card cancelled by a blank), and a season set to
standard with cover-three and minimum bid 6, whose game records a misdeal's reason, a card pass
and a pot, and exports them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leagues.clubs.models import Season
from scorecards.models import Game
from tests.browser.conftest import screenshot
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, *, bidder: str, bid: int, tricks: int, hearts, spades, sold: str = "") -> None:
    """Tap a hand in; `hearts`/`spades` is a side's position, or the text of another choice."""
    if sold:
        page.locator("#f-sold label", has_text=sold).click()
    page.locator("#f-bidder label", has_text=bidder).click()
    page.locator("#f-bid label", has_text=re.compile(rf"^{bid}$")).click()
    page.locator("#f-tricks label", has_text=re.compile(rf"^{tricks}$")).click()
    for card, value in (("five_hearts", hearts), ("three_spades", spades)):
        labels = page.locator(f"#f-{card} label")
        if isinstance(value, int):
            labels.nth(value).click()
        else:
            labels.filter(has_text=value).click()


def totals(page) -> list[str]:
    return [b.inner_text() for b in page.locator("#entry .totals b").all()]


def test_a_lost_heir_game_from_the_rules_form(page, live_server, club, players, alice) -> None:
    signed_in(page, live_server, alice)
    page.goto(f"{live_server.url}/clubs/{club.slug}/games/new")
    page.select_option("#id_preset", "lost-heir")
    page.wait_for_selector("#preset-description:has-text('McLoughlin')")
    for seat, name in enumerate(("Ann", "Cat", "Bob", "Dan")):
        page.fill(f"#id_seat_{seat}", name)
    page.select_option("#id_first_dealer", "3")
    page.locator("button[name=start]").last.click()
    page.wait_for_selector("#hand-form")
    game = Game.objects.get()
    assert game.rules["preset"] == "lost-heir"
    assert page.locator("#f-five_hearts legend").inner_text().startswith("The Lost Heir taken by")
    assert page.locator("#f-three_spades legend").inner_text().startswith("The Wrong Boy")
    # Dan deals and accepts Ann's 5: 11 for Ann & Bob; Cat & Dan 2 - 3 + 5 sold = 4.
    tap(page, sold="accepted", bidder="Ann", bid=5, tricks=6, hearts=0, spades=1)
    save_and_wait(page, 1)
    assert totals(page) == ["11", "4"]
    # Ann deals and takes Cat's 6 over; her side takes 3 tricks and the Wrong Boy: set, 0.
    tap(page, sold="took it over", bidder="Cat", bid=6, tricks=3, hearts=1, spades=0)
    save_and_wait(page, 2)
    assert totals(page) == ["11", "14"]
    # Cat deals and accepts Bob's 4; a blank cancels the Lost Heir.
    tap(
        page,
        sold="accepted",
        bidder="Bob",
        bid=4,
        tricks=4,
        hearts="cancelled by a blank",
        spades=1,
    )
    save_and_wait(page, 3)
    assert totals(page) == ["15", "19"]
    screenshot(page, "lost-heir-sheet")
    game.refresh_from_db()
    assert game.scores == [15, 19]


def test_a_season_in_words_then_a_game_with_habits_and_a_pot(
    page, live_server, club, players, alice
) -> None:
    signed_in(page, live_server, alice)
    page.goto(f"{live_server.url}/clubs/{club.slug}/seasons/")
    page.fill("#id_name", "Winter")
    page.fill("#id_starts_on", "2020-01-01")
    page.locator("details.rules-settings summary").click()
    page.select_option("#id_cover_three", "on")
    page.fill("#id_min_bid", "6")
    screenshot(page, "season-rules-form")
    page.get_by_role("button", name="Create the season").click()
    page.wait_for_selector("text=Standard · Minimum bid: 6 · Cover the three: on")
    assert Season.objects.get().rules == {"preset": "standard", "min_bid": 6, "cover_three": True}

    page.goto(f"{live_server.url}/clubs/{club.slug}/games/new")
    assert page.locator("#id_min_bid").input_value() == "6"
    for seat, name in enumerate(("Ann", "Cat", "Bob", "Dan")):
        page.fill(f"#id_seat_{seat}", name)
    page.locator("details.game-habits summary").click()
    page.fill("#id_passing", "3-2-1")
    page.fill("#id_pot_per_set", "1.50")
    page.locator("button[name=start]").last.click()
    page.wait_for_selector("#hand-form")
    game = Game.objects.get()
    assert (game.rules["min_bid"], game.rules["cover_three"]) == (6, True)

    page.locator("#hand-habits summary").click()
    page.select_option("#id_misdeal", "four-tens")
    page.once("dialog", lambda dialog: dialog.accept())  # the misdeal asks first
    page.click("button[name=thrown_in]")
    page.wait_for_selector("#hand-1.thrown")
    page.wait_for_selector("#hand-form input[name=number][value='2']", state="attached")
    page.locator("#hand-habits summary").click()
    page.fill("#id_passing", "across")
    # Ann bids 6 and her side takes 2 tricks: set, 1.50 in the pot.
    tap(page, bidder="Ann", bid=6, tricks=2, hearts=1, spades=0)
    save_and_wait(page, 2)
    pot = page.inner_text("#pot")
    assert "Pot: 1.50" in pot and "fed by Ann 1.50" in pot
    assert page.locator("#pot").is_visible()
    screenshot(page, "sheet-pot")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the game record (.json)").click()
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["rules"] == {"preset": "standard", "min_bid": 6, "cover_three": True}
    assert (record["passing"], record["pot"]) == ("3-2-1", {"per_set": 150})
    assert record["hands"][0] == {"thrown_in": True, "misdeal": "four-tens"}
    assert record["hands"][1]["passing"] == "across"
