"""The bounds of a backup, checked before the work they would cost: the file's size, its JSON
nesting and number sizes (before parsing), the objects of a section, the versions of a hand;
and the club short names the site's own addresses would shadow."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from kaiser_league.json_read import JsonRefused, json_read
from leagues.backup.fields import BackupError

# A club of several busy seasons (about 2,000 games with their history) writes this much; on
# SQLite it restores in under a minute. An operator may allow more (club_import --max-mb).
MAX_BYTES = 16 * 1024 * 1024
# A document nests about eight deep (games[i].record.hands[j].tricks); room to spare.
MAX_DEPTH = 32
# Longer numbers than any column takes (a 64-bit integer has 19 digits) are refused unread.
MAX_NUMBER_CHARS = 25
# Objects in one list (members, players, games, each section) and versions of one hand.
MAX_OBJECTS = 200_000
MAX_VERSIONS_PER_HAND = 200


def document_read(raw: bytes, *, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON document in `raw`, or BackupError saying why not: larger than `max_bytes`, or
    refused by `kaiser_league.json_read` (not UTF-8, nested deeper than MAX_DEPTH, a number
    longer than MAX_NUMBER_CHARS characters, NaN or Infinity, not JSON), naming the place.
    Size, depth and numbers are checked before anything is parsed."""
    if len(raw) > max_bytes:
        raise BackupError("", f"the file is larger than {max_bytes // (1024 * 1024)} MB")
    try:
        return json_read(raw, max_depth=MAX_DEPTH, max_number_chars=MAX_NUMBER_CHARS)
    except JsonRefused as exc:
        raise BackupError(exc.path, exc.message) from None


def count_check(items: list[Any], path: str) -> list[Any]:
    """`items` if it holds at most MAX_OBJECTS objects, else BackupError naming `path`."""
    if len(items) > MAX_OBJECTS:
        raise BackupError(path, f"more than {MAX_OBJECTS} objects")
    return items


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


@cache
def _club_routes() -> tuple[tuple[str, str], ...]:
    """Every address with the club's short name in it, and the view it should reach, read from
    the URLconf (no list kept by hand): (route, view's dotted name)."""
    found = []
    for route in _routes(get_resolver().url_patterns):
        if "<slug:slug>" in route and not route.startswith("^"):
            sample = "/" + _CONVERTER.sub(_sample("kaiser-club-sample"), route)
            match = resolve(sample)
            found.append((route, match._func_path))
    return tuple(found)


def _sample(slug: str) -> Any:
    def fill(match: re.Match[str]) -> str:
        if match.group(2) == "slug":
            return slug
        return "1" if match.group(1) in ("int", "path") else "x"

    return fill


def slug_shadow_check(slug: str, path: str) -> str:
    """`slug` if every club address built with it reaches the club's own page, else BackupError
    naming `path` and the address another page would answer (e.g. `new`: /clubs/new/ is the
    create-club page)."""
    for route, view in _club_routes():
        address = "/" + _CONVERTER.sub(_sample(slug), route)
        try:
            reached = resolve(address)._func_path
        except Resolver404:
            reached = ""
        if reached != view:
            raise BackupError(path, f"{slug!r} is reserved: {address} is another page")
    return slug
