"""The floor views: what any signed-in page of this server costs at the least, measured by the
same gunicorn, with the same production settings and middleware, beside the app's pages.

The app's own URLs never include them: gunicorn serves them only when the bench asks for
`DJANGO_SETTINGS_MODULE=bench.floor.settings` (`production_env(floor=True)`), whose URLconf is
the app's `urlpatterns` plus the two paths below. What each floor does is stated in
`bench/floor/views.py`.

This module holds what a bench client needs (no Django import): the two paths and the form the
floor POST sends.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.harness import HttpSession

FLOOR_GET = "/_bench/floor/"
FLOOR_POST = "/_bench/floor-post/"
_CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def floor_form(session: HttpSession) -> dict[str, str]:
    """The floor POST's form for this signed-in session: GET the floor page (untimed; it also
    sets the CSRF cookie) and take the token its form carries, as a browser's form post would.
    Raises when the floor does not answer 200 with a token (not signed in, or not served)."""
    status, _, page = session.get(FLOOR_GET)
    found = _CSRF.search(page)
    if status != 200 or found is None:
        raise RuntimeError(f"floor GET {FLOOR_GET}: HTTP {status}, no CSRF token in the page")
    return {"csrfmiddlewaretoken": found.group(1).decode(), "note": "floor"}
