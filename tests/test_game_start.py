"""Starting a game: at a club (players recent first, walk-ins, the season's rules, tap order)
and a quick game with typed names."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Season
from scorecards.models import Game, Seat
from scorecards.services import game_start

pytestmark = pytest.mark.django_db

FOUR = {"seat_0": "Ann", "seat_1": "Cat", "seat_2": "Bob", "seat_3": "Walk-in Wendy"}


@pytest.mark.parametrize(
    ("who", "status"), [("as_alice", 200), ("as_bob", 200), ("as_charlie", 404), ("client", 302)]
)
def test_club_game_new_access(request, club, players, who, status) -> None:
    client: Client = request.getfixturevalue(who)
    url = reverse("club_game_new", args=[club.slug])
    assert client.get(url).status_code == status
    response = client.post(url, {**FOUR, "start": "1"})
    # A signed-out visitor is sent to the login page; an outsider learns nothing.
    assert response.status_code == {200: 303, 302: 302}.get(status, 404)
    assert Game.objects.count() == (1 if status == 200 else 0)
    Game.objects.all().delete()


def test_club_game_uses_players_walk_ins_and_the_season_rules(as_bob, bob, club, players):
    Season.objects.create(
        club=club,
        name="Winter",
        starts_on=datetime.date(2020, 1, 1),
        rules={"preset": "standard", "min_bid": 6},
    )
    url = reverse("club_game_new", args=[club.slug])
    page = as_bob.get(url).content.decode()
    assert "The rules of Winter: Standard · Minimum bid: 6" in page
    assert 'list="club-players"' in page
    response = as_bob.post(url, {**FOUR, "first_dealer": "2", "table_label": "T1", "start": "1"})
    game = Game.objects.get()
    assert response["Location"] == reverse("game_sheet", args=[game.pk])
    assert game.rules["min_bid"] == 6 and game.season.name == "Winter"
    assert game.first_dealer == 2 and game.table_label == "T1" and game.created_by == bob
    assert game.table_token  # the table link exists from the start
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    assert [s.name for s in seats] == ["Ann", "Cat", "Bob", "Walk-in Wendy"]
    assert seats[0].player == players[0] and seats[3].player is None


def test_recent_players_come_first(as_alice, alice, club, players, standard_rules) -> None:
    game_start(seats=[players[3], players[1], players[2], "X"], rules=standard_rules, club=club)
    page = as_alice.get(reverse("club_game_new", args=[club.slug])).content.decode()
    options = page[page.index('<datalist id="club-players">') :]
    assert options.index('"Bob"') < options.index('"Ann"')  # Bob played, Ann did not


def test_tap_order_moves_a_player_up(as_alice, club) -> None:
    url = reverse("club_game_new", args=[club.slug])
    page = as_alice.post(url, {**FOUR, "move": "1"}).content.decode()
    assert page.index('value="Cat"') < page.index('value="Ann"')
    assert not Game.objects.exists()


def test_preset_with_more_seats_shows_more_seats(as_alice, club) -> None:
    url = reverse("club_game_new", args=[club.slug])
    page = as_alice.post(url, {"preset": "three-player", "refresh": "1"}).content.decode()
    assert 'name="seat_2"' in page and 'name="seat_3"' not in page


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({**FOUR, "seat_2": ""}, "every seat needs a name"),
        ({**FOUR, "seat_2": "ann"}, "a player can sit in only one seat"),
        ({**FOUR, "overrides": "{not json"}, "Write the changes as"),
        ({**FOUR, "overrides": '{"min_bid": 99}'}, "min_bid"),
        ({**FOUR, "min_bid": "99"}, "Minimum bid"),
        ({**FOUR, "preset": "bogus"}, "Select a valid choice."),
        ({**FOUR, "first_dealer": "9"}, "Choose the first dealer."),
    ],
)
def test_bad_start_is_refused_and_writes_nothing(as_alice, club, players, data, error) -> None:
    response = as_alice.post(reverse("club_game_new", args=[club.slug]), {**data, "start": "1"})
    assert response.status_code in (200, 422)
    assert error in response.content.decode()
    assert not Game.objects.exists()


def test_quick_game(as_charlie, charlie, client) -> None:
    url = reverse("quick_game_new")
    assert client.get(url).status_code == 302  # to the login page
    assert as_charlie.get(url).status_code == 200
    data = {"seat_0": "Mom", "seat_1": "Dad", "seat_2": "Lea", "seat_3": "Sam", "start": "1"}
    response = as_charlie.post(url, {**data, "preset": "pagat"})
    game = Game.objects.get()
    assert response.status_code == 303 and game.club is None and game.created_by == charlie
    assert game.rules["preset"] == "pagat"
    assert as_charlie.get(reverse("game_sheet", args=[game.pk])).status_code == 200


def test_game_new_queries(as_alice, club, players, django_assert_max_num_queries) -> None:
    with django_assert_max_num_queries(6):
        assert as_alice.get(reverse("club_game_new", args=[club.slug])).status_code == 200
