"""Every control on the score sheet, its history page and a night's table page is at least 44 x
44 CSS px, at 390x844 and at 360x740: the hand links, the corrected badge, the ✓ buttons, the
seat claim, the footer links, the header's links and buttons. Measured in a real browser."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.clubs.models import Player, Season
from leagues.clubs.services import club_settings_update
from leagues.demo import demo_club_create, demo_night_create
from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, game_token_issue, hand_correct
from tests.browser.axe import axe_violations
from tests.browser.conftest import PHONE
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in, tap_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL = {"width": 360, "height": 740}
MIN = 44

# Every control a finger may tap, by its tappable box: a radio of the tap rows is its label's
# face, a link or button itself; controls hidden or visually hidden are not tapped.
SMALL_TARGETS = """(min) => {
  const seen = new Set(), small = [];
  const controls = document.querySelectorAll(
    "a[href], button, select, input:not([type=hidden]), textarea, summary");
  for (let el of controls) {
    if (el.closest(".visually-hidden, [hidden], .default-submit") || el.tabIndex < 0) continue;
    if (el.matches("input[type=radio], input[type=checkbox]") && el.closest("label")) {
      el = el.closest("label").querySelector("span") || el.closest("label");
    }
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const text = (el.innerText || el.value || el.getAttribute("aria-label") || el.tagName)
        .trim().slice(0, 30);
      small.push(`${text} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def small_targets(page) -> list[str]:
    return page.evaluate(SMALL_TARGETS, MIN)


def check_sizes(page, what: str) -> None:
    found = {}
    for size in (PHONE, SMALL):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        small = small_targets(page)
        if small:
            found[f"{what} {size['width']}x{size['height']}"] = small
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_every_control_on_the_sheet_is_44_px(browser, live_server, club, alice, bob) -> None:
    club_settings_update(
        club=club, name=club.name, standings_public=False, hands_need_confirmation=True
    )
    today = timezone.localdate()
    season = Season.objects.create(
        club=club, name="Saison 2026", starts_on=today - datetime.timedelta(days=30)
    )
    seats = [Player.objects.create(club=club, name=n) for n in ("Ann", "Cat", "Eve", "Dan")]
    seats[1].user = bob
    seats[1].save()
    rules = rules_build({"preset": "standard"})
    game = game_start(seats=seats, rules=rules, club=club, season=season, created_by=alice)
    token = game_token_issue(game=game)
    ann = browser.new_context(viewport=PHONE, locale="en-CA").new_page()
    ann.goto(f"{live_server.url}/t/{token}/")
    ann.wait_for_selector("#hand-form")
    ann.select_option("select[name=entered_as]", "0")
    for number in (1, 2):
        tap_hand(ann, bidder="Ann", bid=8, tricks=6, hearts=0, spades=1)
        save_and_wait(ann, number)
    hand_correct(
        game=game,
        number=1,
        hand=HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=1),
    )
    # Bob's phone: the ✓ buttons on his rows, the corrected badge, the header, the footer.
    page = browser.new_context(viewport=PHONE, locale="en-CA").new_page()
    signed_in(page, live_server, bob)
    page.goto(live_server.url + reverse("game_sheet", args=[game.pk]))
    page.wait_for_selector("#hand-2 form.confirm button")
    assert page.locator("#hand-1 .badge.corrected").count() == 1
    check_sizes(page, "Bob's sheet")
    # The history page offers him the same ✓, a plain form that comes back to it.
    page.goto(live_server.url + reverse("game_history", args=[game.pk]))
    page.wait_for_selector("#hand-2 form.confirm button")
    check_sizes(page, "Bob's history page")
    assert axe_violations(page) == []
    page.click("#hand-2 form.confirm button")
    page.wait_for_selector("#hand-2 .ok")
    assert page.url.endswith(reverse("game_history", args=[game.pk]) + "?page=1#hand-2")
    # A fresh phone with the table link: asked to say who holds it ("That's me").
    fresh = browser.new_context(viewport=PHONE, locale="en-CA").new_page()
    fresh.goto(f"{live_server.url}/t/{token}/")
    fresh.wait_for_selector("#hand-form")
    check_sizes(fresh, "a fresh phone's sheet")
    check_sizes(ann, "the entering phone's sheet")
    for phone in (ann, page, fresh):
        phone.context.close()


def test_every_control_on_a_table_page_is_44_px(page, live_server) -> None:
    club, _created = demo_club_create()
    night = demo_night_create(club=club)
    table = night.round_set.order_by("number").last().tables.order_by("pk").first()
    signed_in(page, live_server, club.memberships.get().user)
    page.goto(live_server.url + reverse("tournament_table", args=[night.pk, table.pk]))
    assert page.locator("#table-hands tbody tr").count() >= 1
    # Each row says who dealt and who bid first, as the score sheet's rows do.
    assert " bids 1st" in page.inner_text("#table-hands tbody tr:first-child td:nth-child(2)")
    check_sizes(page, "table page")
