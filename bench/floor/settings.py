"""Production settings plus the floor views (bench only): the app's settings unchanged but for
the URLconf (the app's URLs and the floor's) and one more template directory.

`bench/harness.py` serves with these when asked (`production_env(floor=True)`), so the pages and
the floor go through the same gunicorn, middleware and database in one run.
"""

from pathlib import Path
from typing import cast

from kaiser_league.settings import *  # noqa: F403
from kaiser_league.settings import TEMPLATES as APP_TEMPLATES

ROOT_URLCONF = "bench.floor.urls"
FLOOR_TEMPLATES = Path(__file__).resolve().parent / "templates"
# New list and dict: the app's settings module keeps its own untouched.
TEMPLATES = [
    {**APP_TEMPLATES[0], "DIRS": [*cast("list[Path]", APP_TEMPLATES[0]["DIRS"]), FLOOR_TEMPLATES]},
    *APP_TEMPLATES[1:],
]
