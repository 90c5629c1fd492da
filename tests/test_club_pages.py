"""Club pages of issue 4, for alice (owner), bob (member), charlie (outsider) and anonymous:
standings, partnerships, ratings, player page, players, seasons, members, invitations, settings,
sign-up, password reset and login throttling. Query counts on every page."""

from __future__ import annotations

import csv
import datetime
import io
import re

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from leagues.clubs import services as club_services
from leagues.clubs.models import Club, Invitation, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.standings import rebuild
from leagues.standings.models import PlayerStanding
from scorecards.rules import rules_build
from scorecards.services import game_start
from tests.conftest import PASSWORD, client_for
from tests.leagues_helpers import two_games
from tests.player_page_queries import PLAYER_PAGE_QUERIES


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def played(club, season, players):
    two_games(club, season, {p.name: p for p in players})
    rebuild.standings_rebuild(season_id=season.pk)
    rebuild.ratings_rebuild(club_id=club.pk)
    return season


def everyone(alice, bob, charlie):
    return {"alice": alice, "bob": bob, "charlie": charlie, "anonymous": None}


# --- Who sees what --------------------------------------------------------------------------

READ_PAGES = [
    # url name, needs a player id, status for alice, bob, charlie, anonymous
    ("standings", False, (200, 200, 404, 302)),
    ("standings_partnerships", False, (200, 200, 404, 302)),
    ("ratings", False, (200, 200, 404, 302)),
    ("club_players", False, (200, 200, 404, 302)),
    ("club_seasons", False, (200, 200, 404, 302)),
    ("club_members", False, (200, 403, 404, 302)),
    ("club_settings", False, (200, 403, 404, 302)),
    ("player_detail", True, (200, 200, 404, 302)),
    ("player_edit", True, (200, 403, 404, 302)),
]


@pytest.mark.parametrize(("name", "with_player", "statuses"), READ_PAGES)
def test_pages_for_owner_member_outsider_and_anonymous(
    name, with_player, statuses, played, club, players, alice, bob, charlie
):
    kwargs = {"slug": club.slug}
    if with_player:
        kwargs["player_id"] = players[0].pk
    url = reverse(name, kwargs=kwargs)
    for (who, user), status in zip(everyone(alice, bob, charlie).items(), statuses, strict=True):
        response = client_for(user).get(url)
        assert response.status_code == status, (who, url)
        if status == 302:  # a signed-out visitor is sent to the login page, and back after
            assert response["Location"] == f"{reverse('login')}?next={url}"


def test_public_standings_open_the_standings_pages_only(played, club, players, charlie):
    club.standings_public = True
    club.save()
    for user in (charlie, None):
        client = client_for(user)
        for name in ("standings", "standings_partnerships", "ratings"):
            assert client.get(reverse(name, args=[club.slug])).status_code == 200
        page = client.get(reverse("player_detail", args=[club.slug, players[0].pk]))
        assert page.status_code == 200
        assert "/games/" not in page.content.decode()  # the games stay private
        # Members-only pages: a 404 for an outsider, the login page for a signed-out visitor.
        closed = 404 if user else 302
        assert client.get(reverse("club_detail", args=[club.slug])).status_code == closed
        assert client.get(reverse("club_players", args=[club.slug])).status_code == closed
    # The rebuild button is for directors.
    assert (
        b"Rebuild standings now"
        not in client_for(charlie).get(reverse("standings", args=[club.slug])).content
    )


# --- Standings tables -----------------------------------------------------------------------


def test_standings_page_shows_the_snapshot_and_when_it_was_computed(played, club, as_bob):
    page = as_bob.get(reverse("standings", args=[club.slug])).content.decode()
    assert re.search(r"updated \d+ s ago", page)
    assert "2 games counted" in page
    # Bob: 2 games, 2 wins, 0 draws, 100.0 %, 77 for, -52 against (see tests/test_standings.py).
    row = re.search(r"<tr[^>]*>\s*<td[^>]*><a[^>]*>Bob</a></td>(.*?)</tr>", page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert [c.strip() for c in cells[:6]] == ["2", "2", "0", "100.0", "77", "-52"]
    assert cells[-4].strip() == "W2"  # then nights, night wins, last game


def test_the_page_reads_snapshots_and_never_scores_hands(played, club, as_bob):
    with CaptureQueriesContext(connection) as queries:
        as_bob.get(reverse("standings", args=[club.slug]))
        as_bob.get(reverse("ratings", args=[club.slug]))
    # No hand is read: whether a game counts asks only if a hand waits for a confirmation
    # (`Game.objects.counted()`, for the "last played" dates), never for what was played.
    assert not [q for q in queries.captured_queries if '"scorecards_hand"."record"' in q["sql"]]


def test_standings_sort_by_any_column(played, club, as_bob):
    url = reverse("standings", args=[club.slug])
    page = as_bob.get(url, {"sort": "points_for"}).content.decode()
    order = re.findall(r">(Ann|Bob|Cat|Dan)</a></td>", page)
    assert order == ["Cat", "Ann", "Dan", "Bob"]  # -52, 9, 16, 77
    page = as_bob.get(url, {"sort": "-points_for"}).content.decode()
    assert re.findall(r">(Ann|Bob|Cat|Dan)</a></td>", page) == ["Bob", "Dan", "Ann", "Cat"]


def test_standings_filter_by_minimum_games_and_season(played, club, as_bob, season):
    url = reverse("standings", args=[club.slug])
    empty = Season.objects.create(club=club, name="2025", starts_on=datetime.date(2025, 9, 1))
    page = as_bob.get(url, {"season": season.pk, "min_games": 3}).content.decode()
    assert "No counted games yet." in page
    page = as_bob.get(url, {"season": season.pk, "min_games": 2}).content.decode()
    assert len(re.findall(r">(Ann|Bob|Cat|Dan)</a></td>", page)) == 4
    page = as_bob.get(url, {"season": empty.pk}).content.decode()
    assert "not computed yet" in page
    # Another club's season is not a choice: the form falls back to the latest season.
    other = Club.objects.create(name="Other", slug="other")
    foreign = Season.objects.create(club=other, name="x", starts_on=datetime.date(2026, 1, 1))
    page = as_bob.get(url, {"season": foreign.pk}).content.decode()
    assert "Select a valid choice" in page or "2026" in page


def test_standings_paginate(club, season, as_bob):
    players = [Player.objects.create(club=club, name=f"P{i:02}") for i in range(30)]
    PlayerStanding.objects.bulk_create(
        PlayerStanding(season=season, player=p, games=1, wins=i % 2) for i, p in enumerate(players)
    )
    url = reverse("standings", args=[club.slug])
    first = as_bob.get(url).content.decode()
    second = as_bob.get(url, {"page": 2}).content.decode()
    assert len(re.findall(r">P\d\d</a></td>", first)) == 25
    assert len(re.findall(r">P\d\d</a></td>", second)) == 5
    assert "?page=2" in first


def test_standings_csv_and_xlsx_exports(played, club, as_bob):
    url = reverse("standings", args=[club.slug])
    response = as_bob.get(url, {"_export": "csv", "sort": "-points_for"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["Player", "Games", "Wins", "Draws", "Win %"]
    assert rows[1][:7] == ["Bob", "2", "2", "0", "100.0", "77", "-52"]
    assert rows[1][-4] == "2"  # the streak as a number
    response = as_bob.get(url, {"_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0][0] == "Player"
    assert {row[0] for row in values[1:]} == {"Ann", "Bob", "Cat", "Dan"}
    partnerships = as_bob.get(
        reverse("standings_partnerships", args=[club.slug]), {"_export": "csv"}
    )
    assert "Ann & Bob" in partnerships.content.decode()
    ratings = as_bob.get(reverse("ratings", args=[club.slug]), {"_export": "csv"})
    assert ratings.content.decode("utf-8-sig").splitlines()[0].startswith("Player,Rating,Games")


def test_htmx_sort_swaps_the_table_only(played, club, as_bob):
    url = reverse("standings", args=[club.slug])
    response = as_bob.get(
        url, {"sort": "wins"}, headers={"HX-Request": "true", "HX-Target": "standings-table"}
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="standings-table">')
    assert "<html" not in body and "<form" not in body
    # Without htmx the same link gives the whole page.
    assert "<html" in as_bob.get(url, {"sort": "wins"}).content.decode()


def test_partnerships_and_ratings_pages(played, club, as_alice):
    page = as_alice.get(reverse("standings_partnerships", args=[club.slug])).content.decode()
    assert "Ann</a> &amp; <a" in page
    page = as_alice.get(reverse("ratings", args=[club.slug])).content.decode()
    assert re.search(r"updated \d+ s ago", page)
    assert len(re.findall(r">(Ann|Bob|Cat|Dan)</a></td>", page)) == 4


def test_player_page_shows_games_partners_and_the_rating_chart(played, club, players, as_bob):
    ann = next(p for p in players if p.name == "Ann")
    page = as_bob.get(reverse("player_detail", args=[club.slug, ann.pk])).content.decode()
    assert "<svg" in page and "<polyline" in page
    assert page.count("/games/") == 2
    assert ">Bob</a>" in page and ">Cat</a>" in page  # her two partners
    assert "style=" not in page and "<script>" not in page


# --- Query counts ---------------------------------------------------------------------------


def _standings_rows(club, season, count, prefix="Q"):
    players = [Player.objects.create(club=club, name=f"{prefix}{i:03}") for i in range(count)]
    PlayerStanding.objects.bulk_create(PlayerStanding(season=season, player=p) for p in players)
    return players


@pytest.mark.parametrize(
    "name", ["standings", "standings_partnerships", "ratings", "club_players", "club_seasons"]
)
def test_query_count_of_each_page(name, played, club, as_alice, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        assert as_alice.get(reverse(name, args=[club.slug])).status_code == 200


def test_query_count_of_the_staff_pages(
    played, club, players, as_alice, django_assert_max_num_queries
):
    for url in (
        reverse("club_members", args=[club.slug]),
        reverse("club_settings", args=[club.slug]),
        reverse("player_edit", args=[club.slug, players[0].pk]),
        reverse("club_create"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("invitation_accept", args=[club_services.invitation_create(club=club).token]),
    ):
        with django_assert_max_num_queries(12):
            as_alice.get(url)
    with django_assert_max_num_queries(PLAYER_PAGE_QUERIES):
        as_alice.get(reverse("player_detail", args=[club.slug, players[0].pk]))


def test_standings_queries_stay_constant_as_players_grow(club, season, as_bob):
    url = reverse("standings", args=[club.slug])

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert as_bob.get(url, {"per_page": 1000}).status_code == 200
        return len(queries)

    _standings_rows(club, season, 5)
    few = count()
    _standings_rows(club, season, 200, prefix="R")
    many = count()
    assert few == many


def test_ratings_queries_stay_constant_as_players_grow(club, played, as_bob):
    url = reverse("ratings", args=[club.slug])
    with CaptureQueriesContext(connection) as few:
        as_bob.get(url)
    from leagues.standings.models import PlayerRating

    extra = [Player.objects.create(club=club, name=f"R{i:03}") for i in range(60)]
    PlayerRating.objects.bulk_create(
        PlayerRating(club=club, player=p, mu=25, sigma=8, ordinal=1) for p in extra
    )
    with CaptureQueriesContext(connection) as many:
        as_bob.get(url)
    assert len(few) == len(many)


# --- Directors' refresh button --------------------------------------------------------------


def test_refresh_queues_rebuilds_for_directors_only(played, club, as_alice, as_bob, as_charlie):
    url = reverse("standings_refresh", args=[club.slug])
    assert as_bob.post(url).status_code == 403
    assert as_charlie.post(url).status_code == 404
    PlayerStanding.objects.all().delete()
    response = as_alice.post(url, headers={"HX-Request": "true"})
    assert response.content.decode().strip() == "Rebuild queued."
    assert PlayerStanding.objects.count() == 4  # eager here
    assert as_alice.post(url).status_code == 302


# --- Clubs, members, invitations ------------------------------------------------------------


def test_create_a_club_makes_you_its_owner(alice, charlie, as_alice):
    response = as_alice.post(reverse("club_create"), {"name": "Gravelbourg Kaiser"})
    club = Club.objects.get(name="Gravelbourg Kaiser")
    assert response.url == club.get_absolute_url()
    assert Membership.objects.get(club=club, user=alice).role == Role.OWNER
    # The same owner again (a double tap): refused, naming it; another person gets a new name.
    again = as_alice.post(reverse("club_create"), {"name": "Gravelbourg Kaiser"})
    assert "already have a club called Gravelbourg Kaiser" in again.content.decode()
    assert Club.objects.filter(name="Gravelbourg Kaiser").count() == 1
    client_for(charlie).post(reverse("club_create"), {"name": "Gravelbourg Kaiser"})
    assert Club.objects.filter(slug="gravelbourg-kaiser-2").exists()
    assert Client().get(reverse("club_create")).status_code == 302  # log in first


def test_invitation_link_lets_an_account_join(club, alice, charlie, as_alice, as_charlie):
    as_alice.post(reverse("invitation_create", args=[club.slug]), {"role": "scorer"})
    invitation = Invitation.objects.get(club=club)
    link = reverse("invitation_accept", args=[invitation.token])
    assert Client().get(link).status_code == 200  # shows the club's name, asks to log in
    assert Client().post(link).status_code == 302
    assert not Membership.objects.filter(user=charlie).exists()
    assert as_charlie.post(link).status_code == 302
    assert Membership.objects.get(club=club, user=charlie).role == Role.SCORER
    as_alice.post(reverse("invitation_revoke", args=[club.slug, invitation.pk]))
    assert Client().get(link).status_code == 404


def test_only_staff_invite_and_outsiders_write_nothing(club, as_bob, as_charlie):
    assert as_bob.post(reverse("invitation_create", args=[club.slug]), {}).status_code == 403
    url = reverse("invitation_create", args=[club.slug])
    assert as_charlie.post(url, {"role": "member"}).status_code == 404
    assert not Invitation.objects.exists()
    with pytest.raises(club_services.LeagueError):
        club_services.invitation_create(club=club, role=Role.OWNER)


def test_owner_sets_roles_and_keeps_an_owner(club, alice, bob, as_alice, as_bob):
    bob_membership = Membership.objects.get(club=club, user=bob)
    url = reverse("membership_role", args=[club.slug, bob_membership.pk])
    assert as_bob.post(url, {"role": "owner"}).status_code == 403
    as_alice.post(url, {"role": "director"})
    assert Membership.objects.get(pk=bob_membership.pk).role == Role.DIRECTOR
    alice_membership = Membership.objects.get(club=club, user=alice)
    as_alice.post(
        reverse("membership_role", args=[club.slug, alice_membership.pk]), {"role": "member"}
    )
    assert Membership.objects.get(pk=alice_membership.pk).role == Role.OWNER  # last owner


def test_directors_manage_players_and_link_accounts(club, bob, as_alice, as_bob):
    url = reverse("club_players", args=[club.slug])
    assert as_bob.post(url, {"name": "Zoé"}).status_code == 403
    as_alice.post(url, {"name": "Zoé"})
    zoe = Player.objects.get(club=club, name="Zoé")
    response = as_alice.post(url, {"name": "zoé"})
    assert "already has a player called" in response.content.decode()
    edit = reverse("player_edit", args=[club.slug, zoe.pk])
    as_alice.post(edit, {"name": "Zoé B.", "user": bob.pk})
    zoe.refresh_from_db()
    assert (zoe.name, zoe.user) == ("Zoé B.", bob)
    outsider = get_user_model().objects.create_user("dora", password=PASSWORD)
    response = as_alice.post(edit, {"name": "Zoé B.", "user": outsider.pk})
    zoe.refresh_from_db()
    assert zoe.user == bob  # not a member: not a choice


def test_directors_create_seasons_with_a_rules_preset(club, as_alice, as_bob):
    url = reverse("club_seasons", args=[club.slug])
    data = {"name": "2027", "starts_on": "2027-09-01", "ends_on": "2028-05-31", "preset": "pagat"}
    assert as_bob.post(url, data).status_code == 403
    as_alice.post(url, data)
    season = Season.objects.get(club=club, name="2027")
    assert season.rules == {"preset": "pagat"}
    response = as_alice.post(url, data | {"name": "bad", "ends_on": "2027-01-01"})
    assert "cannot end before it starts" in response.content.decode()


def test_settings_change_what_counts_and_rebuild(
    played, club, as_alice, django_capture_on_commit_callbacks
):
    url = reverse("club_settings", args=[club.slug])
    data = {"name": club.name, "standings_public": "on", "hands_need_confirmation": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        as_alice.post(url, data)
    club.refresh_from_db()
    assert club.standings_public and club.hands_need_confirmation
    assert club.confirmation_since is not None
    # The two games finished before confirmation was turned on: they keep counting.
    assert PlayerStanding.objects.filter(season=played).count() == 4


def test_games_started_in_a_season_belong_to_it(club, season, players):
    game = game_start(seats=players, rules=rules_build({}), club=club, season=season)
    assert list(season.games.all()) == [game]


# --- Accounts -------------------------------------------------------------------------------


def test_sign_up_logs_you_in(db):
    client = Client()
    data = {
        "username": "eve",
        "email": "eve@example.com",
        "password1": "kaiser-sask-2026!",
        "password2": "kaiser-sask-2026!",
    }
    assert client.post(reverse("signup"), data).status_code == 302
    assert client.get(reverse("home")).context["user"].username == "eve"


def test_password_reset_by_e_mail(alice):
    alice.email = "alice@example.com"
    alice.save()
    client = Client()
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_url = client.get(link).url  # Django swaps the token for a session one
    new = "new-kaiser-pass-52"
    client.post(form_url, {"new_password1": new, "new_password2": new})
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_login_is_throttled_after_five_failures(alice):
    url = reverse("login")
    client = Client(REMOTE_ADDR="10.0.0.5")
    statuses = [
        client.post(url, {"username": "alice", "password": "wrong"}).status_code for _ in range(5)
    ]
    # Four failures show the form again; the fifth locks the username at this address.
    assert statuses == [200, 200, 200, 200, 429]
    locked = client.post(url, {"username": "alice", "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another address may still log in as alice (the lock is per username and address).
    other = Client(REMOTE_ADDR="10.0.0.6")
    assert other.post(url, {"username": "alice", "password": PASSWORD}).status_code == 302
    # Fifteen minutes later the failures are forgotten.
    from axes.models import AccessAttempt

    later = timezone.now() - datetime.timedelta(minutes=16)
    AccessAttempt.objects.update(attempt_time=later)
    assert client.post(url, {"username": "alice", "password": PASSWORD}).status_code == 302


def test_the_standings_page_speaks_french(played, club, as_bob):
    as_bob.post(reverse("set_language"), {"language": "fr", "next": "/"})
    try:
        page = as_bob.get(reverse("standings", args=[club.slug])).content.decode()
    finally:
        translation.activate("en")  # the request left French active in this thread
    assert "Classement" in page and "Pts pour" in page
    assert re.search(r"mis à jour il y a \d+ s", page)


def test_sign_up_follows_next_only_within_the_site(db):
    data = {
        "email": "x@example.com",
        "password1": "kaiser-sask-2026!",
        "password2": "kaiser-sask-2026!",
    }
    response = Client().post(reverse("signup"), data | {"username": "u1", "next": "/join/abc/"})
    assert response.url == "/join/abc/"
    response = Client().post(
        reverse("signup"), data | {"username": "u2", "next": "https://evil.example/"}
    )
    assert response.url == reverse("home")
