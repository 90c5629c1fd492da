"""One person, one player: a name that differs from a club player's only by its accents, case or
spacing ("Jerome Pelletier" beside "Jérôme Pelletier") is never silently made a second player.
The start form and the import page ask who it is (without JavaScript), the command-line import
takes the one player it looks like or refuses naming them, and a rename to such a name is
refused naming the field."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Club, Membership, Player
from leagues.clubs.name_match import likeness_key, name_taken_by, players_alike
from leagues.clubs.player_services import player_rename
from leagues.clubs.roles import PLAYERS_MANAGE, Role
from leagues.clubs.services import LeagueError
from scorecards.import_names import PlayersAlike
from scorecards.importing import game_import
from scorecards.models import Game, Seat
from tests.conftest import PASSWORD, client_for
from tests.examples import valid_examples

pytestmark = pytest.mark.django_db

JEROME = "Jérôme Pelletier"
TYPED = "Jerome Pelletier"  # typed on a phone without accents
RECORD = next(
    case["record"]
    for _, case in valid_examples()
    if case["record"].get("rules", {}).get("preset") == "standard"
)


@pytest.fixture
def jerome(club) -> Player:
    return Player.objects.create(club=club, name=JEROME)


def _record(seats: list[str]) -> dict:
    record = copy.deepcopy(RECORD)
    record["seats"] = seats
    return record


# --- The likeness of names --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Jérôme Pelletier", "Jerome Pelletier", True),
        ("Jérôme Pelletier", "JEROME  PELLETIER", True),
        ("Zoë", "zoe", True),
        ("Søren", "Soren", True),
        ("Łukasz", "Lukasz", True),
        ("Ann", "Anne", False),
        ("Jérôme Pelletier", "Jérôme Peltier", False),
    ],
)
def test_likeness_ignores_accents_case_and_spaces(a: str, b: str, alike: bool) -> None:
    assert (likeness_key(a) == likeness_key(b)) is alike


def test_players_alike_leaves_out_exact_players_and_strangers(club, jerome) -> None:
    Player.objects.create(club=club, name="Ann")
    found = players_alike(club, [TYPED, "jérôme pelletier", "Ann", "Zed", ""])
    # "jérôme pelletier" IS Jérôme (same name key); Ann is Ann; Zed looks like nobody.
    assert found == {TYPED: [jerome]}


# --- The start form -----------------------------------------------------------------------------


def _start(client: Client, club: Club, **extra: str):
    data = {"seat_0": TYPED, "seat_1": "Ann", "seat_2": "Bob", "seat_3": "Dan", "start": "1"}
    return client.post(reverse("club_game_new", args=[club.slug]), {**data, **extra})


def test_start_form_warns_naming_the_player_and_starts_nothing(
    as_bob, club, jerome, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(12):
        response = _start(as_bob, club)
    page = response.content.decode()
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert f"“{TYPED}” looks like a player of the club" in page
    assert f'name="same_0" value="{jerome.pk}"' in page
    assert 'name="same_0" value="new"' in page
    assert f'name="same_0_for" value="{TYPED}"' in page
    assert f"{JEROME}, the club's player" in page


def test_start_form_picks_the_existing_player(as_bob, club, jerome) -> None:
    response = _start(as_bob, club, same_0=str(jerome.pk), same_0_for=TYPED)
    assert response.status_code == 303
    seat = Seat.objects.get(seat=0)
    assert seat.player == jerome and seat.name == JEROME
    assert Player.objects.filter(club=club).count() == 1


def test_start_form_confirms_a_new_name(as_bob, club, jerome) -> None:
    response = _start(as_bob, club, same_0="new", same_0_for=TYPED)
    assert response.status_code == 303
    seat = Seat.objects.get(seat=0)
    assert seat.player is None and seat.name == TYPED  # a walk-in, as typed


@pytest.mark.parametrize(
    "answer",
    [
        {"same_0": "new", "same_0_for": "Somebody Else"},  # given for another name
        {"same_0": "999999", "same_0_for": TYPED},  # not a player it looks like
        {"same_0": "٣", "same_0_for": TYPED},
        {"same_0": "", "same_0_for": TYPED},
    ],
)
def test_start_form_asks_again_on_an_answer_that_does_not_fit(as_bob, club, jerome, answer):
    response = _start(as_bob, club, **answer)
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert "looks like a player of the club" in response.content.decode()


def test_start_form_exact_name_needs_no_question(as_bob, club, jerome) -> None:
    response = _start(as_bob, club, seat_0="jérôme PELLETIER")
    assert response.status_code == 303
    assert Seat.objects.get(seat=0).player == jerome


def test_start_form_warns_before_start_on_update(as_bob, club, jerome) -> None:
    data = {"seat_0": TYPED, "refresh": "1"}
    page = as_bob.post(reverse("club_game_new", args=[club.slug]), data).content.decode()
    assert "looks like a player of the club" in page


# --- The import page ----------------------------------------------------------------------------


def _import_url(club: Club) -> str:
    return reverse("club_game_import", kwargs={"slug": club.slug})


def test_import_asks_then_uses_the_existing_player(as_alice, club, jerome) -> None:
    record = _record([TYPED, "Ann", "Bob", "Dan"])
    response = as_alice.post(_import_url(club), {"text": json.dumps(record)})
    page = response.content.decode()
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert Player.objects.filter(club=club).count() == 1  # nobody created while asking
    assert "look like players of the club" in page
    assert f"“{TYPED}” is:" in page and f"{JEROME}, the club's player" in page
    assert "Pelletier" in page and "&quot;seats&quot;" in page  # the record comes back as text

    response = as_alice.post(
        _import_url(club),
        {"text": json.dumps(record), "same_0_for": TYPED, "same_0": str(jerome.pk)},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert Seat.objects.get(game=game, seat=0).player == jerome
    assert not Player.objects.filter(name=TYPED).exists()


def test_import_asks_then_makes_a_new_player(as_alice, club, jerome) -> None:
    record = _record(["Ann", "Bob", TYPED, "Dan"])
    response = as_alice.post(
        _import_url(club), {"text": json.dumps(record), "same_3_for": TYPED, "same_3": "new"}
    )
    assert response.status_code == 302
    new = Player.objects.get(club=club, name=TYPED)
    assert Seat.objects.get(seat=2).player == new and new != jerome


def test_import_service_refuses_without_an_answer(club, jerome) -> None:
    with pytest.raises(PlayersAlike) as refused:
        game_import(club=club, record=_record([TYPED, "Ann", "Bob", "Dan"]))
    assert refused.value.field == "seats"
    assert TYPED in str(refused.value) and JEROME in str(refused.value)
    assert not Game.objects.exists() and Player.objects.filter(club=club).count() == 1


def test_import_elsewhere_does_not_ask(club, jerome) -> None:
    other = Club.objects.create(name="Other", slug="other")
    game = game_import(club=other, record=_record([TYPED, "Ann", "Bob", "Dan"]))
    assert Seat.objects.get(game=game, seat=0).player.club == other


def _cli(club: Club, record: dict, tmp_path) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    call_command("game_import", str(path), "--club", club.slug, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_command_line_import_takes_the_one_player_it_looks_like(club, jerome, tmp_path) -> None:
    game_id = _cli(club, _record([TYPED, "Ann", "Bob", "Dan"]), tmp_path).strip()
    assert Seat.objects.get(game_id=game_id, seat=0).player == jerome
    assert Player.objects.filter(club=club).count() == 4  # Ann, Bob, Dan new; no second Jérôme


def test_command_line_import_refuses_a_name_like_several(club, jerome, tmp_path) -> None:
    Player.objects.create(club=club, name="Jerôme Pelletier")
    with pytest.raises(CommandError) as refused:
        _cli(club, _record([TYPED, "Ann", "Bob", "Dan"]), tmp_path)
    assert "seats" in str(refused.value) and TYPED in str(refused.value)
    assert JEROME in str(refused.value) and "Jerôme Pelletier" in str(refused.value)
    assert not Game.objects.exists()


# --- Renaming -----------------------------------------------------------------------------------


def _director(club: Club):
    user = get_user_model().objects.create_user("dora", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    return user


def _ex_member(club: Club):
    user = get_user_model().objects.create_user("eve", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.DIRECTOR).delete()
    return user


@pytest.mark.parametrize(
    ("who", "status"),
    [("owner", 200), ("director", 200), ("member", 403), ("outsider", 404), ("ex", 404)],
)
def test_rename_page_per_identity(
    club, jerome, alice, bob, charlie, who, status, django_assert_max_num_queries
) -> None:
    user = {
        "owner": alice,
        "member": bob,
        "outsider": charlie,
        "director": None,
        "ex": None,
    }[who]
    if who == "director":
        user = _director(club)
    if who == "ex":
        user = _ex_member(club)
    client = client_for(user)
    url = reverse("player_rename", args=[club.slug, jerome.pk])
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == status
    response = client.post(url, {"name": "Jérôme P."})
    assert response.status_code == (302 if status == 200 else status)
    jerome.refresh_from_db()
    assert jerome.name == ("Jérôme P." if status == 200 else JEROME)


def test_rename_signed_out_goes_to_login(client, club, jerome) -> None:
    url = reverse("player_rename", args=[club.slug, jerome.pk])
    assert client.get(url).status_code == 302
    assert client.post(url, {"name": "X"}).status_code == 302
    jerome.refresh_from_db()
    assert jerome.name == JEROME


@pytest.mark.parametrize("name", [TYPED, "jérôme pelletier", "JEROME  PELLETIER"])
def test_rename_refuses_a_name_like_another_players(as_alice, club, jerome, name) -> None:
    ann = Player.objects.create(club=club, name="Ann")
    response = as_alice.post(reverse("player_rename", args=[club.slug, ann.pk]), {"name": name})
    assert response.status_code == 422
    form = response.context["form"]
    assert "name" in form.errors  # the refusal is about the name field
    assert JEROME in form.errors["name"][0]
    ann.refresh_from_db()
    assert ann.name == "Ann"


def test_rename_fixes_a_players_own_accents(as_alice, club) -> None:
    typed = Player.objects.create(club=club, name=TYPED)
    url = reverse("player_rename", args=[club.slug, typed.pk])
    assert as_alice.post(url, {"name": JEROME}).status_code == 302
    typed.refresh_from_db()
    assert typed.name == JEROME and name_taken_by(club, TYPED) == typed


@pytest.mark.parametrize("name", ["", " ", "x" * 81, "A\u200bB"])
def test_rename_refuses_bad_names_naming_the_field(as_alice, club, jerome, name) -> None:
    response = as_alice.post(reverse("player_rename", args=[club.slug, jerome.pk]), {"name": name})
    assert response.status_code == 422 and "name" in response.context["form"].errors


def test_rename_service_checks_who_asks(club, jerome, bob, charlie) -> None:
    for user in (bob, charlie, None):
        with pytest.raises(LeagueError):
            player_rename(player=jerome, name="J.", by=user, action=PLAYERS_MANAGE)
    jerome.refresh_from_db()
    assert jerome.name == JEROME


def test_player_list_shows_rename_and_merge_to_directors_only(
    as_alice, as_bob, club, jerome, django_assert_max_num_queries
) -> None:
    url = reverse("club_players", args=[club.slug])
    rename = reverse("player_rename", args=[club.slug, jerome.pk])
    merge = reverse("player_merge", args=[club.slug, jerome.pk])
    with django_assert_max_num_queries(8):
        page = as_alice.get(url).content.decode()
    assert rename in page and merge in page
    page = as_bob.get(url).content.decode()
    assert rename not in page and merge not in page


# --- Adding a player, and the edit page ---------------------------------------------------------


def test_adding_a_name_like_a_players_asks_first(as_alice, club, jerome) -> None:
    url = reverse("club_players", args=[club.slug])
    response = as_alice.post(url, {"name": TYPED})
    assert response.status_code == 422
    error = response.context["form"].errors["name"][0]
    assert JEROME in error and TYPED in error
    assert f'name="alike_ok" value="{TYPED}"' in response.content.decode()
    assert not Player.objects.filter(name=TYPED).exists()
    # "Someone else": the director says so, and the player is added.
    response = as_alice.post(url, {"name": TYPED, "alike_ok": TYPED})
    assert response.status_code == 302
    assert Player.objects.filter(club=club, name=TYPED).exists()


def test_adding_a_new_name_asks_nothing(as_alice, club, jerome) -> None:
    response = as_alice.post(reverse("club_players", args=[club.slug]), {"name": "Zed"})
    assert response.status_code == 302 and Player.objects.filter(name="Zed").exists()


def test_the_edit_page_refuses_a_rename_like_another_player(as_alice, club, jerome) -> None:
    ann = Player.objects.create(club=club, name="Ann")
    url = reverse("player_edit", args=[club.slug, ann.pk])
    response = as_alice.post(url, {"name": TYPED, "user": ""})
    assert response.status_code == 422 and JEROME in response.context["form"].errors["name"][0]
    assert as_alice.post(url, {"name": "Ann", "user": ""}).status_code == 302  # unchanged name
