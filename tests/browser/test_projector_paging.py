"""The projector's final standings reach the wall: on a 1920 x 1080 and a 1280 x 720 screen,
every row of an 11-player and of a 60-player night is shown on some screenful, inside the
screen; the screenfuls follow each other by themselves (JavaScript, the clock sped up) and can
be stepped by their links without JavaScript; axe-core finds nothing to fix."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse

from leagues.clubs.models import Season
from leagues.demo import plausible_hand
from leagues.tournaments.board_views import PROJECTOR_ROWS
from leagues.tournaments.services import (
    entry_register,
    entry_withdraw,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.services import RoundOver, hand_record
from tests.browser.axe import assert_accessible
from tests.browser.conftest import screenshot
from tests.browser.test_table_sheet_browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
FIRST = ["Ann", "Benoît", "Marie-Claire", "Jérôme", "Zoé", "Élise", "Gus", "Hal", "Ida", "Jo"]
LAST = ["Pelletier", "Beauchemin-Tremblay", "Ng", "Desrosiers", "Lavallée", "Okafor"]
LONG = [
    "Marie-Claire Beauchemin-Tremblay de la Vallée-du-Richelieu",
    "Jean-Baptiste Desrosiers-Lavallée de Saint-Hyacinthe-le-Confesseur",
]
SECONDS = 15  # PROJECTOR_SECONDS


def names(count: int, long: int = 2) -> list[str]:
    """Distinct names of many lengths; `long` of them need two lines on the wall."""
    found = [f"{FIRST[i % len(FIRST)]} {LAST[i // len(FIRST) % len(LAST)]}" for i in range(count)]
    found = [f"{name} {i}" if found.count(name) > 1 else name for i, name in enumerate(found)]
    for i in range(long):
        found[(3 + i * 5) % (count - 1)] = f"{LONG[i % 2]} {i}"
    return found


def night_played(club, count: int, *, long: int = 2, rounds: int = 3, finish: bool = True):
    """A night of `rounds` rounds of two hands, with a late arrival and a leaver, ended unless
    not `finish`."""
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    night = tournament_create(
        club=club,
        name="Friday night",
        date=datetime.date(2026, 11, 20),
        rounds=3,
        hands_per_round=2,
        season=season,
    )
    everyone = names(count, long)
    for name in everyone[:-1]:
        entry_register(tournament=night, player=name, checked_in=True)
    rng = random.Random(count)
    for number in range(1, rounds + 1):
        made = round_draw(tournament=night, confirm=True)
        if number == 1 and rounds > 1:
            entry_register(tournament=night, player=everyone[-1])
            entry_withdraw(entry=night.entries.order_by("pk").first())
        for table in made.tables:
            for _ in range(2):
                try:
                    hand_record(game=table.game, hand=plausible_hand(rng, table.game.rules_value))
                except RoundOver:
                    break
                table.game.refresh_from_db()
    if finish:
        tournament_finish(tournament=night)
    return night, everyone


def shown(page) -> tuple[str, str, str | None]:
    """Which screenful is on the wall: the panel asked for next, the part of this one, and how
    many screenfuls the wall has shown (None until projector.js has laid this one out)."""
    return tuple(
        page.evaluate(
            """() => { const board = document.getElementById('board');
                return [board.dataset.next, document.querySelector('[data-part]').textContent,
                        board.dataset.shown || null]; }"""
        )
    )


ROWS = "#board tbody tr", "item.cells[1].firstChild.textContent.trim()"
CARDS = "#board .projector-table", "item.querySelector('h3').textContent.trim()"


def inside(page, screen: dict, items: tuple[str, str]) -> list[str]:
    """What the wall shows of `items` (rows, or table cards: a selector and how to name one),
    each checked to lie wholly inside the screen, and nothing beyond the screen."""
    selector, label = items
    boxes = page.evaluate(
        f"""() => [...document.querySelectorAll("{selector}")]
            .filter(item => item.offsetParent !== null)
            .map(item => {{ const box = item.getBoundingClientRect();
                return [{label}, box.left, box.top, box.right, box.bottom]; }})"""
    )
    for name, left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0, (name, left, top)
        assert right <= screen["width"] and bottom <= screen["height"], (name, right, bottom)
    size = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= screen["width"] and size[1] <= screen["height"], size
    return [box[0] for box in boxes]


def no_violations(page) -> None:
    assert_accessible(page, page.url)


def wait_for_change(page, before: tuple) -> None:
    """Let the wall's clock run a panel's time, then until the next screenful is laid out."""
    page.clock.run_for(SECONDS * 1000)
    for _ in range(200):
        now = shown(page)
        if now[2] is not None and now[2] != before[2]:
            return
        page.wait_for_timeout(20)  # the request to the server runs in real time
        page.clock.run_for(50)  # htmx's swap and settle on the wall's clock
    raise AssertionError(f"the wall stayed on {before}")


def with_javascript(browser, live_server, user, url: str, screen: dict, items) -> list:
    """Watch the wall go round once by itself (its clock sped up): every screenful checked
    inside the screen and by axe-core. Returns what was shown, screenful by screenful."""
    context = browser.new_context(viewport=screen, locale="en-CA")
    page = context.new_page()
    page.set_default_timeout(10_000)
    signed_in(page, live_server, user)
    page.clock.install()
    page.goto(url)
    page.wait_for_selector("#board[data-shown]")
    first = shown(page)[:2]
    walls: list[tuple[tuple[str, str], list[str]]] = []
    while True:
        walls.append((shown(page), inside(page, screen, items)))
        no_violations(page)
        screenshot(page, f"projector-paging-{screen['height']}-{len(walls)}")
        wait_for_change(page, shown(page))
        if shown(page)[:2] == first:
            break
        assert len(walls) < 30
    context.close()
    return walls


def without_javascript(browser, live_server, user, url: str, screen: dict, items) -> list:
    """Step the wall by its links, JavaScript off: every screenful inside the screen. Returns
    the links followed and what was shown."""
    context = browser.new_context(viewport=screen, locale="en-CA", java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    signed_in(page, live_server, user)
    page.goto(url)
    links = page.locator("nav.projector-pages a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    seen = []
    for href in hrefs or [""]:
        page.goto(url.split("?")[0] + href)
        seen += inside(page, screen, items)
    context.close()
    return [hrefs, seen]


@pytest.mark.parametrize("count", [11, 60])
def test_every_row_of_the_final_standings_reaches_the_wall(
    browser, live_server, club, bob, count
) -> None:
    night, everyone = night_played(club, count)
    url = live_server.url + reverse("tournament_projector", args=[night.pk])
    for screen in SCREENS:
        walls = with_javascript(browser, live_server, bob, url, screen, ROWS)
        assert sorted(name for _wall, rows in walls for name in rows) == sorted(everyone)
        assert len(walls) == -(-count // PROJECTOR_ROWS), screen
        hrefs, seen = without_javascript(browser, live_server, bob, url, screen, ROWS)
        assert len(hrefs) == -(-count // PROJECTOR_ROWS)
        assert sorted(seen) == sorted(everyone), screen


def test_a_screenful_of_long_names_is_split_to_fit(browser, live_server, club, bob) -> None:
    # Nine names of two lines among eleven registered: ten such rows are more than the
    # screen holds.
    night, everyone = night_played(club, 12, long=9, rounds=1)
    everyone = everyone[:-1]  # the last one never arrived
    url = live_server.url + reverse("tournament_projector", args=[night.pk])
    for screen in SCREENS:
        walls = with_javascript(browser, live_server, bob, url, screen, ROWS)
        assert sorted(name for _wall, rows in walls for name in rows) == sorted(everyone)
        parts = [part for (_next, part, _count), _rows in walls]
        assert "(1/2)" in parts and "(2/2)" in parts, parts


def test_every_table_of_a_big_round_reaches_the_wall(browser, live_server, club, bob) -> None:
    # 60 players, 15 tables: the seating in four screenfuls, then the standings.
    night, _everyone = night_played(club, 61, rounds=1, finish=False)
    url = live_server.url + reverse("tournament_projector", args=[night.pk]) + "?show=seating"
    tables = [f"Table {n}" for n in range(1, 16)]
    for screen in SCREENS:
        walls = with_javascript(browser, live_server, bob, url, screen, CARDS)
        assert sorted(t for _wall, cards in walls for t in cards) == sorted(tables)
        hrefs, seen = without_javascript(browser, live_server, bob, url, screen, CARDS)
        assert sorted(seen) == sorted(tables) and len(hrefs) == 4 + 6
