"""A night played on a hall laptop, carried to the club's server: exported as one bundle,
uploaded into the club, and the season adds up the same on both sides."""

from __future__ import annotations

import datetime
import json

import pytest

from leagues.club_removal import club_remove
from leagues.clubs.models import Club, Membership, Player, Season
from leagues.clubs.roles import Role
from leagues.clubs.services import LeagueError
from leagues.hall.bundle import BundleError, bundle_read, night_bundle
from leagues.hall.upload import night_upload
from leagues.standings.models import PlayerStanding
from leagues.standings.rebuild import standings_rebuild
from leagues.tournaments.models import Tournament, TournamentStatus
from leagues.tournaments.services import (
    entry_register,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.import_names import PlayersAlike
from scorecards.models import Game
from scorecards.services import hand_record
from tests.leagues_helpers import trump

pytestmark = pytest.mark.django_db

LEAD = trump(0, 7, (7, 1), 0, 1)  # side 0: +12 / -2
MIRROR = trump(1, 7, (1, 7), 1, 0)  # side 1: +12 / -2
NAMES = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus"]
FIGURES = (
    "games",
    "wins",
    "draws",
    "points_for",
    "points_against",
    "hands",
    "nights",
    "night_wins",
)


def _laptop_night(club: Club) -> tuple[Season, Tournament]:
    """Round 1: one table of seven players (three sit out), drawn; a walk-in arrives; rounds 2
    and 3 seat eight at two tables, won by the side that leads. Every table is ended by its
    round (the next draw, the night's end)."""
    season = Season.objects.create(club=club, name="Laptop", starts_on=datetime.date(2026, 9, 1))
    night = tournament_create(
        club=club,
        name="Friday at the hall",
        date=datetime.date(2026, 11, 20),
        rounds=3,
        hands_per_round=2,
        extra_hand_on_tie=False,
        season=season,
    )
    for name in NAMES:
        entry_register(tournament=night, player=name, checked_in=True)
    for number in range(3):
        if number == 1:
            entry_register(tournament=night, player="Walker")
        for position, table in enumerate(round_draw(tournament=night).tables):
            for hand in [LEAD, MIRROR] if number == 0 and position == 0 else [LEAD, LEAD]:
                hand_record(game=table.game, hand=hand)
    tournament_finish(tournament=night)
    night.refresh_from_db()
    return season, night


def _exported(club: Club, night: Tournament):
    """The night's bundle, read as the server reads it, and the laptop's club gone: the server is
    another database, where none of the laptop's rows exist."""
    bundle = bundle_read(_bytes(night_bundle(night)))
    club_remove(club=club)
    return bundle


def _server_club(alice) -> tuple[Club, Season]:
    club = Club.objects.create(name="Club on the server", slug="server")
    Membership.objects.create(club=club, user=alice, role=Role.OWNER)
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 9, 1))
    return club, season


def _standings(season: Season, *, rebuild: bool = True) -> dict[str, tuple]:
    if rebuild:
        standings_rebuild(season_id=season.pk)
    return {
        row.player.name: tuple(getattr(row, name) for name in FIGURES)
        for row in PlayerStanding.objects.filter(season=season).select_related("player")
    }


def _bytes(document: dict) -> bytes:
    return json.dumps(document).encode()


def test_a_night_uploaded_into_the_server_gives_the_same_standings(
    club, alice, django_capture_on_commit_callbacks
) -> None:
    laptop_season, night = _laptop_night(club)
    expected = _standings(laptop_season)
    assert len(expected) == 8 and any(row[6] for row in expected.values())  # nights counted
    laptop_games = [
        (g.scores, g.status, g.finish_reason, g.played_on)
        for g in Game.objects.filter(club=club).order_by("pk")
    ]
    server, season = _server_club(alice)
    bundle = _exported(club, night)

    with django_capture_on_commit_callbacks(execute=True):
        uploaded, added = night_upload(club=server, bundle=bundle, by=alice, season=season)

    assert added and uploaded.status == TournamentStatus.FINISHED
    assert uploaded.club == server and uploaded.name == night.name and uploaded.date == night.date
    assert _standings(season, rebuild=False) == expected  # the upload rebuilt the season
    assert _standings(season) == expected
    server_games = Game.objects.filter(club=server).order_by("pk")
    assert [
        (g.scores, g.status, g.finish_reason, g.played_on) for g in server_games
    ] == laptop_games


def test_uploading_the_same_night_twice_changes_nothing(club, alice) -> None:
    _laptop_season, night = _laptop_night(club)
    server, season = _server_club(alice)
    bundle = _exported(club, night)
    first, _ = night_upload(club=server, bundle=bundle, by=alice, season=season)
    counts = (Game.objects.count(), Player.objects.count(), Tournament.objects.count())

    again, added = night_upload(club=server, bundle=bundle, by=alice, season=season)

    assert not added and again == first
    assert (Game.objects.count(), Player.objects.count(), Tournament.objects.count()) == counts


def test_a_name_that_only_looks_like_a_player_is_asked_about(club, alice) -> None:
    _laptop_season, night = _laptop_night(club)
    server, season = _server_club(alice)
    eve = Player.objects.create(club=server, name="Ève")
    bundle = _exported(club, night)
    before = Game.objects.count()

    with pytest.raises(PlayersAlike) as refused:
        night_upload(club=server, bundle=bundle, by=alice, season=season)
    assert list(refused.value.alike) == ["Eve"]
    assert Game.objects.count() == before and not Tournament.objects.filter(club=server).exists()

    uploaded, _ = night_upload(
        club=server, bundle=bundle, by=alice, season=season, same={"Eve": str(eve.pk)}
    )
    assert uploaded.entries.filter(player=eve).exists()
    assert not Player.objects.filter(club=server, name="Eve").exists()


def test_only_a_director_or_owner_uploads(club, alice, bob) -> None:
    _laptop_season, night = _laptop_night(club)
    server, season = _server_club(alice)
    Membership.objects.create(club=server, user=bob, role=Role.SCORER)
    bundle = _exported(club, night)
    for user in (bob, None):
        with pytest.raises(LeagueError):
            night_upload(club=server, bundle=bundle, by=user, season=season)
    assert not Game.objects.filter(club=server).exists()


def test_a_file_changed_after_export_is_refused_whole(club) -> None:
    _laptop_season, night = _laptop_night(club)
    document = night_bundle(night)
    document["games"][0]["record"]["hands"][0]["bid"] = 12
    with pytest.raises(BundleError) as refused:
        bundle_read(_bytes(document))
    assert refused.value.field == "digest"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (b"\xff\xfe", "file"),
        (b"[" * 100_000, "[0][0][0]"),  # too deep, refused before parsing, at its place
        (b'{"format": "kaiser-game/1"}', "format"),
    ],
)
def test_a_file_that_is_no_bundle_is_refused_naming_the_place(data: bytes, field: str) -> None:
    with pytest.raises(BundleError) as refused:
        bundle_read(data)
    assert refused.value.field.startswith(field)


def test_a_night_still_going_on_is_not_exported(club) -> None:
    night = tournament_create(
        club=club, name="Tonight", date=datetime.date(2026, 11, 20), rounds=2, hands_per_round=2
    )
    with pytest.raises(BundleError):
        night_bundle(night)
