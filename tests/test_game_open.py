"""Starting a game is one form and one service call: `GameStartForm` reads the page,
`game_open` writes the game, its seats and its table link in one transaction."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scorecards import start_views
from scorecards.models import Game
from scorecards.services import start as start_service
from scorecards.services.start import game_open
from scorecards.start_forms import GameStartForm

pytestmark = pytest.mark.django_db

FOUR = {"seat_0": "Ann", "seat_1": "Cat", "seat_2": "Bob", "seat_3": "Walk-in Wendy"}


def test_a_game_never_exists_without_its_table_link(monkeypatch, club, standard_rules) -> None:
    def link_refused(*, game: Game) -> str:
        assert Game.objects.filter(pk=game.pk).exists()  # written, inside the transaction
        raise RuntimeError("the link could not be written")

    monkeypatch.setattr(start_service, "game_token_issue", link_refused)
    with pytest.raises(RuntimeError):
        game_open(seats=["A", "B", "C", "D"], rules=standard_rules, club=club)
    assert not Game.objects.exists()


def test_the_page_starts_a_game_with_one_service_call(monkeypatch, as_alice, club, players):
    calls = []

    def counted(**start):
        calls.append(start)
        return game_open(**start)

    monkeypatch.setattr(start_views, "game_open", counted)
    response = as_alice.post(reverse("club_game_new", args=[club.slug]), {**FOUR, "start": "1"})
    game = Game.objects.get()
    assert response.status_code == 303 and len(calls) == 1
    assert game.table_token and game.club == club


@pytest.mark.parametrize(
    ("data", "starting", "errors"),
    [
        ({"first_dealer": "3"}, True, {}),
        ({"first_dealer": "4"}, True, {"first_dealer"}),
        ({"first_dealer": "²"}, False, {"first_dealer"}),
        ({"first_dealer": "9" * 5000}, True, {"first_dealer"}),
        ({"move": "7"}, True, set()),  # a move out of range moves nothing, refuses nothing
        ({"table_label": "T\u200b1"}, False, {"table_label"}),
        ({"played_on": "2026-02-30"}, False, {"played_on"}),
        ({"played_on": "\x00"}, False, {"played_on"}),
        ({"seat_1": "A\u200bB"}, False, set()),  # a refresh keeps what was typed
        ({"seat_1": "A\u200bB"}, True, {"seats"}),
        ({"seat_1": "x" * 81}, True, {"seats"}),
    ],
)
def test_the_start_form_reads_the_page(data, starting, errors) -> None:
    form = GameStartForm({**FOUR, **data}, seats=4, starting=starting)
    form.is_valid()
    parts = form.errors_by_part()
    assert set(parts) == set(errors)
    if "first_dealer" in parts:
        assert parts["first_dealer"][0] == "Choose the first dealer."
    if "seats" in parts:
        assert parts["seats"][0].startswith("Seat 2: ")
    if "played_on" in parts:
        assert "expected" in parts["played_on"][0] or "date" in parts["played_on"][0]


def test_the_start_form_gives_the_clean_values() -> None:
    form = GameStartForm(
        {**FOUR, "first_dealer": " 2 ", "move": "1", "played_on": "2026-09-14"},
        seats=4,
        starting=True,
    )
    assert form.is_valid(), form.errors
    assert form.value("first_dealer") == 2 and form.value("move") == 1
    assert form.value("played_on") == datetime.date(2026, 9, 14)
    assert form.value("table_label") == ""
