"""A removed member's links (who started a game, claimed a seat, entered a hand and so authored
its version) travel with the backup as the same account names, through the commands an operator
runs: club_export to a file, club_import into another database (emptied here, or one where
the same names are taken and the operator maps every account), and compare equal."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from leagues.backup import club_export
from leagues.clubs.models import Club, Membership, Player
from leagues.clubs.roles import Role
from leagues.clubs.services import membership_remove
from leagues.tournaments.models import Tournament
from scorecards.models import Game, HandVersion, SeatClaim
from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, hand_record, seat_claim

pytestmark = pytest.mark.django_db

HAND = HandInput(bidder=0, bid=7, tricks=(6, 2), five_hearts=0, three_spades=1)
LINKS = ("created_by", "seat_claims", "hand_versions")


def _club_with_a_removed_member() -> Club:
    users = get_user_model().objects
    olga = users.create_user("olga", first_name="Olga")
    mallory = users.create_user("mallory", first_name="Mallory", last_name="M.")
    club = Club.objects.create(name="Removal", slug="removal")
    Membership.objects.create(club=club, user=olga, role=Role.OWNER)
    Membership.objects.create(club=club, user=mallory, role=Role.DIRECTOR)
    players = [Player.objects.create(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Di")]
    game = game_start(
        seats=players, rules=rules_build({"preset": "standard"}), club=club, created_by=mallory
    )
    seat_claim(game=game, seat=0, phone="phone-of-mallory", user=mallory)
    hand_record(game=game, hand=HAND, entered_by=mallory, entered_by_name="Mallory")
    membership_remove(membership=Membership.objects.get(user=mallory), by=olga)
    # Removal now revokes the member's claims; a database from before that still has one, and
    # a backup must carry it all the same.
    if not SeatClaim.objects.filter(game=game, user=mallory).exists():
        SeatClaim.objects.filter(game=game, seat=0).delete()
        SeatClaim.objects.create(game=game, seat=0, phone="phone-of-mallory", user=mallory)
    return club


def _links(club: Club) -> dict[str, list]:
    """Every account a row of the club links to, by name."""
    return {
        "created_by": sorted(
            (g.created_by.username if g.created_by else None)
            for g in Game.objects.filter(club=club).select_related("created_by")
        ),
        "seat_claims": sorted(
            (c.seat, c.user.username if c.user else None)
            for c in SeatClaim.objects.filter(game__club=club).select_related("user")
        ),
        "hand_versions": sorted(
            (v.number, v.action, v.by.username if v.by else None)
            for v in HandVersion.objects.filter(game__club=club).select_related("by")
        ),
        "entered_by": sorted(
            h.entered_by.username if h.entered_by else "-"
            for g in Game.objects.filter(club=club)
            for h in g.hands.select_related("entered_by")
        ),
    }


def _wipe() -> None:
    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def test_a_removed_members_links_survive_export_and_import_into_an_empty_database(
    tmp_path,
) -> None:
    club = _club_with_a_removed_member()
    before = _links(club)
    assert before["created_by"] == ["mallory"] and before["seat_claims"] == [(0, "mallory")]
    assert ("mallory" in str(before["hand_versions"])) and before["entered_by"] == ["mallory"]
    document = club_export(club)
    assert [f["username"] for f in document["former_members"]] == ["mallory"]
    path = tmp_path / "removal.json"
    call_command("club_export", club.slug, "--output", str(path))

    _wipe()
    call_command("club_import", str(path))

    restored = Club.objects.get(slug="removal")
    assert _links(restored) == before
    assert club_export(restored) == json.loads(path.read_text(encoding="utf-8"))
    mallory = get_user_model().objects.get(username="mallory")
    assert not Membership.objects.filter(user=mallory).exists()
    assert not mallory.has_usable_password()


def test_into_a_database_with_the_same_names_the_operator_maps_the_removed_member_too(
    tmp_path,
) -> None:
    club = _club_with_a_removed_member()
    before = _links(club)
    path = tmp_path / "removal.json"
    call_command("club_export", club.slug, "--output", str(path))
    # Another server: the same people have accounts there already; the club is not there.
    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()

    call_command("club_import", str(path), "--account", "olga=olga", "--account", "mallory=mallory")

    restored = Club.objects.get(slug="removal")
    assert _links(restored) == before
    assert get_user_model().objects.count() == 2  # no olga-2, no mallory-2
    assert club_export(restored) == json.loads(path.read_text(encoding="utf-8"))
