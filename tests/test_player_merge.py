"""Merging two players who are one person ("Jerome Pelletier", typed at a table, and the club's
"Jérôme Pelletier"): every seat, night entry, account, rating and standing moves to the kept
player, the merge is recorded, and the standings and ratings after it are exactly a rebuild from
nothing. Refused, naming why, when the two are plainly two people; owners and directors only."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Club, Membership, Player, PlayerMerge, Season
from leagues.clubs.roles import Role
from leagues.clubs.services import LeagueError
from leagues.players.merge import merge_preview, player_merge
from leagues.standings.models import (
    GameSummary,
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    StandingsSnapshot,
)
from leagues.standings.rebuild import derived_data_rebuild_all
from leagues.tournaments.models import TournamentEntry
from leagues.tournaments.services import entry_register, tournament_create
from scorecards.models import Seat
from tests.conftest import PASSWORD, client_for
from tests.leagues_helpers import GAME_1, GAME_2, play

pytestmark = pytest.mark.django_db

JEROME = "Jérôme Pelletier"
TYPED = "Jerome Pelletier"


@pytest.fixture
def season(club) -> Season:
    return Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 1, 1))


@pytest.fixture
def people(club) -> dict[str, Player]:
    names = ["Ann", "Bob", "Cat", "Dan", JEROME, TYPED]
    return {name: Player.objects.create(club=club, name=name) for name in names}


@pytest.fixture
def split_season(club, season, people, django_capture_on_commit_callbacks):
    """Jérôme's season split in two: one game as Jérôme, one as Jerome (a typo at a table), a
    night entry as Jerome; the standings and ratings rebuilt as they stand."""
    p = people
    with django_capture_on_commit_callbacks(execute=True):
        first = play(club, season, [p[JEROME], p["Cat"], p["Bob"], p["Dan"]], GAME_1)
        second = play(club, season, [p[TYPED], p["Bob"], p["Cat"], p["Dan"]], GAME_2)
        third = play(club, season, [p["Ann"], p[TYPED], p["Bob"], p["Cat"]], GAME_1)
    night = tournament_create(
        club=club, name="Tuesday night", date=datetime.date(2026, 3, 3), season=season
    )
    entry_register(tournament=night, player=p[TYPED])
    derived_data_rebuild_all()
    return first, second, third, night


def _rows() -> dict[str, object]:
    """Every derived row, as values (not ids of rows), for comparing two states."""
    fields = PlayerStanding.FIGURES
    return {
        "players": sorted(
            (row.season_id, row.player_id, *[getattr(row, f) for f in fields])
            for row in PlayerStanding.objects.all()
        ),
        "pairs": sorted(
            (row.season_id, row.first_id, row.second_id, *[getattr(row, f) for f in fields])
            for row in PartnershipStanding.objects.all()
        ),
        "ratings": sorted(
            (row.player_id, round(row.mu, 9), round(row.sigma, 9), row.games)
            for row in PlayerRating.objects.all()
        ),
        "points": sorted(
            (row.player_id, row.game_id, row.seq, round(row.ordinal, 9))
            for row in RatingPoint.objects.all()
        ),
    }


def _rebuilt_from_nothing() -> dict[str, object]:
    for model in (
        PlayerStanding,
        PartnershipStanding,
        PlayerRating,
        RatingPoint,
        GameSummary,
        StandingsSnapshot,
        RatingSnapshot,
    ):
        model.objects.all().delete()
    report = derived_data_rebuild_all()
    assert not report.failures
    return _rows()


def _merge_url(club: Club, player: Player) -> str:
    return reverse("player_merge", args=[club.slug, player.pk])


# --- The case: a season split in two by a typo, made one --------------------------------


def test_merge_moves_seats_entries_standings_and_equals_a_rebuild_from_nothing(
    club, season, people, split_season, alice, as_alice, django_capture_on_commit_callbacks
) -> None:
    _first, second, third, night = split_season
    jerome, typed = people[JEROME], people[TYPED]
    before = PlayerStanding.objects.get(season=season, player=jerome)
    assert before.games == 1  # the split record: one game each
    assert PlayerStanding.objects.get(season=season, player=typed).games == 2

    with django_capture_on_commit_callbacks(execute=True):
        response = as_alice.post(_merge_url(club, typed), {"into": str(jerome.pk)})
    assert response.status_code == 302
    assert response["Location"] == reverse("club_players", args=[club.slug])

    assert not Player.objects.filter(pk=typed.pk).exists()
    # Every seat moved, the names written at the table kept.
    moved = Seat.objects.filter(game__in=[second, third], player=jerome)
    assert moved.count() == 2 and {s.name for s in moved} == {TYPED}
    assert TournamentEntry.objects.get(tournament=night).player == jerome
    record = PlayerMerge.objects.get()
    assert (record.kept, record.merged_name, record.merged_player_id) == (jerome, TYPED, typed.pk)
    assert record.by == alice and record.by_name == "alice" and record.club == club
    assert record.moved["seats"] == 2 and record.moved["entries"] == 1
    assert record.moved["standings"] == 1 and record.moved["ratings"] == 1

    after = PlayerStanding.objects.get(season=season, player=jerome)
    assert after.games == 3 and after.hands == before.hands + 5 + 8
    assert PlayerRating.objects.get(player=jerome).games == 3
    stored = _rows()
    assert stored == _rebuilt_from_nothing()


def test_the_merge_page_previews_what_moves(
    club, people, split_season, as_alice, django_assert_max_num_queries
) -> None:
    jerome, typed = people[JEROME], people[TYPED]
    with django_assert_max_num_queries(17):
        response = as_alice.get(_merge_url(club, typed), {"into": str(jerome.pk)})
    page = response.content.decode()
    assert response.status_code == 200
    assert "2 seats at games" in page
    assert "1 tournament night entry" in page
    assert "standings in 1 season, rebuilt" in page
    assert f"Merge {TYPED} into {JEROME}" in page
    assert f"{_merge_url(club, jerome)}?into={typed.pk}" in page  # keep the other one instead
    assert Player.objects.filter(pk=typed.pk).exists()  # a preview changes nothing


def test_the_merge_page_without_a_choice_lists_the_other_players(
    club, people, as_alice, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(8):
        page = as_alice.get(_merge_url(club, people[TYPED])).content.decode()
    assert f'<option value="{people[JEROME].pk}">{JEROME}</option>' in page
    assert f'<option value="{people[TYPED].pk}">' not in page


# --- Who may ------------------------------------------------------------------------------------


def _user(club: Club | None, name: str, role: str | None, *, left: bool = False):
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    if club is not None and role is not None:
        membership = Membership.objects.create(club=club, user=user, role=role)
        if left:
            membership.delete()
    return user


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("owner", 200),
        ("director", 200),
        ("scorer", 403),
        ("member", 403),
        ("outsider", 404),
        ("ex-member", 404),
        ("signed out", 302),
    ],
)
def test_merge_page_per_identity(club, people, alice, bob, charlie, who, status) -> None:
    user = {
        "owner": alice,
        "member": bob,
        "outsider": charlie,
        "director": _user(club, "dora", Role.DIRECTOR) if who == "director" else None,
        "scorer": _user(club, "sam", Role.SCORER) if who == "scorer" else None,
        "ex-member": _user(club, "eve", Role.DIRECTOR, left=True) if who == "ex-member" else None,
        "signed out": None,
    }[who]
    client: Client = client_for(user)
    jerome, typed = people[JEROME], people[TYPED]
    url = _merge_url(club, typed)
    assert client.get(url, {"into": str(jerome.pk)}).status_code == status
    response = client.post(url, {"into": str(jerome.pk)})
    assert response.status_code == (302 if status == 200 else status)
    assert Player.objects.filter(pk=typed.pk).exists() is (status != 200)
    assert PlayerMerge.objects.exists() is (status == 200)


def test_merge_service_checks_who_asks(club, people, bob, charlie) -> None:
    for user in (bob, charlie, None):
        with pytest.raises(LeagueError):
            player_merge(kept=people[JEROME], merged=people[TYPED], by=user)
    assert Player.objects.filter(pk=people[TYPED].pk).exists()


# --- Refusals -----------------------------------------------------------------------------------


def test_refused_when_both_sat_in_one_game_naming_it(club, season, people, as_alice) -> None:
    p = people
    game = play(club, season, [p[JEROME], p[TYPED], p["Bob"], p["Dan"]], GAME_2)
    response = as_alice.post(_merge_url(club, p[TYPED]), {"into": str(p[JEROME].pk)})
    assert response.status_code == 422
    error = response.context["form"].errors["into"][0]
    assert f"game {game.pk}" in error and "two people" in error
    assert Seat.objects.get(game=game, seat=1).player == p[TYPED]
    assert not PlayerMerge.objects.exists()


def test_refused_when_both_played_one_night_naming_it(club, season, people, as_alice) -> None:
    night = tournament_create(club=club, name="Friday night", date=datetime.date(2026, 4, 3))
    entry_register(tournament=night, player=people[JEROME])
    entry_register(tournament=night, player=people[TYPED])
    page = as_alice.get(
        _merge_url(club, people[TYPED]), {"into": str(people[JEROME].pk)}
    ).content.decode()
    assert "Friday night" in page and "two people" in page
    assert '<button type="submit">Merge' not in page  # no merge button under a refusal
    with pytest.raises(LeagueError, match="Friday night"):
        player_merge(kept=people[JEROME], merged=people[TYPED], by=club.memberships.first().user)
    assert TournamentEntry.objects.filter(player=people[TYPED]).exists()


def test_the_account_moves_when_only_one_has_one(club, people, bob, alice) -> None:
    typed = people[TYPED]
    typed.user = bob
    typed.save()
    player_merge(kept=people[JEROME], merged=typed, by=alice)
    assert Player.objects.get(pk=people[JEROME].pk).user == bob
    assert PlayerMerge.objects.get().moved["account"] == 1


def test_refused_when_both_have_different_accounts(club, people, alice, bob) -> None:
    jerome, typed = people[JEROME], people[TYPED]
    Player.objects.filter(pk=jerome.pk).update(user=alice)
    Player.objects.filter(pk=typed.pk).update(user=bob)
    jerome.refresh_from_db()
    typed.refresh_from_db()
    with pytest.raises(LeagueError, match="two different accounts"):
        player_merge(kept=jerome, merged=typed, by=alice)
    assert Player.objects.filter(pk=typed.pk, user=bob).exists()


def test_another_clubs_player_is_not_a_choice(club, people, as_alice) -> None:
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, name=JEROME)
    response = as_alice.post(_merge_url(club, people[TYPED]), {"into": str(stranger.pk)})
    assert response.status_code == 422 and "into" in response.context["form"].errors
    assert Player.objects.count() == 7


@pytest.mark.parametrize("value", ["", "abc", "٣", "9" * 40, "-1"])
def test_hostile_choices_are_refused_naming_the_field(club, people, as_alice, value) -> None:
    response = as_alice.post(_merge_url(club, people[TYPED]), {"into": value})
    assert response.status_code == 422 and "into" in response.context["form"].errors


def test_a_player_is_not_merged_with_themselves(club, people, alice) -> None:
    preview = merge_preview(kept=people[TYPED], merged=people[TYPED])
    assert preview.refusal
    with pytest.raises(LeagueError):
        player_merge(kept=people[TYPED], merged=people[TYPED], by=alice)


def test_a_second_merge_of_the_same_player_is_refused(club, people, alice) -> None:
    """Two directors merging at once: the second finds the player gone, and says so."""
    jerome, typed = people[JEROME], people[TYPED]
    player_merge(kept=jerome, merged=typed, by=alice)
    with pytest.raises(LeagueError, match="no longer exists"):
        player_merge(kept=jerome, merged=typed, by=alice)
    with pytest.raises(LeagueError, match="no longer exists"):
        player_merge(kept=typed, merged=jerome, by=alice)
    assert PlayerMerge.objects.count() == 1


def test_earlier_merges_follow_the_kept_player(club, people, alice) -> None:
    player_merge(kept=people[TYPED], merged=people["Dan"], by=alice)
    player_merge(kept=people[JEROME], merged=people[TYPED], by=alice)
    assert set(PlayerMerge.objects.values_list("kept__name", flat=True)) == {JEROME}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_two_directors_merging_at_once_make_one_merge(club, people, alice, round_) -> None:
    """One merges Jerome into Jérôme while the other merges Jérôme into Jerome, each on its own
    connection at the same instant: one merge happens, the other is refused saying why."""
    jerome, typed = people[JEROME], people[TYPED]
    barrier = threading.Barrier(2)
    results: list[object] = [None, None]

    def merge(i: int, kept: Player, merged: Player) -> None:
        try:
            connection.ensure_connection()
            barrier.wait()
            results[i] = player_merge(kept=kept, merged=merged, by=alice)
        except Exception as exc:  # the loser's answer is what the test checks
            results[i] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=merge, args=(0, jerome, typed)),
        threading.Thread(target=merge, args=(1, typed, jerome)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(isinstance(r, PlayerMerge) for r in results) == 1
    refused = [r for r in results if not isinstance(r, PlayerMerge)]
    assert isinstance(refused[0], LeagueError) and "no longer exists" in str(refused[0])
    assert PlayerMerge.objects.count() == 1
    assert Player.objects.filter(pk__in=[jerome.pk, typed.pk]).count() == 1


def test_the_merge_page_shows_the_latest_merges(club, people, alice, as_alice) -> None:
    player_merge(kept=people[JEROME], merged=people[TYPED], by=alice)
    page = as_alice.get(_merge_url(club, people["Ann"])).content.decode()
    assert f"{TYPED} into {JEROME}, by alice on " in page
