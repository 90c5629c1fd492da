"""French where the code used to put English or its own punctuation: a tournament table's label
("Round 1 · Table 1") is kept in canonical words and shown in the reader's language on the sheet,
the table page and the club page (older labels, stored in either language, too); auction calls
typed in French ("passe", "8 sans") are read as the engine's words."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from leagues.clubs.models import Season
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.call_words import call_words_read
from scorecards.models import Game
from scorecards.table_label import table_label_stored, table_label_worded

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture
def table_game(club, alice) -> Game:
    season = Season.objects.create(club=club, name="S", starts_on=datetime.date(2026, 9, 1))
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), rounds=2, season=season
    )
    for name in ("Ann", "Cat", "Bob", "Dan"):
        entry_register(tournament=night, player=name, checked_in=True)
    made = round_draw(tournament=night, by=alice)
    return made.tables[0].game


@pytest.mark.parametrize(
    ("stored", "english", "french"),
    [
        ("Round 2 · Table 3", "Round 2 · Table 3", "Ronde 2 · Table 3"),
        # Drawn while the director read French, before labels were kept in canonical words.
        ("Ronde 2 · Table 3", "Round 2 · Table 3", "Ronde 2 · Table 3"),
        ("Ronde\u00a02 ·\u00a0Table 3", "Round 2 · Table 3", "Ronde 2 · Table 3"),
        # Typed by a person: shown as typed.
        ("Table by the window", "Table by the window", "Table by the window"),
        ("Round 2 · Table 3b", "Round 2 · Table 3b", "Round 2 · Table 3b"),
    ],
)
def test_a_table_label_reads_in_the_viewers_language(stored, english, french) -> None:
    with translation.override("en"):
        assert table_label_worded(stored) == english
    with translation.override("fr"):
        assert table_label_worded(stored) == french


def test_a_night_stores_canonical_words_whatever_the_directors_language(club, alice) -> None:
    with translation.override("fr"):
        assert table_label_stored(1, 2) == "Round 1 · Table 2"


def test_the_sheet_the_table_page_and_the_club_page_say_ronde_in_french(
    table_game, as_alice
) -> None:
    assert table_game.table_label == "Round 1 · Table 1"
    table = table_game.tournament_table
    pages = {
        "sheet": reverse("game_sheet", args=[table_game.pk]),
        "table": reverse("tournament_table", args=[table.round.tournament_id, table.pk]),
        "club": reverse("club_detail", args=[table_game.club.slug]),
    }
    for name, url in pages.items():
        french = as_alice.get(url, **FRENCH).content.decode()
        assert "Ronde 1 · Table 1" in french and "Round 1 · Table 1" not in french, name
        english = as_alice.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Round 1 · Table 1" in english, name


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("passe", "pass"),
        ("  Passe ", "pass"),
        ("pass", "pass"),
        ("8", "8"),
        ("8 no", "8 no"),
        ("8 low", "8 low"),
        ("kaiser", "kaiser"),
        ("8 passe", "8 passe"),  # not a call: the engine refuses it, as typed
    ],
)
def test_auction_calls_typed_in_french_are_read_in_the_engines_words(typed, read) -> None:
    assert call_words_read(typed) == read


def test_the_french_kinds_of_a_bid_are_the_catalogues() -> None:
    with translation.override("fr"):
        no, low = pgettext("auction call", "no"), pgettext("auction call", "low")
    assert call_words_read(f"8 {no}") == "8 no" and call_words_read(f"9 {low}") == "9 low"
