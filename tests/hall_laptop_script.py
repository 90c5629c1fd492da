"""Run as a program by tests/test_hall_postgres.py: the hall laptop's side of the round trip, on
its own SQLite database (SQLITE_PATH). Plays a night, prints the night's bundle and the laptop
season's standings as one JSON object."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402

from leagues.clubs.models import Club  # noqa: E402
from leagues.hall.bundle import night_bundle  # noqa: E402
from tests.test_hall_upload import _laptop_night, _standings  # noqa: E402

call_command("migrate", verbosity=0)
club = Club.objects.create(name="The hall laptop", slug="hall")
season, night = _laptop_night(club)
print(json.dumps({"bundle": night_bundle(night), "standings": _standings(season)}))
