"""A season that can be fixed: its page (name, dates, rules, games, nights), edit, close (an
archive: read-only, marked closed, its standings kept), reopen (owners) and delete while empty;
and deleting a club that ran a night. For owner (alice), director (diana), member (bob),
outsider (charlie), ex-member (erin) and a signed-out visitor, GET and POST, with query counts;
every button a page offers is one the server accepts for who is shown it."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.club_removal import club_delete
from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.clubs.selectors import club_current_season
from leagues.clubs.services import LeagueError, season_create
from leagues.seasons import season_close, season_delete, season_reopen, season_update
from leagues.standings.models import PlayerStanding
from leagues.standings.rebuild import standings_rebuild
from leagues.tournaments.forms import TournamentForm
from leagues.tournaments.models import Tournament, TournamentTable
from leagues.tournaments.services import entry_register, round_draw, tournament_create
from scorecards.importing import GameImportForm
from scorecards.models import Game, GameStatus, Hand
from scorecards.rules import RecordError, rules_build
from scorecards.services import (
    SeasonClosed,
    game_start,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
)
from tests.conftest import PASSWORD, client_for
from tests.leagues_helpers import GAME_1, GAME_2, play, trump

pytestmark = pytest.mark.django_db

WHO = ["alice", "diana", "bob", "charlie", "erin", "anonymous"]
# What each identity gets from a page of owners and directors (a POST that works redirects).
STAFF = {"alice": 302, "diana": 302, "bob": 403, "charlie": 404, "erin": 404, "anonymous": 302}
OWNER = {**STAFF, "diana": 403}


@pytest.fixture
def diana(club):
    user = get_user_model().objects.create_user("diana", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    return user


@pytest.fixture
def erin(club, alice):
    """A director who was removed from the club."""
    from leagues.clubs.services import membership_remove

    user = get_user_model().objects.create_user("erin", password=PASSWORD)
    membership = Membership.objects.create(club=club, user=user, role=Role.DIRECTOR)
    membership_remove(membership=membership, by=alice)
    return user


@pytest.fixture
def everyone(alice, bob, charlie, diana, erin):
    return {"alice": alice, "bob": bob, "charlie": charlie, "diana": diana, "erin": erin}


def _client(everyone, who):
    return client_for(everyone.get(who))


@pytest.fixture
def season(club) -> Season:
    return season_create(club=club, name="Autumn 2026", starts_on=datetime.date(2026, 9, 1))


@pytest.fixture
def by_name(players):
    return {p.name: p for p in players}


def _url(name, season, *extra):
    return reverse(name, args=[season.club.slug, season.pk, *extra])


def _forms(page: str) -> list[str]:
    """The action of every POST form on a page."""
    return re.findall(r'<form method="post" action="([^"]+)"', page)


# --- The page ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_season_page_for_each_identity(everyone, club, season, by_name, who) -> None:
    play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    response = _client(everyone, who).get(_url("season_detail", season))
    expected = {"charlie": 404, "erin": 404, "anonymous": 302}.get(who, 200)
    assert response.status_code == expected
    if expected == 302:
        assert response["Location"].startswith(reverse("login"))
    if expected != 200:
        return
    page = response.content.decode()
    assert "Autumn 2026" in page and "Ann, Cat, Bob, Dan" in page
    assert "rules:" in page and "Games <small>(1)</small>" in page
    staff = who in ("alice", "diana")
    assert ('id="season-edit"' in page) == staff
    assert ('id="season-close"' in page) == staff
    # The season holds a game: nobody is offered to delete it, staff are told why.
    assert 'id="season-delete"' not in page
    assert ("holds 1 game and 0 nights" in page) == staff


@pytest.mark.parametrize("who", WHO)
def test_every_button_offered_is_accepted(everyone, club, season, who) -> None:
    """For each identity and each state of the season, every form the page offers posts to a
    server that accepts it (a redirect, never 403, 404 or 409)."""
    client = _client(everyone, who)
    for state in ("open", "closed"):
        if state == "closed":
            season_close(season=season, by=everyone["alice"])
        response = client.get(_url("season_detail", season))
        if response.status_code != 200:
            assert who in ("charlie", "erin", "anonymous")
            continue
        actions = [a for a in _forms(response.content.decode()) if "/seasons/" in a]
        if who == "bob":
            assert actions == []
        for action in actions:
            assert client.post(action).status_code == 302, (who, state, action)
            if not Season.objects.filter(pk=season.pk).exists():
                return
            season.refresh_from_db()


def test_the_seasons_list_and_the_standings_mark_a_closed_season(
    as_bob, club, season, alice
) -> None:
    other = season_create(club=club, name="Spring 2026", starts_on=datetime.date(2026, 3, 1))
    season_close(season=season, by=alice)
    page = as_bob.get(reverse("club_seasons", args=[club.slug])).content.decode()
    assert _url("season_detail", season) in page and _url("season_detail", other) in page
    assert page.count('class="closed-mark"') == 1
    standings = as_bob.get(reverse("standings", args=[club.slug]), {"season": season.pk})
    assert standings.status_code == 200
    assert 'class="closed-mark"' in standings.content.decode()
    page = as_bob.get(_url("season_detail", season)).content.decode()
    assert 'id="closed-notice"' in page


def test_season_page_queries_do_not_grow(
    as_alice, club, season, by_name, django_assert_max_num_queries
) -> None:
    seats = [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")]
    play(club, season, seats, GAME_1)
    with CaptureQueriesContext(connection) as few:
        assert as_alice.get(_url("season_detail", season)).status_code == 200
    for _ in range(12):
        play(club, season, seats, GAME_2)
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), season=season
    )
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    round_draw(tournament=night)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = as_alice.get(_url("season_detail", season)).content.decode()
    assert "Games <small>(15)</small>" in page and "Friday" in page
    assert len(few.captured_queries) <= 12


def test_season_edit_page_queries(
    as_alice, club, season, by_name, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(8):
        assert as_alice.get(_url("season_edit", season)).status_code == 200
    for _ in range(5):
        play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_2)
    with django_assert_max_num_queries(8):
        assert as_alice.get(_url("season_edit", season)).status_code == 200


# --- Edit ---------------------------------------------------------------------------------------


def _edit_data(**extra):
    return {"name": "Fall 2026", "starts_on": "2026-09-02", "ends_on": "2026-12-20", **extra}


@pytest.mark.parametrize("who", WHO)
def test_edit_for_each_identity(everyone, club, season, who) -> None:
    client = _client(everyone, who)
    got = client.get(_url("season_edit", season)).status_code
    assert got == {"alice": 200, "diana": 200}.get(who, STAFF[who])
    response = client.post(_url("season_edit", season), _edit_data(preset="standard"))
    assert response.status_code == STAFF[who]
    season.refresh_from_db()
    changed = who in ("alice", "diana")
    assert (season.name == "Fall 2026") == changed
    if changed:
        assert response["Location"] == _url("season_detail", season)
        assert season.starts_on == datetime.date(2026, 9, 2)
        assert season.ends_on == datetime.date(2026, 12, 20)


def test_edit_refusals_name_the_field(as_alice, club, season) -> None:
    season_create(club=club, name="Spring", starts_on=datetime.date(2026, 3, 1))
    url = _url("season_edit", season)
    cases = [
        (_edit_data(name="Spring"), "already has a season called"),
        (_edit_data(name="x" * 101), "at most 100 characters"),
        (_edit_data(ends_on="2026-08-01"), "cannot end before it starts"),
        (_edit_data(starts_on="2026-02-30"), "Enter a valid date"),
        (_edit_data(starts_on="99999-01-01"), "Enter a valid date"),
    ]
    for data, message in cases:
        response = as_alice.post(url, {**data, "preset": "standard"})
        assert response.status_code == 422, data
        assert message.lower() in response.content.decode().lower(), data
    season.refresh_from_db()
    assert season.name == "Autumn 2026"


def test_the_rules_change_only_while_no_game_was_played(
    as_alice, alice, club, season, by_name
) -> None:
    url = _url("season_edit", season)
    assert 'name="preset"' in as_alice.get(url).content.decode()
    as_alice.post(url, _edit_data(preset="pagat"))
    season.refresh_from_db()
    assert season.rules["preset"] == "pagat"
    play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    page = as_alice.get(url).content.decode()
    assert 'name="preset"' not in page and 'id="rules-fixed"' in page
    # A post that sends rules anyway changes the name and dates, never the rules.
    as_alice.post(url, _edit_data(name="Fall", preset="standard"))
    season.refresh_from_db()
    assert season.name == "Fall" and season.rules["preset"] == "pagat"
    with pytest.raises(LeagueError, match="its rules no longer change"):
        season_update(
            season=season,
            by=alice,
            name="Fall",
            starts_on=season.starts_on,
            ends_on=None,
            rules={"preset": "standard"},
        )


# --- Close and reopen ---------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_close_and_reopen_for_each_identity(everyone, club, season, who) -> None:
    client = _client(everyone, who)
    assert client.post(_url("season_close", season)).status_code == STAFF[who]
    season.refresh_from_db()
    assert (season.closed_at is not None) == (who in ("alice", "diana"))
    season_close(season=season, by=everyone["alice"])
    assert client.post(_url("season_reopen", season)).status_code == OWNER[who]
    season.refresh_from_db()
    assert (season.closed_at is None) == (who == "alice")


def test_close_is_refused_while_a_game_or_a_night_is_going_on(
    as_alice, alice, club, season, by_name
) -> None:
    seats = [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")]
    game = play(club, season, seats, GAME_1[:3])
    response = as_alice.post(_url("season_close", season))
    assert response.status_code == 409
    assert "1 game of this season is still being played" in response.content.decode()
    page = as_alice.get(_url("season_detail", season)).content.decode()
    assert 'id="season-close"' not in page and 'id="close-refusal"' in page
    for hand in GAME_1[3:]:
        hand_record(game=game, hand=hand)
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), season=season
    )
    with pytest.raises(LeagueError, match="The night Friday has not ended"):
        season_close(season=season, by=alice)
    Tournament.objects.filter(pk=night.pk).update(status="cancelled")
    season_close(season=season, by=alice)
    season.refresh_from_db()
    assert season.closed_at is not None


def test_a_closed_season_is_read_only(alice, bob, club, season, by_name) -> None:
    """The issue's case 6: a season can be closed; its games take no new hand, undo,
    correction or confirmation, and no game or night starts in it; its standings stay."""
    ann, cat, bob_p, dan = (by_name[n] for n in ("Ann", "Cat", "Bob", "Dan"))
    game = play(club, season, [ann, cat, bob_p, dan], GAME_1)
    Player.objects.filter(pk=cat.pk).update(user=bob)
    assert game.status == GameStatus.FINISHED
    standings_rebuild(season_id=season.pk)
    standings_before = set(
        PlayerStanding.objects.filter(season=season).values_list("player__name", "games")
    )
    assert standings_before
    season_close(season=season, by=alice)
    hands = list(Hand.objects.filter(game=game).values_list("number", "record"))
    with pytest.raises(SeasonClosed, match="season of this game is closed"):
        hand_correct(game=game, number=1, hand=trump(0, 7, (7, 1), 0, 1), by=alice, reason="typo")
    with pytest.raises(SeasonClosed):
        hand_undo(game=game, by=alice)
    with pytest.raises(SeasonClosed):
        hand_confirm(game=game, number=9, by=bob)
    with pytest.raises(SeasonClosed):
        hand_record(game=game, hand=trump(0, 7, (7, 1), 0, 1))
    assert list(Hand.objects.filter(game=game).values_list("number", "record")) == hands
    with pytest.raises(RecordError, match="closed"):
        game_start(
            seats=[ann, cat, bob_p, dan],
            rules=rules_build({"preset": "standard"}),
            club=club,
            season=season,
        )
    assert club_current_season(club, on=datetime.date(2026, 10, 1)) is None
    assert season not in TournamentForm(club=club).fields["season"].queryset
    assert season not in GameImportForm(club=club).fields["season"].queryset
    night = tournament_create(club=club, name="Late", date=datetime.date(2026, 11, 1))
    assert night.season is None
    assert (
        set(PlayerStanding.objects.filter(season=season).values_list("player__name", "games"))
        == standings_before
    )
    # Reopened, the season takes corrections again.
    season_reopen(season=season, by=alice)
    hand_correct(game=game, number=1, hand=trump(0, 7, (7, 1), 0, 1), by=alice, reason="typo")


def test_a_closed_seasons_game_refuses_on_the_web_not_with_a_500(
    as_alice, alice, club, season, by_name
) -> None:
    game = play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    season_close(season=season, by=alice)
    response = as_alice.post(reverse("hand_undo", args=[game.pk]), HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    assert "season of this game is closed" in response.json()["message"]
    page = as_alice.post(reverse("hand_undo", args=[game.pk]))
    assert page.status_code == 409
    assert "season of this game is closed" in page.content.decode()
    assert as_alice.get(reverse("game_sheet", args=[game.pk])).status_code == 200


# --- Delete -------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_delete_an_empty_season_for_each_identity(everyone, club, season, who) -> None:
    response = _client(everyone, who).post(_url("season_delete", season))
    assert response.status_code == STAFF[who]
    gone = not Season.objects.filter(pk=season.pk).exists()
    assert gone == (who in ("alice", "diana"))
    if gone:
        assert response["Location"] == reverse("club_seasons", args=[club.slug])


def test_a_season_with_games_or_nights_is_not_deleted(
    as_alice, alice, club, season, by_name
) -> None:
    play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    tournament_create(club=club, name="Friday", date=datetime.date(2026, 11, 20), season=season)
    response = as_alice.post(_url("season_delete", season))
    assert response.status_code == 409
    assert (
        "This season holds 1 game and 1 night: only an empty season is deleted. Close it to "
        "keep it as an archive." in response.content.decode()
    )
    assert Season.objects.filter(pk=season.pk).exists()
    with pytest.raises(LeagueError, match="holds 1 game and 1 night"):
        season_delete(season=season, by=alice)


# --- Deleting a club ----------------------------------------------------------------------------


def _club_with_a_night(club, season, by_name) -> Tournament:
    """The club ran a night whose tables played, and a season game."""
    play(club, season, [by_name[n] for n in ("Ann", "Cat", "Bob", "Dan")], GAME_1)
    night = tournament_create(
        club=club, name="Friday", date=datetime.date(2026, 11, 20), season=season
    )
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    made = round_draw(tournament=night)
    for table in made.tables:
        for hand in GAME_2[:2]:
            hand_record(game=table.game, hand=hand)
    return night


@pytest.mark.parametrize("who", WHO)
def test_club_delete_for_each_identity(everyone, club, season, by_name, who) -> None:
    _club_with_a_night(club, season, by_name)
    client = _client(everyone, who)
    got = client.get(reverse("club_delete", args=[club.slug]))
    assert got.status_code == {"alice": 200}.get(who, OWNER[who])
    response = client.post(reverse("club_delete", args=[club.slug]), {"slug": club.slug})
    assert response.status_code == OWNER[who]
    gone = not Club.objects.filter(pk=club.pk).exists()
    assert gone == (who == "alice")
    if gone:
        assert response["Location"] == reverse("home")
        assert not Game.objects.exists() and not Tournament.objects.exists()
        assert not TournamentTable.objects.exists() and not Hand.objects.exists()
        assert get_user_model().objects.filter(username="bob").exists()


def test_a_club_that_ran_a_night_is_deleted_after_its_page_names_what_goes(
    as_alice, alice, club, season, by_name, django_assert_max_num_queries
) -> None:
    """The issue's case 6: deleting a club that ran a night failed (a night's table protects
    its game); now the owner sees what goes, confirms with the club's short name, and all of
    it goes."""
    _club_with_a_night(club, season, by_name)
    url = reverse("club_delete", args=[club.slug])
    with django_assert_max_num_queries(12):
        page = as_alice.get(url).content.decode()
    for words in ("2 members", "12 players", "1 season", "3 games", "1 tournament night"):
        assert words in page, words
    settings = as_alice.get(reverse("club_settings", args=[club.slug])).content.decode()
    assert url in settings
    wrong = as_alice.post(url, {"slug": "something-else"})
    assert wrong.status_code == 422 and "Type regina to delete the club." in wrong.content.decode()
    assert Club.objects.filter(pk=club.pk).exists()
    response = as_alice.post(url, {"slug": "regina"}, follow=True)
    assert response.status_code == 200
    assert "The club Regina Kaiser Club is deleted." in response.content.decode()
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Game.objects.exists() and not Season.objects.exists()


def test_club_delete_service_refuses_non_owners(club, bob, diana) -> None:
    for user in (bob, diana, None):
        with pytest.raises(LeagueError, match="Only an owner deletes the club"):
            club_delete(club=club, by=user)
    assert Club.objects.filter(pk=club.pk).exists()


def test_the_admin_deletes_a_club_that_ran_a_night(club, season, by_name) -> None:
    """The error page of the issue: the admin's delete of a club that ran a night met the
    tables' protected games. It now deletes the nights first, and all goes."""
    _club_with_a_night(club, season, by_name)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    client = client_for(admin)
    url = reverse("admin:clubs_club_delete", args=[club.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "protected" not in page.content.decode()
    response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Game.objects.exists() and not Tournament.objects.exists()
    assert get_user_model().objects.filter(username="bob").exists()
