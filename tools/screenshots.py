"""Screenshots for docs/screenshots/ (`make screenshots`): the tournament night's projector and
table cards, at projector size (1920 x 1080) and phone size (390 x 844), in English and French.

It builds the demo club and a night in full swing in a throw-away SQLite database, serves it
with `runserver` on a free port, and drives Debian's Chromium with Playwright (never
`playwright install`). Each group of screenshots is one function taking a `Shots` (browser,
address, signed-in cookies, the night); add a group by appending a function to `GROUPS`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@dataclass
class Shots:
    """What a group of screenshots needs: the browser, the server's address, the session
    cookie of the demo club's owner, and the objects to show."""

    browser: Any
    base: str
    session: str
    night: Any
    club: Any

    def page(self, viewport: dict[str, int], language: str = "en"):
        context = self.browser.new_context(viewport=viewport, locale=f"{language}-CA")
        context.add_cookies(
            [
                {"name": "sessionid", "value": self.session, "url": self.base},
                {"name": "django_language", "value": language, "url": self.base},
            ]
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    def save(self, page, name: str, *, full_page: bool = True) -> None:
        path = OUT / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        print(f"  {path.relative_to(ROOT)}")


def projector_screenshots(shots: Shots) -> None:
    """The projector's two panels (the round's seating, the standings), full screen on the hall's
    projector and, for the record, on a phone; in English and in French."""
    url = f"{shots.base}/tournaments/{shots.night.pk}/projector/"
    for language in ("en", "fr"):
        for size, viewport in (("1920x1080", PROJECTOR), ("390x844", PHONE)):
            page = shots.page(viewport, language)
            for show in ("seating", "standings"):
                page.goto(f"{url}?show={show}")
                page.wait_for_selector(f"#board.show-{show}")
                shots.save(page, f"projector-{show}-{language}-{size}", full_page=viewport is PHONE)
            page.context.close()


def table_card_screenshots(shots: Shots) -> None:
    """The round's table cards (seats, partners, who deals first, the table link's QR code), on
    a large screen and on a phone, as the director sees them before printing."""
    url = f"{shots.base}/tournaments/{shots.night.pk}/rounds/2/cards/"
    for language in ("en", "fr"):
        for size, viewport in (("1920x1080", PROJECTOR), ("390x844", PHONE)):
            page = shots.page(viewport, language)
            page.goto(url)
            page.wait_for_selector(".table-card .dealer")
            shots.save(page, f"table-cards-{language}-{size}")
            page.context.close()


def console_screenshots(shots: Shots) -> None:
    """The director's console mid-round: its one big button is the next thing to do."""
    page = shots.page(PHONE)
    page.goto(f"{shots.base}/tournaments/{shots.night.pk}/console/")
    page.wait_for_selector("#next-action")
    shots.save(page, "console-mid-round-en-390x844")
    page.context.close()


def _tap_hand(page, bidder: str, hearts: int, spades: int, *, preview: bool = True) -> None:
    """Bidder, bid 8, 4 tricks, the two cards: the taps of a typical hand."""
    import re

    page.locator("#f-bidder label", has_text=bidder).click()
    page.locator("#f-bid label", has_text=re.compile(r"^8$")).click()
    page.locator("#f-tricks label", has_text=re.compile(r"^4$")).click()
    page.locator("#f-five_hearts label").nth(hearts).click()
    page.locator("#f-three_spades label").nth(spades).click()
    if preview:  # the live preview asks the server: not offline
        page.wait_for_selector("#preview .preview-head")


def _refuse_once(page, status: int, body: str) -> None:
    """The next hand sent is answered `status` with `body`, as the server would refuse it."""
    state = {"left": 1}

    def answer(route) -> None:
        if state["left"] and route.request.method == "POST":
            state["left"] = 0
            route.fulfill(status=status, body=body, content_type="application/json")
        else:
            route.continue_()

    page.route("**/hands/", answer)


def sheet_screenshots(shots: Shots) -> None:
    """The phone score sheet, one screen a hand: the tap rows and the action bar with its live
    preview, and the bar with each kind of message (saved, waiting to send, sent, refused,
    conflict), in English and French, at 390x844 (what the phone shows, not the whole page)."""
    for language in ("en", "fr"):
        page = shots.page(PHONE, language)
        page.goto(f"{shots.base}/clubs/{shots.club.slug}/games/new")
        for seat, name in enumerate(("Ann", "Cat", "Bob", "Dan")):
            page.fill(f"#id_seat_{seat}", name)
        page.locator("button[name=start]").last.click()
        page.wait_for_selector("#hand-form")
        shots.save(page, f"sheet-empty-{language}-390x844", full_page=False)
        _tap_hand(page, "Ann", 1, 0)
        shots.save(page, f"sheet-preview-{language}-390x844", full_page=False)
        page.click("#action-bar button.save")
        page.wait_for_selector("#bar-msg .sent")
        shots.save(page, f"sheet-message-saved-{language}-390x844", full_page=False)
        page.context.set_offline(True)
        _tap_hand(page, "Cat", 0, 1, preview=False)
        page.click("#action-bar button.save")
        page.wait_for_selector("#bar-msg .waiting")
        shots.save(page, f"sheet-message-waiting-{language}-390x844", full_page=False)
        page.context.set_offline(False)
        page.wait_for_selector("#bar-msg .sent", timeout=20_000)
        page.wait_for_selector("#hand-form .totals:not([hidden])")  # the sheet caught up
        shots.save(page, f"sheet-message-sent-{language}-390x844", full_page=False)
        # (A 403 or 500 would do, but runserver's debug mode swaps those for its error page.)
        _refuse_once(
            page, 422, '{"status": "invalid", "errors": {"bid": ["8 is below the bid-out."]}}'
        )
        _tap_hand(page, "Bob", 1, 0)
        page.click("#action-bar button.save")
        page.wait_for_selector("#bar-msg .refused")
        shots.save(page, f"sheet-message-refused-{language}-390x844", full_page=False)
        page.click("#bar-msg button[data-act=dismiss]")
        page.unroute("**/hands/")
        _refuse_once(
            page,
            409,
            '{"status": "conflict", "hand": {"number": 3, "entered_by": "Cat"}}',
        )
        page.click("#action-bar button.save")
        page.wait_for_selector("#bar-msg .refused")
        shots.save(page, f"sheet-message-conflict-{language}-390x844", full_page=False)
        page.context.close()


GROUPS: list[Callable[[Shots], None]] = [
    projector_screenshots,
    table_card_screenshots,
    console_screenshots,
    sheet_screenshots,
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _build(database: Path) -> tuple[Any, Any, str]:
    """Migrate a fresh database, build the demo club and a night; the owner's session key."""
    os.environ["SQLITE_PATH"] = str(database)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client
    from django.utils import translation

    from leagues.demo import demo_club_create, demo_night_create
    from leagues.standings import rebuild as services

    call_command("migrate", verbosity=0)
    club, _created = demo_club_create()
    for season in club.seasons.all():
        services.standings_rebuild(season_id=season.pk)
    services.ratings_rebuild(club_id=club.pk)
    # Drawn by a French-speaking director (the tables' labels are stored in their words).
    with translation.override("fr"):
        night = demo_night_create(club=club)
    client = Client()
    client.force_login(club.memberships.get(role="owner").user)
    return club, night, client.cookies["sessionid"].value


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "screenshots.sqlite3"
        club, night, session = _build(database)
        port = _free_port()
        env = os.environ | {"SQLITE_PATH": str(database), "DJANGO_DEBUG": "true"}
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_for(f"{base}/healthz")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                shots = Shots(browser=browser, base=base, session=session, night=night, club=club)
                for group in GROUPS:
                    print(group.__name__)
                    group(shots)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
