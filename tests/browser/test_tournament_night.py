"""A whole small tournament (8 players, 3 rounds) run by a director from the browser, every hand
tapped in on the real table score sheet by a phone at the table: a fresh browser with no account
that opens the table link printed on the table card. The director watches the console update
itself, corrects a hand from it (the score sheet's correction, same version history), and ends
the night. A second night wants every hand confirmed by the other side."""

from __future__ import annotations

import datetime
import re

import pytest

from leagues.tournaments.models import Tournament, TournamentTable
from leagues.tournaments.selectors import tournament_standings
from leagues.tournaments.services import entry_register, tournament_create
from scorecards.models import Hand, HandVersion
from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_table_sheet_browser import save_and_wait, signed_in, tap_hand
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bea", "Cal", "Dee", "Eli", "Fay", "Gus", "Hal"]
POLL = 12_000  # the console polls every 5 s: a change shows within one or two polls


def card_links(page) -> list[str]:
    """The table links as printed on the round's table cards (what the QR codes hold)."""
    links = page.locator(".table-card p.link a")
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


def phone_at_table(browser, link: str):
    """A phone at the table: a fresh browser (no account, no session) opening the table link."""
    context = browser.new_context(viewport=PHONE, locale="en-CA")
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(link)
    phone.wait_for_selector("#sheet")
    return phone


def seat_name(phone, seat: int) -> str:
    return phone.locator("#f-bidder label").nth(seat).inner_text().strip()


def seat_name_of(phone, seat: int) -> str:
    """A seat's name from the seat-claim list (a sheet whose entry form is closed)."""
    option = phone.locator(f"#seat-claim select[name=seat] option[value='{seat}']")
    return option.inner_text().strip()


def console_row(console, table: int):
    return console.locator("table.console tbody tr").nth(table - 1)


def test_director_runs_a_small_tournament(browser, live_server, page, club, alice) -> None:
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
        if name == "Ann":
            page.check("#id_checked_in")
        elif name == "Bea":
            # "Here now" stays as the director left it: no ticking it for every arrival.
            assert page.is_checked("#id_checked_in")
        elif name == "Gus":
            page.uncheck("#id_checked_in")
        page.click("#register button[type=submit]")
        page.wait_for_selector(f"#entries td:text-is('{name}')")
    for _ in range(2):
        page.click("#entries button.check-in >> nth=0")
        page.wait_for_timeout(300)
    page.wait_for_selector("text=8 here of 8")
    screenshot(page, "tournament-registration")

    # Round 1 is drawn from the tournament page, the next ones from the page.
    page.goto(f"{base}{tournament.get_absolute_url()}")
    page.click("#draw")
    for number in (1, 2, 3):
        # The draw leads to the round's printable table cards.
        page.wait_for_selector(".table-card")
        assert page.locator(".table-card").count() == 2
        assert page.locator(".table-card svg.qr").count() == 2
        links = card_links(page)
        tables = list(
            TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
            .select_related("game")
            .order_by("number")
        )
        assert [link.rsplit("/t/", 1)[1].strip("/") for link in links] == [
            t.game.table_token for t in tables
        ]
        # Each card also links the director to the table's score sheet and table page.
        assert page.locator(".table-card a.sheet-link").first.get_attribute("href") == (
            f"/games/{tables[0].game_id}/"
        )
        if number == 1:
            page.set_viewport_size({"width": 1024, "height": 1400})
            screenshot(page, "tournament-cards")
            page.set_viewport_size(PHONE)
        page.goto(f"{base}/tournaments/{tournament.pk}/console/")
        page.wait_for_selector("table.console")
        assert page.locator("tr.state-playing").count() == 2
        assert page.locator("table.console a.sheet-link").count() == 2

        for index, link in enumerate(links):
            phone = phone_at_table(browser, link)
            # Table 1: side 0 makes two bids; table 2: side 1 does.
            side = index % 2
            for hand, bidder in enumerate((side, side + 2), start=1):
                tap_hand(
                    phone,
                    bidder=seat_name(phone, bidder),
                    bid=7,
                    tricks=7,
                    hearts=side,
                    spades=side,
                )
                save_and_wait(phone, hand)
                if number == 1 and index == 0 and hand == 1:
                    screenshot(phone, "tournament-phone-sheet")
                    # The console shows the hand without being reloaded.
                    console_row(page, 1).locator("td.num", has_text="1 / 2").wait_for(timeout=POLL)
            phone.context.close()
        page.wait_for_selector("text=Every table has finished.", timeout=POLL)
        assert page.locator("tr.state-done").count() == 2
        assert Hand.objects.filter(game__tournament_table__round__number=number).count() == 4

        if number == 1:
            # The director corrects hand 2 of table 1 from the console: the table page opens the
            # score sheet's correction form, and the hand's history keeps both versions.
            page.click("table.console tbody tr:nth-child(1) a.table-page")
            page.wait_for_selector("#table-hands")
            screenshot(page, "tournament-table")
            assert page.locator("#hand-form").count() == 0  # hands are entered on the sheet
            page.click("#table-hands #hand-2 a")
            page.wait_for_selector("#correct-form")
            page.locator("#f-tricks label", has_text=re.compile(r"^8$")).click()
            page.click("#correct-form button.save")
            page.wait_for_selector("#sheet")
            game = tables[0].game
            versions = HandVersion.objects.filter(game=game, number=2)
            assert list(versions.values_list("action", flat=True)) == ["enter", "correct"]
            assert Hand.objects.get(game=game, number=2).tricks == [8, 0]
            page.click("#hand-2 a")
            assert "corrected" in page.inner_text(".versions")
            screenshot(page, "tournament-correction-history")
            page.goto(f"{base}/tournaments/{tournament.pk}/console/")
            game.refresh_from_db()
            score = console_row(page, 1).locator("td.num").nth(1).inner_text().split()
            assert score == [str(total) for total in game.scores]

        screenshot(page, f"tournament-console-{number}")
        if number < 3:
            page.click("#draw")  # the next round's cards open

    # Every round drawn: the console offers to end the night.
    page.click("#finish")
    page.wait_for_selector("text=Final standings.")
    screenshot(page, "tournament-standings")
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
    screenshot(page, "tournament-projector")
    # The page polls itself (htmx) and has no inline script.
    assert page.locator("#board[hx-trigger]").count() == 1


def test_hands_confirmed_by_the_other_side(browser, live_server, page, club, alice) -> None:
    """A night that wants every hand confirmed: the console says a table waits on confirmation
    until a phone of the other side taps confirm on the score sheet, then that it is done."""
    night = tournament_create(
        club=club,
        name="Confirmed night",
        date=datetime.date(2026, 11, 27),
        rounds=1,
        hands_per_round=1,
        extra_hand_on_tie=False,
        hands_need_confirmation=True,
    )
    for name in PLAYERS:
        entry_register(tournament=night, player=name, checked_in=True)
    assert not club.hands_need_confirmation  # the tournament asks it, not the club
    base = live_server.url
    signed_in(page, live_server, alice)
    page.goto(f"{base}{night.get_absolute_url()}")
    page.click("#draw")
    page.wait_for_selector(".table-card")
    links = card_links(page)
    assert len(links) == 2
    console = page
    console.goto(f"{base}/tournaments/{night.pk}/console/")

    for table, link in enumerate(links, start=1):
        # The bidder's phone enters the hand and says who holds it.
        bidder_phone = phone_at_table(browser, link)
        bidder = seat_name(bidder_phone, 0)
        bidder_phone.select_option("select[name=entered_as]", "0")
        tap_hand(bidder_phone, bidder=bidder, bid=7, tricks=7, hearts=0, spades=0)
        save_and_wait(bidder_phone, 1)
        bidder_phone.wait_for_selector("#hand-1.unconfirmed")
        row = console_row(console, table)
        row.locator("td", has_text="1 hand waits for confirmation").wait_for(timeout=POLL)
        assert "state-waiting" in row.get_attribute("class")
        if table == 1:
            screenshot(console, "tournament-console-waiting")

        # A player of the other side confirms on another phone at the table.
        other_phone = phone_at_table(browser, link)
        # The round is over at this table: no more hands, the sheet says so.
        assert "round over" in other_phone.inner_text("#round-place")
        assert other_phone.locator("#hand-form").count() == 0
        # Nothing to tap until the phone says which seat holds it (kept on the server).
        assert other_phone.locator("#hand-1 form.confirm button").count() == 0
        other = seat_name_of(other_phone, 1)
        other_phone.select_option("#seat-claim select[name=seat]", "1")
        other_phone.click("#seat-claim button")
        other_phone.wait_for_selector("#hand-1 form.confirm button")
        assert other_phone.locator("#hand-1 form.confirm button").count() == 1
        other_phone.click(f"#hand-1 form.confirm button:has-text('{other}')")
        other_phone.wait_for_selector("#hand-1:not(.unconfirmed)")
        if table == 1:
            screenshot(other_phone, "tournament-phone-confirmed")
        hand = Hand.objects.get(
            game__tournament_table__round__tournament=night, game__tournament_table__number=table
        )
        assert hand.entered_by_name == bidder and hand.confirmed_by_name == other
        row.locator("td", has_text="finished").wait_for(timeout=POLL)
        assert "state-done" in row.get_attribute("class")
        # The bidder's phone sees the confirmation too (the sheet polls).
        bidder_phone.wait_for_selector("#hand-1:not(.unconfirmed)", timeout=8000)
        bidder_phone.context.close()
        other_phone.context.close()

    console.wait_for_selector("text=Every table has finished.")
    screenshot(console, "tournament-console-confirmed")
    console.click("#finish")
    console.wait_for_selector("text=Final standings.")


def test_a_table_plays_its_round_to_the_end_on_the_table_link(browser, live_server, club) -> None:
    """A phone with the table link sees where its table is in the round ("Round 1 · hand 2 of
    2"), and after the last hand "round over": the entry form is gone, nothing more is taken."""
    night = tournament_create(
        club=club,
        name="Short night",
        date=datetime.date(2026, 11, 28),
        rounds=2,
        hands_per_round=2,
        extra_hand_on_tie=True,
    )
    for name in PLAYERS[:4]:
        entry_register(tournament=night, player=name, checked_in=True)
    from leagues.tournaments.services import round_draw

    game = round_draw(tournament=night).tables[0].game
    phone = phone_at_table(browser, f"{live_server.url}/t/{game.table_token}/")
    assert phone.inner_text("#round-place") == "Round 1 · hand 1 of 2"
    tap_hand(phone, bidder=seat_name(phone, 0), bid=7, tricks=7, hearts=0, spades=0)
    save_and_wait(phone, 1)
    phone.wait_for_selector("#round-place:has-text('hand 2 of 2')")
    tap_hand(phone, bidder=seat_name(phone, 1), bid=7, tricks=7, hearts=1, spades=1)
    save_and_wait(phone, 2)
    # Level after two hands: the night plays one more to decide.
    phone.wait_for_selector("#round-place:has-text('tie-break hand')")
    tap_hand(phone, bidder=seat_name(phone, 0), bid=8, tricks=8, hearts=0, spades=0)
    save_and_wait(phone, 3)
    phone.wait_for_selector("#round-over")
    assert "Round 1 · round over" in phone.inner_text("#round-place")
    assert phone.locator("#hand-form").count() == 0
    box = phone.locator("#round-place").bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    screenshot(phone, "tournament-round-over")
    assert Hand.objects.filter(game=game).count() == 3
    phone.context.close()
