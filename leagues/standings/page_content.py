"""The standings page's content (the filter, the table, the attendance and the sharing box),
drawn once for everything it is drawn from and kept in the cache.

Drawing it (django-tables2, the filter's widgets, a line per player) costs several times what
reading it costs. The key is made of what the content is drawn from, read first as plain
values: every stored value of the season's rows and the names of the players they point to,
every stored value of the club, of its seasons and of their snapshots (the "updated … ago"
text as shown), the nights held, the sharing box's addresses, the viewer's role, the page's
path and query, the part asked for and the language. A rebuild, a rename, a new night or a
setting changed makes a new key: nothing is ever cleared, and every process draws the same
content for the same key. What belongs to one person (the account, the CSRF tokens, the
rebuild failures shown to directors) is drawn around it on every request.
"""

from __future__ import annotations

import hashlib
from collections import namedtuple
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from django.core.cache import cache
from django.db.models import Model
from django.utils.safestring import SafeString, mark_safe

from kaiser_league.query_memo import compiled_once
from leagues.standings.models import PartnershipStanding, PlayerStanding

CONTENT = "leagues/_standings_content.html"
# The key holds the "updated … ago" text, which changes every second, then every minute: a
# kept content is soon asked no more. Fifteen minutes bound what a busy night leaves in the
# cache (a content a second of page views at most), where the tables' six hours would not.
CONTENT_SECONDS = 15 * 60
# Bump when the content's markup (the template, the tables' columns) changes in a way a shared
# cache outliving a deploy should not show; the package version covers django-tables2's own.
MARKUP = 1
_TABLES2 = version("django-tables2")

# The names read with each kind of row: what the table and the attendance show of its players.
_NAMES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "players": (PlayerStanding, ("player__name",)),
    "partnerships": (PartnershipStanding, ("first__name", "second__name")),
}
_ROW_TYPES: dict[str, Any] = {}


def _row_type(kind: str) -> Any:
    if kind not in _ROW_TYPES:
        model, names = _NAMES[kind]
        fields = [field.attname for field in model._meta.concrete_fields]
        _ROW_TYPES[kind] = namedtuple(
            f"{model.__name__}Values", [*fields, *(n.replace("__", "_") for n in names)]
        )
    return _ROW_TYPES[kind]


def _values_query(kind: str, season_id: int, min_games: int = 0) -> Any:
    model, names = _NAMES[kind]
    rows = model._default_manager.filter(season_id=season_id)
    if min_games:
        rows = rows.filter(games__gte=min_games)
    fields = [field.attname for field in model._meta.concrete_fields]
    return rows.order_by("pk").values_list(*fields, *names)


def row_values(season_id: int, kind: str, min_games: int = 0) -> list[Any]:
    """Every stored value of the season's standings rows of `kind` ("players" or
    "partnerships", the latter from `min_games` games) and their players' names: one query of
    tuples (compiled once per process), with the rows' figures as attributes (`row.nights`)."""
    row = _row_type(kind)
    at_least = min_games if kind == "partnerships" else 0
    samples: dict[str, tuple[int, int]] = {"season_id": (1, 2)}
    if at_least:
        samples["min_games"] = (1, 2)
    statement = compiled_once(
        ("standings_page_rows", kind, bool(at_least)),
        lambda **values: _values_query(kind, **values),
        **samples,
    )
    found = statement.values(season_id=season_id, min_games=at_least)
    return [row(*values) for values in found]


def stored(obj: Model | None) -> tuple[Any, ...] | None:
    """Every stored value of `obj` (None for none)."""
    if obj is None:
        return None
    return tuple(getattr(obj, field.attname) for field in obj._meta.concrete_fields)


def content_key(*parts: Any) -> str:
    what = repr((MARKUP, _TABLES2, *parts))
    return "standings-content:" + hashlib.blake2b(what.encode(), digest_size=16).hexdigest()


def content_html(key: str, draw: Callable[[], str]) -> SafeString:
    """The content kept under `key`, drawn by `draw` when it is not."""
    html = cache.get(key)
    if html is None:
        html = draw()
        cache.set(key, html, CONTENT_SECONDS)
    return mark_safe(html)  # drawn by our templates, which escape what they show
