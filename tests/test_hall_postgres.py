"""The hall laptop's round trip on the real parts: a night played on SQLite (the laptop's
embedded default, in another process) is uploaded into PostgreSQL (the club's server), and the
season's standings come out the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leagues.hall.bundle import bundle_read
from leagues.hall.upload import night_upload
from tests.test_hall_upload import _server_club, _standings

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

SCRIPT = Path(__file__).with_name("hall_laptop_script.py")


def test_a_night_played_on_sqlite_uploads_into_postgresql_with_the_same_standings(
    alice, tmp_path
) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "SQLITE_TEST_PATH"}
    }
    env["SQLITE_PATH"] = str(tmp_path / "laptop.sqlite3")
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-4000:]
    laptop = json.loads(done.stdout.strip().splitlines()[-1])
    server, season = _server_club(alice)

    night, added = night_upload(
        club=server,
        bundle=bundle_read(json.dumps(laptop["bundle"]).encode()),
        by=alice,
        season=season,
    )

    assert added and night.entries.count() == 8
    expected = {name: list(row) for name, row in laptop["standings"].items()}
    assert {name: list(row) for name, row in _standings(season).items()} == expected
