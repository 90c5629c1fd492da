"""Attendance: nights and games per player per season, regulars and guests, and the season's
nights to be ranked, which the standings page, its CSV and its XLSX apply alike (ranked players
in the table, the others listed apart under "Not yet ranked"), edited in the season's form by
whoever may edit the season."""

from __future__ import annotations

import csv
import datetime
import io

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from leagues.clubs.models import MAX_MIN_NIGHTS, Season
from leagues.standings import rebuild
from leagues.standings.attendance import is_regular, ranked_split
from leagues.standings.views import apart_heading
from tests.conftest import client_for
from tests.leagues_helpers import night_held
from tests.test_exports_readback import page_rows

pytestmark = pytest.mark.django_db

# Three nights: Ann, Bob and Cat play every one; Dan, Eve and Fay one each.
NIGHTS = [("Ann", "Bob", "Cat", "Dan"), ("Ann", "Bob", "Cat", "Eve"), ("Ann", "Bob", "Cat", "Fay")]
REGULARS = ["Ann", "Bob", "Cat"]
GUESTS = ["Dan", "Eve", "Fay"]


@pytest.fixture
def season(club) -> Season:
    """A season of three club nights, one table of one round each, every table played out."""
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    for number, names in enumerate(NIGHTS):
        day = datetime.date(2026, 10, 2 + 7 * number)
        night_held(club, season, names, day, hands=2, name=f"Night {number + 1}")
    rebuild.standings_rebuild(season_id=season.pk)
    return season


def _names(rows: list[list[str]]) -> list[str]:
    return sorted(row[0] for row in rows)


@pytest.mark.parametrize(
    ("nights", "held", "regular"),
    [(0, 0, False), (1, 2, True), (1, 3, False), (2, 3, True), (2, 4, True), (1, 4, False)],
)
def test_a_regular_attended_at_least_half_the_nights_held(nights, held, regular) -> None:
    assert is_regular(nights, held) is regular


def test_the_page_lists_regulars_and_guests_with_their_nights_and_games(season, club, bob):
    page = client_for(bob).get(reverse("standings", args=[club.slug])).content.decode()
    attendance = page[page.index('id="attendance"') :]
    assert "3 club nights so far this season" in attendance
    regulars, guests = attendance.split("<h4>Guests</h4>")
    assert "<h4>Regulars</h4>" in regulars
    for name in REGULARS:
        assert f">{name}</a> — 3 nights, 3 games" in regulars
    for name in GUESTS:
        assert f">{name}</a> — 1 night, 1 game" in guests and name not in regulars


def test_without_a_minimum_everyone_is_ranked_in_one_table(season, club, bob) -> None:
    client = client_for(bob)
    url = reverse("standings", args=[club.slug])
    rows = page_rows(client, url)
    assert _names(rows[1:]) == sorted(REGULARS + GUESTS)
    assert "Not yet ranked" not in client.get(url).content.decode()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_minimum_splits_ranked_and_apart_alike_on_the_page_and_in_both_files(
    season, club, bob, language
) -> None:
    season.min_nights = 2
    season.save(update_fields=["min_nights"])
    client = client_for(bob)
    client.cookies["django_language"] = language
    url = reverse("standings", args=[club.slug])
    text = client.get(url).content.decode()
    with translation.override(language):
        heading = apart_heading(2)
    assert heading in text
    if language == "en":
        assert heading == "Not yet ranked: fewer than 2 nights"
    # The page's two tables: the ranked, then those apart (each with its header).
    rows = page_rows(client, url)
    header = rows[0]
    second = rows.index(header, 1)
    assert _names(rows[1:second]) == REGULARS
    assert _names(rows[second + 1 :]) == GUESTS
    # The CSV: the same rows, the heading alone between the two tables.
    body = client.get(url, {"_export": "csv"}).content.decode("utf-8-sig")
    delimiter = ";" if language == "fr" else ","
    exported = list(csv.reader(io.StringIO(body), delimiter=delimiter))
    at = exported.index([heading])
    assert exported[0] == header == exported[at + 1]
    # Every figure as the page prints it (the streak and the day are written as their number
    # and ISO date in the files: tests/test_exports_readback.py compares those).
    with translation.override(language):
        skip = {header.index(gettext("Streak")), header.index(gettext("Last game"))}

    def figures(table: list[list[str]]) -> list[list[str]]:
        return [[cell for i, cell in enumerate(row) if i not in skip] for row in table]

    assert figures(exported[1:at]) == figures(rows[1:second])
    assert figures(exported[at + 2 :]) == figures(rows[second + 1 :])
    # The XLSX likewise.
    book = openpyxl.load_workbook(io.BytesIO(client.get(url, {"_export": "xlsx"}).content))
    cells = [[cell.value for cell in row] for row in book.active.iter_rows()]
    at = next(i for i, row in enumerate(cells) if row[0] == heading)
    assert sorted(row[0] for row in cells[1:at]) == REGULARS
    assert sorted(row[0] for row in cells[at + 2 :]) == GUESTS


def test_the_minimum_game_filter_still_applies_to_both_lists(season, club, bob) -> None:
    season.min_nights = 2
    season.save(update_fields=["min_nights"])
    rows = page_rows(client_for(bob), reverse("standings", args=[club.slug]) + "?min_games=2")
    assert _names(rows[1:]) == REGULARS  # the guests played one game each


def test_ranked_split_keeps_the_order_given() -> None:
    class Row:
        def __init__(self, nights: int) -> None:
            self.nights = nights

    rows = [Row(3), Row(0), Row(2), Row(1)]
    ranked, apart = ranked_split(rows, 2)
    assert [r.nights for r in ranked] == [3, 2] and [r.nights for r in apart] == [0, 1]
    assert ranked_split(rows, 0) == (rows, [])


def _edit(client, club, season, min_nights: str):
    return client.post(
        reverse("season_edit", args=[club.slug, season.pk]),
        {
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "min_nights": min_nights,
        },
    )


@pytest.mark.parametrize(
    ("who", "status"),
    [("alice", 302), ("bob", 403), ("charlie", 404), ("ex_member", 404), (None, 302)],
)
def test_the_nights_to_be_ranked_are_set_in_the_season_form_by_whoever_may_edit_it(
    season, club, alice, bob, charlie, ex_member, who, status
) -> None:
    user = {"alice": alice, "bob": bob, "charlie": charlie, "ex_member": ex_member, None: None}
    client = client_for(user[who])
    url = reverse("season_edit", args=[club.slug, season.pk])
    if who == "alice":
        assert 'name="min_nights"' in client.get(url).content.decode()
    answer = _edit(client, club, season, "2")
    assert answer.status_code == status
    season.refresh_from_db()
    assert season.min_nights == (2 if who == "alice" else 0)
    if who is None:
        assert "/login" in answer["Location"] or "login" in answer["Location"]


@pytest.mark.parametrize("value", [str(MAX_MIN_NIGHTS + 1), "-1", "two", "9" * 40])
def test_a_minimum_out_of_bounds_is_refused_beside_its_field_never_a_500(
    season, club, alice, value
) -> None:
    answer = _edit(client_for(alice), club, season, value)
    assert answer.status_code == 422
    form = answer.context["form"]
    assert list(form.errors) == ["min_nights"]
    text = answer.content.decode()
    label = text.index("Nights to be ranked")
    assert text.index(str(form.errors["min_nights"][0]).split("“")[0][:20], label) > label
    season.refresh_from_db()
    assert season.min_nights == 0


def test_a_closed_season_keeps_its_minimum(season, club, alice) -> None:
    season.closed_at = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
    season.save(update_fields=["closed_at"])
    answer = _edit(client_for(alice), club, season, "2")
    assert answer.status_code == 409
    season.refresh_from_db()
    assert season.min_nights == 0


def test_the_nights_held_are_read_in_a_fixed_number_of_queries(season, club, bob) -> None:
    """The attendance asks the nights source once (a fixed number of queries whatever the
    nights); a season without a night asks it nothing."""
    client = client_for(bob)
    url = reverse("standings", args=[club.slug])
    client.get(url)
    with CaptureQueriesContext(connection) as three:
        client.get(url)
    Season.objects.create(club=club, name="Quiet", starts_on=datetime.date(2027, 1, 1))
    with CaptureQueriesContext(connection) as none:
        assert "No club night yet this season" in client.get(url + "?season=").content.decode()
    assert len(none) < len(three) <= 30
