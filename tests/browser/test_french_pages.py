"""Every table page of a club and of a tournament night, and the projector, read in French in a
real browser: no English string left and no decimal point in a number. The projector's type is
large enough to read across a hall (32 px at least on a 1920 x 1080 screen)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from leagues.clubs.models import Player
from leagues.demo import demo_club_create, demo_night_create
from leagues.standings import rebuild as services
from scorecards.rules import PRESETS
from tests.browser.conftest import screenshot
from tests.browser.test_table_sheet_browser import signed_in
from tests.test_translations import PO, po_entries

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
# A number written with a decimal point: "6.8", "30.45" (not a date, not "kaiser-game/1").
DECIMAL_POINT = re.compile(r"(?<![\w.\-/])\d+\.\d+(?![\w.\-/])")


def english_phrases() -> list[re.Pattern[str]]:
    """The English of every catalogue entry whose French differs, as whole-word patterns of
    its text between placeholders; minus what French text itself contains (names of calls such
    as "pass" or "no" are the same in both)."""
    entries = po_entries(PO)
    french = " ".join(t for e in entries for t in e["msgstr"])  # type: ignore[union-attr]
    phrases = set()
    for entry in entries:
        msgids = [str(entry["msgid"]), str(entry.get("msgid_plural", ""))]
        if entry["msgstr"] == msgids[:1]:
            continue
        for msgid in msgids:
            for piece in re.split(r"%\(\w+\)s|__N__|<[^>]+>|[():;,.!?·\\\"]", msgid):
                piece = piece.strip()
                if len(piece) < 4 or not re.search(r"[a-z]", piece):
                    continue
                if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", french):
                    continue
                phrases.add(piece)
    return [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)") for p in sorted(phrases)]


def check_french(page, url: str, patterns) -> None:
    page.goto(url)
    # Text marked as another language (the "English" switch) is meant to be there.
    text = page.evaluate(
        """() => { const body = document.body.cloneNode(true);
            body.querySelectorAll('[lang]:not([lang=fr])').forEach(e => e.remove());
            document.documentElement.appendChild(body); const text = body.innerText;
            body.remove(); return text; }"""
    )
    # Rule presets are still shown by their ids ("bid-out-47") until the rules get their human
    # names; the ids are not English prose.
    for preset in sorted(PRESETS, key=len, reverse=True):
        text = text.replace(preset, "")
    english = sorted({p.pattern for p in patterns if p.search(text)})
    assert english == [], (url, english)
    assert DECIMAL_POINT.findall(text) == [], (url, DECIMAL_POINT.findall(text))


def test_every_table_page_and_the_projector_read_in_french(browser, live_server) -> None:
    club, _created = demo_club_create()
    season = club.seasons.get()
    services.standings_rebuild(season_id=season.pk)
    services.ratings_rebuild(club_id=club.pk)
    # Drawn by a French-speaking director: the tables' labels are stored in the director's words.
    with translation.override("fr"):
        night = demo_night_create(club=club)
    owner = club.memberships.get().user
    context = browser.new_context(viewport=PROJECTOR, locale="fr-CA")
    page = context.new_page()
    page.set_default_timeout(10_000)
    signed_in(page, live_server, owner)
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    patterns = english_phrases()
    assert len(patterns) > 100  # the check has teeth

    base = live_server.url
    player = Player.objects.get(club=club, name="Élise")
    urls = [
        reverse("club_detail", args=[club.slug]),
        reverse("standings", args=[club.slug]),
        reverse("standings_partnerships", args=[club.slug]),
        reverse("ratings", args=[club.slug]),
        reverse("club_players", args=[club.slug]),
        reverse("club_seasons", args=[club.slug]),
        reverse("player_detail", args=[club.slug, player.pk]),
        reverse("tournament_list", args=[club.slug]),
        reverse("tournament_detail", args=[night.pk]),
        reverse("tournament_standings", args=[night.pk]),
        reverse("tournament_console", args=[night.pk]),
        reverse("tournament_cards", args=[night.pk, 2]),
        reverse("tournament_projector", args=[night.pk]) + "?show=seating",
        reverse("tournament_projector", args=[night.pk]) + "?show=standings",
    ]
    for url in urls:
        check_french(page, base + url, patterns)
    # The ratings really have decimals, written the French way.
    page.goto(base + reverse("ratings", args=[club.slug]))
    assert re.search(r"\d,\d", page.locator("table").inner_text())

    # The projector: nothing under 32 px, no site header, the seating then the standings.
    for show in ("seating", "standings"):
        page.goto(f"{base}{reverse('tournament_projector', args=[night.pk])}?show={show}")
        assert page.locator(".topbar").count() == 0
        smallest = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('#board *')]
                .filter(e => e.childNodes.length && [...e.childNodes].some(
                    n => n.nodeType === 3 && n.textContent.trim()))
                .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
        )
        assert smallest >= 32, (show, smallest)
        # Everything fits the screen: the room cannot scroll.
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert height <= PROJECTOR["height"] and width <= PROJECTOR["width"], (show, height, width)
        screenshot(page, f"projector-{show}-fr")
    # It moves on by itself (htmx polling): seating, then standings.
    page.goto(f"{base}{reverse('tournament_projector', args=[night.pk])}?show=seating")
    page.wait_for_selector("#board.show-standings", timeout=25_000)
    context.close()
