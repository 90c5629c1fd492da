"""Backups that happen: every club written on a schedule, old ones pruned, and a drill that
restores the newest into a scratch database and finds it equal (or says what differs)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from kaiser_league.celery import app
from leagues.backup import club_export
from leagues.backup.periodic import backups_latest, backups_prune, backups_write
from leagues.backup.tasks import club_backups_write
from leagues.clubs.models import Club
from tests.leagues_helpers import GAME_1, play

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 25, 3, 0, tzinfo=datetime.UTC)


def test_every_club_is_written_and_one_failure_stops_no_other(club, tmp_path, monkeypatch) -> None:
    other = Club.objects.create(name="Moose Jaw", slug="moose-jaw")
    import leagues.backup.periodic as periodic

    def export(club_):
        if club_.slug == "moose-jaw":
            raise RuntimeError("disk full")
        return club_export(club_)

    monkeypatch.setattr(periodic, "club_export", export)
    written = backups_write(tmp_path, NOW)
    assert [path.name for path in written] == ["regina-20261125T030000Z.kaiser-club.json"]
    assert json.loads(written[0].read_text()) == club_export(club)
    assert not (tmp_path / other.slug).exists() or not list((tmp_path / other.slug).iterdir())
    assert not list(tmp_path.rglob("*.partial"))


def _touch(folder: Path, when: datetime.datetime) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{folder.name}-{when.strftime('%Y%m%dT%H%M%SZ')}.kaiser-club.json"
    path.write_text("{}")
    return path


def test_backups_past_the_kept_days_go_but_the_newest_of_each_club_stays(tmp_path) -> None:
    days = [NOW - datetime.timedelta(days=n) for n in (30, 20, 10, 1)]
    regina = [_touch(tmp_path / "regina", day) for day in days]
    lonely = _touch(tmp_path / "lonely", NOW - datetime.timedelta(days=90))

    deleted = backups_prune(tmp_path, 14, NOW)

    assert sorted(deleted) == sorted(regina[:2])
    assert [path.exists() for path in regina] == [False, False, True, True]
    assert lonely.exists()  # the only backup of its club, however old
    assert backups_latest(tmp_path) == [lonely, regina[-1]]


def test_the_scheduled_task_writes_into_backup_dir(club, tmp_path, settings) -> None:
    assert "leagues.club_backups_write" in app.tasks
    assert any(
        entry["task"] == "leagues.club_backups_write"
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    )
    settings.BACKUP_DIR = str(tmp_path)
    assert club_backups_write() == 1
    assert len(list((tmp_path / club.slug).glob("*.kaiser-club.json"))) == 1
    settings.BACKUP_DIR = ""
    assert club_backups_write() == 0


def test_the_drill_restores_the_newest_backup_and_finds_it_equal(
    club, players, tmp_path, capsys
) -> None:
    play(club, None, players, GAME_1)
    call_command("backup_drill", "--dir", str(tmp_path), "--write")
    assert "OK    regina-" in capsys.readouterr().out


def test_the_drill_says_what_differs_in_a_backup_that_does_not_come_back(
    club, players, tmp_path, capsys
) -> None:
    play(club, None, players, GAME_1)
    (path,) = backups_write(tmp_path, NOW)
    document = json.loads(path.read_text())
    # A field the restore does not carry back as written: the drill must notice.
    document["unknown_section"] = [1, 2, 3]
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="did not come back equal"):
        call_command("backup_drill", "--dir", str(tmp_path))
    assert "FAIL" in capsys.readouterr().out


def test_backup_dir_defaults_inside_the_project() -> None:
    assert Path(settings.BACKUP_DIR).is_absolute()
