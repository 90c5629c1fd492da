"""The sheet's small answers in a real browser: a saved hand brings its row (the rows before it
stay the same nodes), a blank form for the next hand with the auction in the new dealer's order,
and another phone's poll adds the rows it lacks, or draws the whole sheet after a correction."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scorecards.models import Hand
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_correct, hand_record
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signed_in(context, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def tap_and_save(page, number: int) -> None:
    page.locator("#f-bidder label", has_text="Ann").click()
    page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
    page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
    page.locator("#f-five_hearts label").nth(1).click()
    page.locator("#f-three_spades label").nth(0).click()
    page.click("#action-bar button.save")
    page.wait_for_selector(f"#hand-{number}")
    page.wait_for_selector(f"#hand-form input[name=number][value='{number + 1}']", state="attached")
    # The page blanks the taps and turns the auction's seats once the answer has settled, in one
    # step after the swap: read the form after it (on a loaded machine it came later).
    page.wait_for_function("() => !document.querySelector('#hand-form input[name=bidder]:checked')")


def mark_rows(page) -> None:
    """Tag the rows on screen: a tag that survives shows the row was not drawn again."""
    page.evaluate(
        "() => document.querySelectorAll('#sheet-rows tr').forEach(r => r.dataset.kept = '1')"
    )


def kept(page) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#sheet-rows tr[data-kept]')].map(r => r.id)"
    )


def test_a_saved_hand_adds_its_row_and_blanks_the_form(
    page, live_server, club, players, standard_rules, alice
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    signed_in(page.context, live_server, alice)
    sizes: list[int] = []
    page.on(
        "response",
        lambda r: sizes.append(len(r.body())) if r.url.endswith("/hands/") else None,
    )
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#no-hands").count() == 1
    tap_and_save(page, 1)
    assert page.locator("#no-hands").count() == 0
    mark_rows(page)
    radios = "#hand-form input[type=radio]:checked"
    checked = page.evaluate(f"() => Array.from(document.querySelectorAll('{radios}'), i => i.name)")
    assert checked == ["kind"]
    order = [t.strip() for t in page.locator("#auction-seats label").all_text_contents()]
    assert order == ["Bob", "Dan", "Ann", "Cat"]  # Cat deals hand 2: from her left
    tap_and_save(page, 2)
    assert kept(page) == ["hand-1"]
    assert [t.strip() for t in page.locator("#auction-seats label").all_text_contents()] == [
        "Dan",
        "Ann",
        "Cat",
        "Bob",
    ]
    assert "Hand 3" in page.inner_text("#entry-title")
    totals = page.inner_text("#entry .totals")
    assert page.inner_text("#hand-2 td:last-child b") in totals
    assert page.locator("svg.chart path.side").count() == 2
    assert all(size < 3 * 1024 for size in sizes[1:]), sizes
    assert Hand.objects.filter(game=game).count() == 2 and not errors


def test_another_phone_gets_the_new_rows_then_the_whole_sheet(
    browser, live_server, club, players, standard_rules, alice
) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    hand_record(
        game=game, hand=HandInput(bidder=0, bid=7, tricks=(4, 4), five_hearts=1, three_spades=0)
    )
    context = browser.new_context(viewport=PHONE)
    signed_in(context, live_server, alice)
    other = context.new_page()
    other.goto(f"{live_server.url}/games/{game.pk}/")
    mark_rows(other)
    other.locator("#f-bidder label", has_text="Bob").click()  # a tap in progress
    hand_record(
        game=game, hand=HandInput(bidder=1, bid=7, tricks=(4, 4), five_hearts=1, three_spades=0)
    )
    other.wait_for_selector("#hand-2", timeout=15_000)
    other.wait_for_selector("#hand-form input[name=number][value='3']", state="attached")
    assert kept(other) == ["hand-1"]
    # The tap was for a hand another phone entered first: the form is fresh.
    assert not other.locator("#f-bidder input:checked").count()
    mark_rows(other)
    game.refresh_from_db()
    hand_correct(game=game, number=1, hand=HandInput(thrown_in=True), by=alice)
    other.wait_for_selector("#hand-1 .badge.corrected", timeout=15_000)
    assert kept(other) == []
    context.close()
