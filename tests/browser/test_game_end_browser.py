"""The end of a game in a browser, on a phone (390 x 844) and at 1280 x 800, in English and
French: the last hand saved shows the summary on screen; the share link is made and copyable,
and opens the public record for a browser with no account; "new game, same seats" is two taps
from the finished sheet to the new game, prefilled with the deal moved on. axe-core finds
nothing on the summary and on the public record."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from scorecards.models import Game
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in, tap_hand
from tests.leagues_helpers import GAME_1, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def almost_over():
    """GAME_1 of tests.leagues_helpers but its last hand: Ann & Bob at 51, Cat & Dan at 4."""
    alice = get_user_model().objects.create_user("alice", password="kaiser-end-52")
    club = Club.objects.create(name="Club Kaiser de Ponteix", slug="ponteix")
    Membership.objects.create(club=club, user=alice, role=Role.OWNER)
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    ann, cat, bob, dan = (
        Player.objects.create(club=club, name=n) for n in ("Ann", "Cat", "Bob", "Dan")
    )
    game = play(club, season, [ann, cat, bob, dan], GAME_1[:-1])
    Game.objects.filter(pk=game.pk).update(created_by=alice)
    return alice, club, game


@pytest.mark.parametrize(
    ("viewport", "locale"),
    [
        ({"width": 390, "height": 844}, "en-CA"),
        ({"width": 1280, "height": 800}, "en-CA"),
        ({"width": 390, "height": 844}, "fr-CA"),
        ({"width": 1280, "height": 800}, "fr-CA"),
    ],
    ids=["phone-en", "wide-en", "phone-fr", "wide-fr"],
)
def test_finish_share_and_play_again(browser, live_server, almost_over, viewport, locale):
    alice, _club, game = almost_over
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    name = f"game-end-{viewport['width']}-{locale}"
    try:
        signed_in(page, live_server, alice)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        # The last hand: Ann bids 8 and takes 7 tricks with the five of hearts: 63 to 2.
        tap_hand(page, bidder="Ann", bid=8, tricks=7, hearts=0, spades=1)
        save_and_wait(page, 9)
        summary = page.locator("#game-end")
        summary.wait_for()
        summary.scroll_into_view_if_needed()
        assert summary.is_visible()
        box = summary.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        assert "63 – 2" in page.locator(".game-end-result").inner_text()
        rows = page.locator(".game-end-sides tbody tr")
        assert rows.count() == 2
        # Made / set by side, as counted in tests/test_game_end.py.
        assert rows.nth(0).locator("td").all_inner_texts() == ["63", "6", "1"]
        assert rows.nth(1).locator("td").all_inner_texts() == ["2", "1", "0"]
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert_accessible(page, f"the summary ({locale}, {viewport['width']})")
        screenshot(page, name)

        # Share: one tap, then the link is there to copy (selected whole on a tap).
        page.locator("#game-end button[value=share]").click()
        share = page.locator("#share-url")
        share.wait_for()
        link = share.input_value()
        assert link.startswith(f"{live_server.url}/s/")
        assert share.get_attribute("readonly") is not None
        share.scroll_into_view_if_needed()
        share.click()
        share.select_text()
        selected = page.evaluate(
            "() => { const i = document.getElementById('share-url');"
            " return i.value.substring(i.selectionStart, i.selectionEnd); }"
        )
        assert selected == link

        # The public record, for a browser with no account.
        stranger = browser.new_context(viewport=viewport, locale=locale)
        public = stranger.new_page()
        try:
            response = public.goto(link)
            assert response is not None and response.status == 200
            assert public.locator("form").count() == 0
            assert "63 – 2" in public.locator(".game-end-result").inner_text()
            assert public.locator("table.sheet tbody tr").count() == 9
            assert public.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert_accessible(public, f"the public record ({locale}, {viewport['width']})")
            screenshot(public, f"{name}-public")
        finally:
            stranger.close()

        # New game, same seats: tap 1 opens the form filled in, tap 2 starts it.
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.locator("#game-end a.button").click()
        page.wait_for_selector("#game-form")
        seats = [page.input_value(f"#id_seat_{seat}") for seat in range(4)]
        assert seats == ["Ann", "Cat", "Bob", "Dan"]
        assert page.input_value("#id_first_dealer") == "1"
        page.locator("button[name=start]").last.click()
        page.wait_for_selector("#hand-form")
        new = Game.objects.exclude(pk=game.pk).get()
        assert new.first_dealer == 1 and new.season_id == game.season_id
        assert [s.player_id for s in new.seats.order_by("seat")] == [
            s.player_id for s in game.seats.order_by("seat")
        ]
    finally:
        context.close()
