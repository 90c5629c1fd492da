"""Numbers and names read from requests: one reader (kaiser_league.inputs) used by every view
and form; refusals name the field and the limit; races on names answer a form error; exports
write formulas as text and numbers as numbers, under any download name."""

from __future__ import annotations

import csv
import datetime
import io
from unittest import mock
from urllib.parse import unquote

import openpyxl
import pytest
from django.db import IntegrityError
from django.db.models import QuerySet
from django.urls import reverse

from kaiser_league.inputs import InputError, name_check, number_parse
from leagues.clubs import services as club_services
from leagues.clubs.models import Club, Player, Season
from leagues.standings import rebuild
from leagues.standings.models import PlayerRating
from leagues.tournaments.models import Tournament
from scorecards.models import Game
from scorecards.services import game_start
from tests.leagues_helpers import two_games
from tests.test_table_sheet import hand_data

# --- the number reader ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("7", 7),
        (" 7 ", 7),
        ("-3", -3),
        ("0010", 10),
        ("²", "Enter a whole number."),
        ("٣", "Enter a whole number."),  # int() would read it as 3
        ("𝟘", "Enter a whole number."),
        ("１２", "Enter a whole number."),
        ("+4", "Enter a whole number."),
        ("1.5", "Enter a whole number."),
        ("1e3", "Enter a whole number."),
        ("", "Enter a whole number."),
        (None, "Enter a whole number."),
        (["1"], "Enter a whole number."),
        ("9" * 5000, "Enter a number from -10 to 10."),
        ("0" * 5000 + "1", "Enter a number from -10 to 10."),
        ("11", "Enter a number from -10 to 10."),
        ("-11", "Enter a number from -10 to 10."),
    ],
)
def test_number_parse(raw, expected) -> None:
    if isinstance(expected, int):
        assert number_parse(raw, field="n", minimum=-10, maximum=10) == expected
    else:
        with pytest.raises(InputError) as caught:
            number_parse(raw, field="n", minimum=-10, maximum=10)
        assert caught.value.field == "n" and caught.value.message == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  Élise  ", "Élise"),
        ("李小龍", "李小龍"),
        ("Ann & Bob", "Ann & Bob"),
        ("x" * 80, "x" * 80),
        ("x" * 81, "At most 80 characters, please (this has 81)."),
        ("", "This is required."),
        ("   ", "This is required."),
        ("a\u200bb", "Remove the invisible or control character U+200B."),
        ("\u202eevil", "Remove the invisible or control character U+202E."),
        ("\u2066isolate", "Remove the invisible or control character U+2066."),
        ("a\x00b", "Remove the invisible or control character U+0000."),
        ("line\nbreak", "Remove the invisible or control character U+000A."),
        ("\ufeffbom", "Remove the invisible or control character U+FEFF."),
        ("x\ud800", "Remove the invisible or control character U+D800."),
        ("a\u2028b", "Remove the invisible or control character U+2028."),
    ],
)
def test_name_check(raw, expected) -> None:
    if expected.endswith(".") and expected != raw.strip():
        with pytest.raises(InputError) as caught:
            name_check(raw, field="name", max_length=80)
        assert caught.value.message == expected
    else:
        assert name_check(raw, field="name", max_length=80) == expected


# --- names in the views ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("x" * 81, "At most 80 characters"),
        ("Zoë\u200b", "U+200B"),
        ("\u202eenaJ", "U+202E"),
    ],
)
def test_a_bad_player_name_is_refused_not_cut(as_alice, club, name, error) -> None:
    response = as_alice.post(reverse("club_players", args=[club.slug]), {"name": name})
    assert response.status_code == 422
    assert error in response.content.decode()
    assert not Player.objects.filter(club=club).exists()


def test_seat_names_over_80_characters_are_refused_with_the_limit(as_alice, club) -> None:
    seats = {f"seat_{i}": name for i, name in enumerate(["Ann", "Bob", "Cat", "D" * 81])}
    response = as_alice.post(
        reverse("club_game_new", args=[club.slug]), {**seats, "start": "1", "rules": "standard"}
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "Seat 4" in page and "At most 80 characters" in page
    assert not Game.objects.exists()
    seats["seat_3"] = "Dan\u200b"
    response = as_alice.post(
        reverse("club_game_new", args=[club.slug]), {**seats, "start": "1", "rules": "standard"}
    )
    assert "U+200B" in response.content.decode() and not Game.objects.exists()


@pytest.mark.parametrize(
    ("view", "data", "field"),
    [
        ("club_seasons", {"starts_on": "2026-09-01", "preset": "standard"}, "name"),
        ("club_settings", {}, "name"),
    ],
)
def test_season_and_club_names_are_checked(as_alice, club, view, data, field) -> None:
    url = reverse(view, args=[club.slug])
    for bad, error in (("y" * 101, "At most 100 characters"), ("Fall\u2067", "U+2067")):
        response = as_alice.post(url, {**data, field: bad})
        assert response.status_code == 422 and error in response.content.decode()
    assert not Season.objects.exists()
    assert Club.objects.get(pk=club.pk).name == "Regina Kaiser Club"


def test_club_create_refuses_a_bidi_override(as_alice) -> None:
    response = as_alice.post(reverse("club_create"), {"name": "Club\u202e"})
    assert response.status_code == 422 and "U+202E" in response.content.decode()
    assert not Club.objects.filter(name__startswith="Club\u202e").exists()


# --- numbers in the views -------------------------------------------------------------------


@pytest.fixture
def game(club, players, standard_rules, alice):
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000, "-1", "4"])
def test_entered_as_out_of_reach_is_ignored(as_bob, game, raw) -> None:
    response = as_bob.post(
        reverse("hand_submit", args=[game.pk]),
        hand_data(number=1, entered_as=raw),
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 201
    assert "table_seats" not in as_bob.session or str(game.pk) not in as_bob.session.get(
        "table_seats", {}
    )


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000, "4"])
def test_confirm_with_a_seat_out_of_reach_is_refused(as_bob, game, raw) -> None:
    # The confirmer's seat is what the server knows, never the posted one: whatever it says,
    # the phone that entered the hand is refused and nothing is confirmed.
    as_bob.post(reverse("hand_submit", args=[game.pk]), hand_data(number=1))
    response = as_bob.post(reverse("hand_confirm", args=[game.pk, 1]), {"seat": raw})
    assert response.status_code == 403
    assert not game.hands.filter(confirmed_at__isnull=False).exists()


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000])
def test_game_start_numbers_out_of_reach(as_alice, club, raw) -> None:
    seats = {f"seat_{i}": name for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"])}
    url = reverse("club_game_new", args=[club.slug])
    assert as_alice.post(url, {**seats, "move": raw}).status_code == 200
    response = as_alice.post(url, {**seats, "first_dealer": raw, "start": "1"})
    assert response.status_code == 422 and "Choose the first dealer." in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("sitout_points", "3000000000", "less than or equal to 1000"),
        ("sitout_points", "-3000000000", "greater than or equal to -1000"),
        ("sitout_points", "²", "Enter a whole number."),
        ("rounds", "٣", "Enter a whole number."),
        ("hands_per_round", "9" * 5000, "Enter a number from 1 to 50."),
        ("name", "Night\u200b", "U+200B"),
    ],
)
def test_tournament_numbers_and_names_are_bounded(as_alice, club, field, value, error) -> None:
    from tests.test_tournament_views import _create_data

    response = as_alice.post(
        reverse("tournament_list", args=[club.slug]), _create_data(**{field: value})
    )
    assert response.status_code == 422
    assert error in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("page", ["²", "٣", "9" * 5000, "0", "-1", "99"])
def test_page_numbers_out_of_reach_show_a_page(as_bob, club, players, page) -> None:
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    two_games(club, season, {p.name: p for p in players})
    rebuild.standings_rebuild(season_id=season.pk)
    response = as_bob.get(reverse("standings", args=[club.slug]), {"page": page})
    assert response.status_code == 200
    assert "Ann" in response.content.decode()


# --- races on names, as the database sees them ----------------------------------------------


def _lose_the_race():
    """The service's own check sees no clash, then the database's unique constraint does (a
    rival request inserted the same name in between)."""
    return mock.patch.object(QuerySet, "exists", side_effect=[False, True])


def test_player_race_lost_is_a_clear_refusal(club) -> None:
    Player.objects.create(club=club, name="Ann")
    with _lose_the_race(), pytest.raises(club_services.LeagueError, match="already has a player"):
        club_services.player_save(club=club, name="ann")
    assert Player.objects.filter(club=club).count() == 1


def test_season_race_lost_is_a_clear_refusal(club) -> None:
    Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    with _lose_the_race(), pytest.raises(club_services.LeagueError, match="already has a season"):
        club_services.season_create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    assert Season.objects.filter(club=club).count() == 1


def test_sign_up_race_lost_is_a_clear_refusal(alice) -> None:
    with _lose_the_race(), pytest.raises(club_services.LeagueError, match="already exists"):
        club_services.account_create(username="alice", email="a@example.com", password="x" * 20)


def test_club_race_lost_takes_the_next_short_name(alice, bob) -> None:
    first = club_services.club_create(name="Twin", owner=alice)
    # The check saw "twin" free, the insert found it taken: the next name is used.
    # (exists: slug free, no own club of that name, [insert fails] slug taken, next one free...)
    with mock.patch.object(QuerySet, "exists", side_effect=[False, False, True, False, False]):
        second = club_services.club_create(name="Twin", owner=bob)
    assert (first.slug, second.slug) == ("twin", "twin-2")
    assert second.memberships.get().user == bob


def test_an_owner_cannot_make_the_same_club_twice(as_alice, alice, bob) -> None:
    club_services.club_create(name="Twin", owner=alice)
    with pytest.raises(club_services.LeagueError, match="already have a club called twin"):
        club_services.club_create(name="twin", owner=alice)
    response = as_alice.post(reverse("club_create"), {"name": "TWIN"})
    assert response.status_code == 422 and "already have a club" in response.content.decode()
    assert club_services.club_create(name="Twin", owner=bob).slug == "twin-2"  # another owner may
    assert Club.objects.filter(name__iexact="twin").count() == 2


def test_an_integrity_error_that_is_no_race_is_not_hidden(club) -> None:
    with (
        mock.patch.object(QuerySet, "exists", return_value=False),
        mock.patch.object(Player.objects, "create", side_effect=IntegrityError("other")),
        pytest.raises(IntegrityError),
    ):
        club_services.player_save(club=club, name="Zed")


# --- exports --------------------------------------------------------------------------------

FORMULA = '=HYPERLINK("http://example.com","x")'


@pytest.fixture
def hostile_club(club, players):
    """Players whose names a spreadsheet would run, in a season with an awkward name."""
    for player, name in zip(players, [FORMULA, "+1+1", "-2+3", "@SUM(A1)"], strict=True):
        player.name = name
        player.save()
    season = Season.objects.create(
        club=club, name='Fall "26"\nÉté 李', starts_on=datetime.date(2026, 9, 1)
    )
    two_games(club, season, {p: players[i] for i, p in enumerate(["Ann", "Cat", "Bob", "Dan"])})
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    return season


def test_csv_export_writes_formulas_as_text(as_bob, club, hostile_club) -> None:
    response = as_bob.get(reverse("standings", args=[club.slug]), {"_export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    names = {row[0] for row in rows[1:]}
    assert names == {"'" + FORMULA, "'+1+1", "'-2+3", "'@SUM(A1)"}
    # Negative numbers stay numbers (only text is guarded).
    assert any(cell.startswith("-") and cell[1:].isdigit() for row in rows[1:] for cell in row)


def test_xlsx_exports_store_text_as_text_and_numbers_as_numbers(as_bob, club, hostile_club):
    for view in ("standings", "ratings"):
        response = as_bob.get(reverse(view, args=[club.slug]), {"_export": "xlsx"})
        sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
        cells = [list(row) for row in sheet.iter_rows(min_row=2)]
        assert {row[0].value for row in cells} == {FORMULA, "+1+1", "-2+3", "@SUM(A1)"}
        assert all(row[0].data_type == "s" for row in cells)
        assert all(row[1].data_type == "n" for row in cells), view
    ratings = {p.player.name: p for p in PlayerRating.objects.select_related("player")}
    response = as_bob.get(reverse("ratings", args=[club.slug]), {"_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    for row in sheet.iter_rows(min_row=2, values_only=True):
        name, ordinal, games, mu, sigma = row
        assert all(isinstance(v, int | float) for v in (ordinal, mu, sigma)) and games == 2
        assert ordinal == round(ratings[name].ordinal, 1)


def test_any_season_name_gives_a_correct_download_name(as_bob, club, hostile_club) -> None:
    response = as_bob.get(
        reverse("standings", args=[club.slug]), {"_export": "csv", "season": hostile_club.pk}
    )
    assert response.status_code == 200
    header = response["Content-Disposition"]
    assert "\n" not in header and header.startswith("attachment; ")
    ascii_part, utf8_part = header.split("; ")[1:]
    assert ascii_part == 'filename="regina-Fall_26_Ete_-players.csv"'
    assert utf8_part.startswith("filename*=UTF-8''")
    assert unquote(utf8_part.split("''", 1)[1]) == 'regina-Fall "26"Été 李-players.csv'


def test_an_object_id_in_unicode_digits_selects_nothing(as_bob, club) -> None:
    first = Season.objects.create(club=club, name="Old", starts_on=datetime.date(2025, 9, 1))
    Season.objects.create(club=club, name="New", starts_on=datetime.date(2026, 9, 1))
    arabic = str(first.pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for value in (arabic, "9" * 5000, "-1"):
        page = as_bob.get(reverse("standings", args=[club.slug]), {"season": value})
        assert page.status_code == 200
        assert page.context["season"].name == "New"  # the default, not season `first`
    page = as_bob.get(reverse("standings", args=[club.slug]), {"season": str(first.pk)})
    assert page.context["season"].name == "Old"
