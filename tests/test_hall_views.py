"""The night's file on the hall laptop's night page, and the upload page of the club's server:
who may, what they get, and the round trip through the pages and the commands."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from leagues.club_removal import club_remove
from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.tournaments.models import Tournament
from scorecards.models import Game
from tests.conftest import client_for
from tests.test_hall_upload import _laptop_night, _server_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def ex_member(club, charlie):
    """charlie was a member of the club and was removed."""
    membership = Membership.objects.create(club=club, user=charlie, role=Role.DIRECTOR)
    membership.delete()
    return charlie


def test_only_a_director_or_owner_downloads_the_nights_file(club, alice, bob, ex_member) -> None:
    _season, night = _laptop_night(club)
    url = reverse("night_bundle", args=[night.pk])
    assert client_for(bob).get(url).status_code == 403
    assert client_for(ex_member).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302  # to the login page
    page = client_for(alice).get(reverse("tournament_detail", args=[night.pk]))
    assert url in page.content.decode()
    assert (
        url
        not in client_for(bob).get(reverse("tournament_detail", args=[night.pk])).content.decode()
    )
    response = client_for(alice).get(url)
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["format"] == "kaiser-night/1"


def test_the_upload_page_is_offered_and_open_to_directors_only(club, alice, bob, ex_member) -> None:
    url = reverse("night_upload", args=[club.slug])
    club_page = reverse("club_detail", args=[club.slug])
    assert url in client_for(alice).get(club_page).content.decode()
    assert url not in client_for(bob).get(club_page).content.decode()
    assert client_for(alice).get(url).status_code == 200
    assert client_for(bob).get(url).status_code == 403
    assert client_for(bob).post(url, {}).status_code == 403
    assert client_for(ex_member).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302


def _file(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("night.kaiser-night.json", data, content_type="application/json")


def test_a_night_goes_through_the_pages_and_a_look_alike_name_is_asked_about(club, alice) -> None:
    _season, night = _laptop_night(club)
    data = client_for(alice).get(reverse("night_bundle", args=[night.pk])).content
    club_remove(club=club)
    server, season = _server_club(alice)
    eve = Player.objects.create(club=server, name="Ève")
    url = reverse("night_upload", args=[server.slug])
    as_alice = client_for(alice)

    asked = as_alice.post(url, {"file": _file(data), "season": season.pk})
    assert asked.status_code == 200 and "“Eve” is:" in asked.content.decode()
    assert not Tournament.objects.filter(club=server).exists()
    text = asked.context["form"].initial["bundle"]
    done = as_alice.post(
        url, {"bundle": text, "season": season.pk, "same_0_for": "Eve", "same_0": str(eve.pk)}
    )
    uploaded = Tournament.objects.get(club=server)
    assert done.status_code == 302 and done["Location"] == uploaded.get_absolute_url()
    assert uploaded.entries.filter(player=eve).exists()
    assert Game.objects.filter(club=server, season=season).count() == 5

    again = as_alice.post(
        url, {"bundle": text, "season": season.pk, "same_0_for": "Eve", "same_0": str(eve.pk)}
    )
    assert again.status_code == 302 and Tournament.objects.filter(club=server).count() == 1


def test_a_file_that_is_no_night_is_refused_on_the_page(club, alice) -> None:
    url = reverse("night_upload", args=[club.slug])
    refused = client_for(alice).post(url, {"file": _file(b'{"format": "kaiser-game/1"}')})
    assert refused.status_code == 422
    assert "format" in refused.content.decode()
    assert not Tournament.objects.exists()


def test_the_commands_carry_a_night_from_one_club_to_another(club, alice, tmp_path) -> None:
    _season, night = _laptop_night(club)
    path = tmp_path / "night.json"
    call_command("night_export", str(night.pk), "--output", str(path))
    club_remove(club=club)
    server, season = _server_club(alice)
    out = StringIO()
    call_command(
        "night_upload",
        str(path),
        "--club",
        server.slug,
        "--by",
        "alice",
        "--season",
        str(season.pk),
        stdout=out,
        stderr=StringIO(),
    )
    uploaded = Tournament.objects.get(club=server)
    assert out.getvalue().strip() == str(uploaded.pk)
    assert Club.objects.count() == 1 and Season.objects.filter(club=server).count() == 1


def test_a_night_still_going_on_sends_the_director_back_to_its_page(club, alice) -> None:
    import datetime

    from leagues.tournaments.services import tournament_create

    night = tournament_create(
        club=club, name="Tonight", date=datetime.date(2026, 11, 20), rounds=2, hands_per_round=2
    )
    answer = client_for(alice).get(reverse("night_bundle", args=[night.pk]), follow=True)
    assert answer.redirect_chain[-1][0] == night.get_absolute_url()
    assert "Only a finished night" in answer.content.decode()
