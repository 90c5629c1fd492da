"""The standings and ratings exports read back as a club secretary's spreadsheet reads them, in
English and in French: CSV with its BOM stripped and the language's delimiter (csv module), XLSX
with openpyxl. Every figure equals what the page shows (one rounding, half up), numbers are
numbers (negatives too, never guarded as text), dates are dates, names keep their accents and a
name a spreadsheet would run is still written as text."""

from __future__ import annotations

import codecs
import csv
import datetime
import io
from decimal import Decimal
from html.parser import HTMLParser

import openpyxl
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from leagues.clubs.models import Player, Season
from leagues.standings import rebuild
from leagues.standings.exports import shown
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
)
from leagues.tournaments.services import (
    entry_register,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import Game
from scorecards.services import hand_record
from tests.conftest import client_for
from tests.leagues_helpers import trump, two_games

# language: (CSV delimiter, decimal mark)
LANGUAGES = {"en": (",", "."), "fr": (";", ",")}
FIRST_DAY = datetime.date(2026, 9, 14)
LAST_DAY = datetime.date(2026, 9, 21)
VIEWS = ("standings", "standings_partnerships", "ratings")


@pytest.fixture
def season(club, players) -> Season:
    """Two real games (tests/leagues_helpers.py) played on two days, Bob's player renamed
    Benoît, then a few stored figures set where rounding and signs are tested: Benoît's rating
    4.6917 (shown 4.7), his μ -0.335 (shown -0.34, half up), his average 2.675 points a hand
    (2.68, where binary rounding gives 2.67), Cat's rating -0.33 (-0.3)."""
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    by_name = {p.name: p for p in players}
    first, second = two_games(club, season, by_name)
    Game.objects.filter(pk=first.pk).update(played_on=FIRST_DAY)
    Game.objects.filter(pk=second.pk).update(played_on=LAST_DAY)
    Player.objects.filter(pk=by_name["Bob"].pk).update(name="Benoît")
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    PlayerRating.objects.filter(player=by_name["Bob"]).update(ordinal=4.6917, mu=-0.335)
    PlayerRating.objects.filter(player=by_name["Cat"]).update(ordinal=-0.33)
    PlayerStanding.objects.filter(player=by_name["Bob"]).update(avg_points=2.675)
    return season


def _client(user, language: str) -> Client:
    client = client_for(user)
    client.cookies["django_language"] = language
    return client


class _TableText(HTMLParser):
    """The text of each cell of the page's standings table, row by row, header first."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.depth = 0  # inside <table class="standings">
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("class", "standings") in attrs:
            self.depth = 1
        elif self.depth and tag == "tr":
            self.rows.append([])
        elif self.depth and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.depth = 0
        elif self.depth and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def page_rows(client: Client, url: str) -> list[list[str]]:
    parser = _TableText()
    response = client.get(url)
    assert response.status_code == 200
    parser.feed(response.content.decode())
    return parser.rows


def csv_rows(client: Client, url: str, language: str) -> list[list[str]]:
    """The CSV export as a spreadsheet reads it: a UTF-8 BOM, then the language's delimiter."""
    body = client.get(url, {"_export": "csv"}).content
    assert body.startswith(codecs.BOM_UTF8)
    text = body[len(codecs.BOM_UTF8) :].decode("utf-8")
    return list(csv.reader(io.StringIO(text), delimiter=LANGUAGES[language][0]))


def xlsx_rows(client: Client, url: str) -> list[list[openpyxl.cell.cell.Cell]]:
    body = client.get(url, {"_export": "xlsx"}).content
    return [list(row) for row in openpyxl.load_workbook(io.BytesIO(body)).active.iter_rows()]


def page_number(text: str, language: str) -> Decimal:
    return Decimal(text.replace(LANGUAGES[language][1], "."))


def _places(text: str, language: str) -> int:
    mark = LANGUAGES[language][1]
    return len(text.split(mark)[1]) if mark in text else 0


def _streak_text(value: int, language: str) -> str:
    with translation.override(language):
        if value > 0:
            return gettext("W%(n)s") % {"n": value}
        if value < 0:
            return gettext("L%(n)s") % {"n": -value}
        return "–"


def _headers(language: str) -> tuple[str, str]:
    with translation.override(language):
        return gettext("Streak"), gettext("Last game")


def assert_exports_show_the_page(client: Client, url: str, language: str) -> int:
    """The page's table, its CSV and its XLSX read back hold the same rows, names and figures:
    each figure the same text in the CSV as on the page and the same number in the XLSX (a
    number cell, formatted with the page's decimals), the streak as its number, the last game as
    an ISO date in the CSV and a date cell in the XLSX. Returns how many figures it compared."""
    page = page_rows(client, url)
    rows = csv_rows(client, url, language)
    cells = xlsx_rows(client, url)
    streak, last_game = _headers(language)
    assert len(page) == len(rows) == len(cells) > 1
    assert page[0] == rows[0] == [c.value for c in cells[0]]
    header = page[0]
    numbers = 0
    for shown_row, csv_row, xlsx_row in zip(page[1:], rows[1:], cells[1:], strict=True):
        assert len(shown_row) == len(csv_row) == len(xlsx_row) == len(header)
        # The name (a player, or a partnership) as written, accents intact.
        assert shown_row[0] == csv_row[0] == xlsx_row[0].value
        assert xlsx_row[0].data_type == "s"
        for column, text, csv_text, cell in zip(
            header[1:], shown_row[1:], csv_row[1:], xlsx_row[1:], strict=True
        ):
            if column == streak:
                assert text == _streak_text(int(csv_text), language) and cell.value == int(csv_text)
            elif column == last_game:
                day = datetime.date.fromisoformat(csv_text)
                with translation.override(language):
                    assert text == date_format(day, "SHORT_DATE_FORMAT")
                assert cell.is_date and cell.value.date() == day
                assert "yy" in cell.number_format
            else:
                # The same figure, as the page prints it, and a number in both files.
                assert csv_text == text, (column, shown_row[0])
                assert not csv_text.startswith("'")
                value = page_number(text, language)
                assert cell.data_type == "n" and isinstance(cell.value, int | float)
                assert Decimal(repr(cell.value)) == value, (column, shown_row[0])
                places = _places(text, language)
                assert cell.number_format == ("0." + "0" * places if places else "0") or (
                    places == 0 and cell.number_format == "General"
                )
                numbers += 1
    return numbers


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("view", VIEWS)
def test_csv_and_xlsx_read_back_as_the_page_shows(season, club, bob, view, language) -> None:
    client = _client(bob, language)
    url = reverse(view, args=[club.slug])
    columns = len(page_rows(client, url)[0])
    # Four rows, every column but the name, the streak and the last game a figure.
    assert assert_exports_show_the_page(client, url, language) >= 4 * (columns - 3)


def test_the_issues_case_5_exports_agree_with_the_page(season, club, bob) -> None:
    """Benoît's rating 4.6917 is 4.7 on the page, in the CSV and in the XLSX; his μ -0.335 is
    the number -0.34, never the text "'-0.33"; the CSV opens in Excel with its accents (BOM) and
    in French with ";" between cells and "," in numbers; the XLSX has date cells."""
    url = reverse("ratings", args=[club.slug])
    english = _client(bob, "en")
    page = {row[0]: row for row in page_rows(english, url)[1:]}
    assert (page["Benoît"][1], page["Benoît"][3]) == ("4.7", "-0.34")
    body = english.get(url, {"_export": "csv"}).content
    assert body.startswith(codecs.BOM_UTF8)
    rows = {row[0]: row for row in csv.reader(io.StringIO(body.decode("utf-8-sig")))}
    assert rows["Benoît"][1] == "4.7" and rows["Benoît"][3] == "-0.34"
    assert rows["Cat"][1] == "-0.3"
    french = _client(bob, "fr")
    body = french.get(url, {"_export": "csv"}).content.decode("utf-8-sig")
    assert body.splitlines()[1].count(";") == 4
    rows = {row[0]: row for row in csv.reader(io.StringIO(body), delimiter=";")}
    assert (rows["Benoît"][1], rows["Benoît"][3]) == ("4,7", "-0,34")
    sheet = {row[0].value: row for row in xlsx_rows(english, url)[1:]}
    assert sheet["Benoît"][1].value == 4.7 and sheet["Benoît"][3].value == -0.34
    assert sheet["Cat"][1].value == -0.3
    standings = xlsx_rows(english, reverse("standings", args=[club.slug]))
    days = {row[0].value: row[-1] for row in standings[1:]}
    assert days["Benoît"].is_date and days["Benoît"].value.date() == LAST_DAY
    assert standings[0][-1].value == "Last game"
    # Wide enough to show the date (Excel shows "#####" for a date in a narrow column).
    sheet = days["Benoît"].parent
    assert sheet.column_dimensions[days["Benoît"].column_letter].width >= len("2026-09-21")
    # The player's page rounds the same way.
    benoit = PlayerRating.objects.get(ordinal=4.6917).player
    player_page = english.get(reverse("player_detail", args=[club.slug, benoit.pk]))
    assert "<strong>4.7</strong>" in player_page.content.decode()


def test_draws_nights_and_night_wins_on_the_page_and_in_both_files(
    season, club, bob, players
) -> None:
    PlayerStanding.objects.filter(player=players[0]).update(draws=1, nights=3, night_wins=2)
    client = _client(bob, "en")
    url = reverse("standings", args=[club.slug])
    page = page_rows(client, url)
    rows = csv_rows(client, url, "en")
    cells = xlsx_rows(client, url)
    at = [page[0].index(name) for name in ("Draws", "Nights", "Night wins")]
    ann = next(row for row in page if row[0] == "Ann")
    assert [ann[i] for i in at] == ["1", "3", "2"]
    assert [next(r for r in rows if r[0] == "Ann")[i] for i in at] == ["1", "3", "2"]
    assert [next(r for r in cells if r[0].value == "Ann")[i].value for i in at] == [1, 3, 2]
    # A partnership has draws, not nights.
    partnerships = page_rows(client, reverse("standings_partnerships", args=[club.slug]))
    assert "Draws" in partnerships[0] and "Nights" not in partnerships[0]


def test_each_partnership_shows_the_day_it_last_played_together(season, club, bob) -> None:
    client = _client(bob, "en")
    url = reverse("standings_partnerships", args=[club.slug])
    rows = {row[0]: row[-1] for row in csv_rows(client, url, "en")[1:]}
    # Game 1 (14 Sept.): Ann & Benoît against Cat & Dan; game 2 (21 Sept.): Ann & Cat against
    # Benoît & Dan.
    assert rows == {
        "Ann & Benoît": "2026-09-14",
        "Cat & Dan": "2026-09-14",
        "Ann & Cat": "2026-09-21",
        "Benoît & Dan": "2026-09-21",
    }


FORMULAS = ["=1+1", "-2+3", "@SUM(A1)", "\tTab"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_names_a_spreadsheet_would_run_stay_text_and_negative_numbers_stay_numbers(
    season, club, bob, players, language
) -> None:
    for player, name in zip(players, FORMULAS, strict=True):
        player.name = name
        player.save()
    client = _client(bob, language)
    for view in VIEWS:
        url = reverse(view, args=[club.slug])
        rows = csv_rows(client, url, language)
        quoted = [row[0] for row in rows[1:]]
        assert all(name.startswith("'") for name in quoted), quoted
        negatives = [cell for row in rows[1:] for cell in row[1:] if cell.startswith("-")]
        assert negatives, view  # every table here has a negative figure
        assert all(page_number(cell, language) < 0 for cell in negatives)
        for row in xlsx_rows(client, url)[1:]:
            # Stored as the text it is (openpyxl would write "=1+1" as a formula).
            assert row[0].data_type == "s" and row[0].value.startswith(("=", "-", "@", "\t"))
            assert all(cell.data_type in ("n", "d") for cell in row[1:]), view


@pytest.mark.parametrize(
    ("value", "places", "want"),
    [
        (4.6917, 1, "4.7"),  # the issue's case: cut to 4.6 before
        (4.65, 1, "4.7"),  # half up (binary rounding of 4.65 gives 4.6)
        (2.675, 2, "2.68"),  # half up (binary: 2.67)
        (-0.335, 2, "-0.34"),  # half away from zero
        (-0.04, 1, "0.0"),  # no "-0.0"
        (100.0, 1, "100.0"),
        (66.66666666666667, 1, "66.7"),
        (7, 2, "7.00"),
    ],
)
def test_one_rounding_half_up_to_the_places_shown(value, places, want) -> None:
    assert str(shown(value, places)) == want


WHO = [("alice", 200), ("bob", 200), ("charlie", 404), (None, 302)]


@pytest.mark.parametrize(("who", "status"), WHO)
@pytest.mark.parametrize("export", ["csv", "xlsx"])
def test_exports_for_owner_member_outsider_and_anonymous(
    season, club, alice, bob, charlie, who, status, export
) -> None:
    user = {"alice": alice, "bob": bob, "charlie": charlie, None: None}[who]
    for view in VIEWS:
        response = client_for(user).get(reverse(view, args=[club.slug]), {"_export": export})
        assert response.status_code == status, (who, view)
        if status == 200:
            assert response["Content-Disposition"].startswith("attachment; ")


@pytest.mark.parametrize("view", ["standings", "standings_partnerships"])
def test_query_counts_do_not_grow_with_the_rows(
    season, club, alice, view, django_assert_max_num_queries
) -> None:
    client = client_for(alice)
    url = reverse(view, args=[club.slug])
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    extra = [Player.objects.create(club=club, name=f"Extra {i:02}") for i in range(30)]
    PlayerStanding.objects.bulk_create(
        PlayerStanding(season=season, player=p, games=1, avg_points=-1.25) for p in extra
    )
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as many:
        client.get(url, {"page": 2, "sort": "avg_points"})
    assert len(many) == len(few)
    for export in ("csv", "xlsx"):
        with django_assert_max_num_queries(8):
            assert client.get(url, {"_export": export}).status_code == 200


# --- A season of table games and a tournament night ----------------------------------------

LEAD = trump(0, 7, (7, 1), 0, 1)  # side 0: +12, side 1: -2
MIRROR = trump(1, 7, (1, 7), 1, 0)  # side 1: +12, side 0: -2


def _night_played(club, season) -> None:
    """A night of two rounds of two hands for eight players at two tables, the season's four
    (Benoît among them) and four walk-ins: every table ended by its round, the first one drawn
    (level on points), the others won."""
    night = tournament_create(
        club=club,
        name="Vendredi",
        date=datetime.date(2026, 10, 2),
        rounds=2,
        hands_per_round=2,
        extra_hand_on_tie=False,
        season=season,
    )
    for player in [*Player.objects.filter(club=club), "Zoé", "Élise", "Gus", "Hal"]:
        entry_register(tournament=night, player=player, checked_in=True)
    first = True
    for _round in range(2):
        for table in round_draw(tournament=night).tables:
            for hand in [LEAD, MIRROR] if first else [LEAD, LEAD]:
                hand_record(game=table.game, hand=hand)
            first = False
    tournament_finish(tournament=night)


def _exports(client: Client, url: str) -> tuple[bytes, list[list[object]]]:
    csv_body = client.get(url, {"_export": "csv"}).content
    return csv_body, [[cell.value for cell in row] for row in xlsx_rows(client, url)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_season_of_games_and_a_night_reads_back_as_the_page_and_as_a_rebuild_from_nothing(
    season, club, bob, language
) -> None:
    _night_played(club, season)
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    client = _client(bob, language)
    urls = [reverse(view, args=[club.slug]) for view in VIEWS]
    for url in urls:
        assert assert_exports_show_the_page(client, url, language) > 0
    rows = {row.player.name: row for row in PlayerStanding.objects.select_related("player")}
    assert rows["Benoît"].nights == 1 and rows["Benoît"].games == 2 + 2
    assert sum(row.draws for row in rows.values()) == 4  # the drawn table: four players
    assert sum(row.night_wins for row in rows.values()) >= 1
    before = [_exports(client, url) for url in urls]
    # From nothing: no standings, no summaries, no ratings; the same files come out.
    PlayerStanding.objects.all().delete()
    PartnershipStanding.objects.all().delete()
    GameSummary.objects.all().delete()
    PlayerRating.objects.all().delete()
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    assert [_exports(client, url) for url in urls] == before
