"""A restore never lends power to an existing account by its name: the backup's accounts are
made new (no usable password, another name when theirs is taken), an existing account takes a
backup's place only when the operator maps it by name, and never a superuser or staff account."""

from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from leagues.backup import BackupError, club_export, club_import
from leagues.clubs.models import Club, Membership
from leagues.clubs.roles import Role
from leagues.tournaments.models import Tournament
from scorecards.models import Game
from tests.backup_club import full_club_build

pytestmark = pytest.mark.django_db

_DOCUMENT: list[dict] = []


def _document() -> dict:
    """The full club's backup (olga owner, dora director), with the database emptied."""
    if not _DOCUMENT:
        _DOCUMENT.append(club_export(full_club_build()))
    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    return copy.deepcopy(_DOCUMENT[0])


_ACCOUNT_KEYS = {"username", "created_by", "entered_by", "by", "user"}


def _rename(document: dict, old: str, new: str) -> None:
    """The backup's account `old` called `new`, everywhere a row names it."""
    stack: list = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in _ACCOUNT_KEYS and value == old:
                    item[key] = new
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


def _roles(club: Club) -> dict[str, str]:
    return {m.user.username: m.role for m in club.memberships.select_related("user")}


def test_a_backup_naming_the_superuser_as_owner_gives_it_nothing() -> None:
    document = _document()
    root = get_user_model().objects.create_superuser("root", "root@example.org", "root pass 42")
    _rename(document, "olga", "root")  # the owner's row now says "root"

    club = club_import(data=document)

    assert not Membership.objects.filter(user=root).exists()
    assert _roles(club)["root-2"] == Role.OWNER
    made = get_user_model().objects.get(username="root-2")
    assert not made.has_usable_password() and not made.is_staff and not made.is_superuser
    root.refresh_from_db()
    assert root.check_password("root pass 42") and root.email == "root@example.org"


def test_an_existing_account_with_a_backup_name_keeps_no_role_and_a_new_account_gets_it() -> None:
    document = _document()
    existing = get_user_model().objects.create_user("Olga", password="her own 12345")

    club = club_import(data=document)

    # "olga" is taken ignoring case: the backup's olga is a new account named olga-2.
    assert _roles(club) == {"olga-2": Role.OWNER, "dora": Role.DIRECTOR, "ulla": Role.MEMBER}
    assert not Membership.objects.filter(user=existing).exists()
    existing.refresh_from_db()
    assert existing.check_password("her own 12345")


def test_derived_names_do_not_collide_with_names_the_backup_also_brings() -> None:
    document = _document()
    document["members"].append(
        {"username": "olga-2", "email": "", "first_name": "", "last_name": "", "role": "member"}
    )
    get_user_model().objects.create_user("olga")

    club = club_import(data=document)

    # The backup's olga-2 keeps its name; its olga, whose name is taken, becomes olga-3.
    assert _roles(club) == {
        "olga-3": Role.OWNER,
        "olga-2": Role.MEMBER,
        "dora": Role.DIRECTOR,
        "ulla": Role.MEMBER,
    }


def test_a_long_taken_name_is_shortened_to_fit_with_its_number() -> None:
    document = _document()
    long_name = "o" * 150
    _rename(document, "olga", long_name)
    get_user_model().objects.create_user(long_name)

    club = club_import(data=document)

    assert _roles(club)["o" * 148 + "-2"] == Role.OWNER


def test_the_operator_maps_a_backup_account_to_an_existing_one_by_name() -> None:
    document = _document()
    olga = get_user_model().objects.create_user("olga.k", password="her own 12345")

    club = club_import(data=document, accounts={"olga": "olga.k"})

    assert _roles(club) == {"olga.k": Role.OWNER, "dora": Role.DIRECTOR, "ulla": Role.MEMBER}
    olga.refresh_from_db()
    assert olga.check_password("her own 12345")


@pytest.mark.parametrize(
    ("accounts", "where"),
    [
        ({"olga": "root"}, "accounts.olga: 'root' is a staff account"),
        ({"olga": "staffer"}, "accounts.olga: 'staffer' is a staff account"),
        ({"olga": "nobody"}, "accounts.olga: no account named 'nobody'"),
        ({"mallory": "plain"}, "accounts.mallory: the backup names no such account"),
        ({"olga": "plain", "dora": "plain"}, "accounts.dora: 'plain' is given for two"),
    ],
)
def test_a_mapping_to_a_staff_or_missing_account_is_refused_and_writes_nothing(
    accounts, where
) -> None:
    document = _document()
    users = get_user_model()
    users.objects.create_superuser("root", "root@example.org", "x")
    users.objects.create_user("staffer", is_staff=True)
    users.objects.create_user("plain")
    before = users.objects.count()

    with pytest.raises(BackupError) as raised:
        club_import(data=document, accounts=accounts)

    assert where in str(raised.value)
    assert users.objects.count() == before and not Club.objects.exists()


def test_the_command_maps_accounts_only_when_told(tmp_path, capsys) -> None:
    document = _document()
    get_user_model().objects.create_superuser("olga", "olga@example.org", "x")
    get_user_model().objects.create_user("dora")
    path = tmp_path / "club.json"
    path.write_text(json.dumps(document))

    with pytest.raises(CommandError, match=r"nothing imported: accounts\.olga: .*staff"):
        call_command("club_import", str(path), "--account", "olga=olga")
    with pytest.raises(CommandError, match="expected NAME=EXISTING"):
        call_command("club_import", str(path), "--account", "olga")
    call_command("club_import", str(path), "--account", "dora=dora")

    club = Club.objects.get()
    assert _roles(club) == {"olga-2": Role.OWNER, "dora": Role.DIRECTOR, "ulla": Role.MEMBER}
    assert "restored club" in capsys.readouterr().out


def test_a_removed_members_links_come_back_as_the_same_names() -> None:
    """Game created_by, seat claim user and hand version author of someone no longer a member:
    kept as names, so the club restored into another (empty) database compares equal."""
    from scorecards.models import HandVersion, SeatClaim

    club = full_club_build()
    dora = get_user_model().objects.get(username="dora")
    game = Game.objects.filter(club=club).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(created_by=dora)
    SeatClaim.objects.filter(game=game).update(user=dora)
    assert HandVersion.objects.filter(game__club=club, by=dora).exists()
    assert SeatClaim.objects.filter(game=game, user=dora).exists()
    started = Game.objects.filter(club=club, created_by=dora).count()
    Membership.objects.filter(club=club, user=dora).delete()
    document = club_export(club)
    assert {"username": "dora", "first_name": "Dóra", "last_name": ""} in document["former_members"]

    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()
    restored = club_import(data=json.loads(json.dumps(document)))

    assert club_export(restored) == document
    dora = get_user_model().objects.get(username="dora")
    assert not dora.has_usable_password()
    assert not Membership.objects.filter(user=dora).exists()
    assert Game.objects.filter(club=restored, created_by=dora).count() == started > 0
    assert SeatClaim.objects.filter(game__club=restored, user=dora).exists()
    assert HandVersion.objects.filter(game__club=restored, by=dora).exists()
