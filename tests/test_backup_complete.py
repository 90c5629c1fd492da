"""A backup carries the whole club: tournament nights, invitations, corrections, confirmations,
accented and case-different names; a restore gives back the same games, scores, standings,
ratings and versions, on the same database and across SQLite and PostgreSQL both ways."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from leagues.backup import BackupError, club_export, club_import
from leagues.clubs.models import Club
from scorecards.models import Game
from tests.backup_club import club_summary, derived_rebuild, full_club_build

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def _wipe() -> None:
    from leagues.tournaments.models import Tournament

    Tournament.objects.all().delete()
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def _restore(document: dict) -> dict:
    club = club_import(data=json.loads(json.dumps(document)))
    derived_rebuild(club)
    return club_summary(club)


def test_restore_gives_back_every_object_and_the_same_standings_and_ratings() -> None:
    before = club_summary(full_club_build())
    document = before["document"]
    assert len(document["tournaments"]) == 1
    assert len(document["tournament_tables"]) == 2
    assert len(document["tournament_sitouts"]) == 1
    assert len(document["invitations"]) == 1
    actions = {v["action"] for v in document["hand_versions"]}
    assert actions == {"enter", "correct", "confirm", "undo"}
    # A seat claim let go, and the seat each confirmation came from.
    [release] = document["seat_releases"]
    assert release["seat"] == 2 and release["by_name"] == "Olga" and release["claimed_at"]
    confirmed = [h for g in document["games"] for h in g["hands"] if h["confirmed_at"]]
    assert confirmed and all(h["confirmed_seat"] in (0, 1, 2, 3) for h in confirmed)
    # The waiting table does not count, the confirmed one does.
    assert before["counts"][:2] == [True, False]
    assert before["standings"] and before["ratings"]
    _wipe()

    after = _restore(document)

    assert after == before


def test_the_same_name_in_another_case_is_one_player_in_a_document() -> None:
    document = club_summary(full_club_build())["document"]
    document["players"].append({"name": "ÉLISE", "username": None})
    _wipe()
    with pytest.raises(BackupError, match=r"players\[9\]\.name"):
        club_import(data=document)


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: d["club"].update(slug="Bad Slug!"), "club.slug"),
        (lambda d: d["seasons"][0].update(starts_on="2026-02-30"), "seasons[0].starts_on"),
        (lambda d: d["players"][0].update(name="A\ud800"), "players[0].name"),
        (lambda d: d["tournaments"][0].update(name="\ud800"), "tournaments[0].name"),
        (
            lambda d: d["tournaments"][0].update(sitout_points=10**12),
            "tournaments[0].sitout_points",
        ),
        (lambda d: d["tournaments"][0].update(rounds="4"), "tournaments[0].rounds"),
        (lambda d: d["tournaments"][0].update(format="knockout"), "tournaments[0].format"),
        (lambda d: d["tournaments"][0].update(date="tomorrow"), "tournaments[0].date"),
        (lambda d: d["tournament_tables"][0].update(game=999), "tournament_tables[0].game"),
        (lambda d: d["invitations"][0].update(created_by="nobody"), "invitations[0].created_by"),
        (lambda d: d["hand_versions"][0].update(after={"\ud800": 1}), "hand_versions[0].after"),
    ],
)
def test_a_bad_value_anywhere_is_refused_naming_the_field(damage, where) -> None:
    document = club_summary(full_club_build())["document"]
    damage(document)
    _wipe()
    with pytest.raises(BackupError) as raised:
        club_import(data=document)
    assert where in str(raised.value)
    assert not Club.objects.exists()


def test_club_import_command_refuses_a_bad_slug_without_a_traceback(tmp_path, capsys) -> None:
    from django.core.management import CommandError, call_command

    document = club_summary(full_club_build())["document"]
    _wipe()
    path = tmp_path / "club.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="slug"):
        call_command("club_import", str(path), "--slug", "Bad Slug!")
    document["seasons"][0]["ends_on"] = "2026-13-01"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match=r"seasons\[0\]\.ends_on"):
        call_command("club_import", str(path))
    assert not Club.objects.exists()


def _other_database(command: str, document: dict | None = None) -> dict:
    """Run tests.backup_club in a fresh process on SQLite (a new file)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "KAISER_REQUIRE_REAL_SERVICES"}
    }
    env["SQLITE_PATH"] = str(Path(os.environ.get("TMPDIR", "/tmp")) / f"kl-cross-{os.getpid()}.db")
    Path(env["SQLITE_PATH"]).unlink(missing_ok=True)
    env["DJANGO_SETTINGS_MODULE"] = "kaiser_league.settings"
    env.setdefault("SECRET_KEY", "cross-database-test")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tests.backup_club", command],
            input=json.dumps(document) if document is not None else "",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=300,
            check=False,
        )
    finally:
        Path(env["SQLITE_PATH"]).unlink(missing_ok=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.postgres
def test_a_backup_crosses_between_sqlite_and_postgresql_both_ways() -> None:
    assert connection.vendor == "postgresql"
    # Made on SQLite, restored here on PostgreSQL.
    on_sqlite = _other_database("build")
    assert _restore(on_sqlite["document"]) == on_sqlite
    _wipe()
    # Made here on PostgreSQL, restored on SQLite.
    on_postgres = club_summary(full_club_build())
    assert _other_database("restore", on_postgres["document"]) == on_postgres
    assert club_export(Club.objects.get()) == on_postgres["document"]


def test_a_restored_account_sets_its_password_through_the_reset_page(client, mailoutbox) -> None:
    import re

    document = club_summary(full_club_build())["document"]
    _wipe()
    club_import(data=document)
    olga = get_user_model().objects.get(username="olga")
    assert not olga.has_usable_password()

    answer = client.post("/accounts/password-reset/", {"email": "OLGA@example.org"})

    assert answer.status_code == 302
    assert len(mailoutbox) == 1
    link = re.search(r"/accounts/reset/\S+/", mailoutbox[0].body).group(0)
    form_page = client.get(link, follow=True)
    new = "a long new passphrase 42"
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert done.status_code == 302
    olga.refresh_from_db()
    assert olga.check_password(new)


def test_an_inactive_restored_account_gets_no_reset_mail(client, mailoutbox) -> None:
    document = club_summary(full_club_build())["document"]
    _wipe()
    club_import(data=document)
    get_user_model().objects.filter(username="olga").update(is_active=False)
    client.post("/accounts/password-reset/", {"email": "olga@example.org"})
    assert mailoutbox == []


def test_changes_by_someone_no_longer_a_member_keep_their_name_and_restore() -> None:
    from leagues.clubs.models import Membership

    club = full_club_build()
    Membership.objects.filter(club=club, user__username="dora").delete()
    document = club_export(club)
    corrections = [v for v in document["hand_versions"] if v["action"] == "correct"]
    # The link is kept as a name: the account is listed as a former member, with no role.
    assert corrections and all(v["by"] == "dora" and v["by_name"] == "Dóra" for v in corrections)
    assert document["former_members"] == [
        {"username": "dora", "first_name": "Dóra", "last_name": ""}
    ]
    assert "dora" not in {m["username"] for m in document["members"]}
    _wipe()
    restored = club_import(data=document)
    assert club_export(restored) == document
    assert not Membership.objects.filter(user__username="dora").exists()
