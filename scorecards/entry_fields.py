"""The hand's tap fields of the entry form, blank, drawn once per process for each distinct
form.

A blank form (no values, no errors) is a pure function of what the fields read of the entry
(the seats' names, the bids, the kinds, the tricks, the auction's order, the table habits),
the language and the templates; the templates and catalogues are loaded once per process, so
every worker draws the same HTML for the same key and nothing here can differ per worker or go
stale: only whether a worker has drawn it yet. The fields are most of the sheet page's template
time (some 2 ms of a 66-hand page), and a table's form takes a handful of shapes in a game (the
auction's order turns with the dealer).

A form re-shown with values or errors is drawn live by the template, as before."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from threading import Lock
from typing import Any

from django.template.loader import get_template
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

FIELDS_TEMPLATE = "scorecards/_hand_fields.html"
# Entry items the fields never read (tests/test_entry_fields.py checks the templates): they
# change with every hand or viewer and would make every form a new one.
NOT_READ = frozenset(
    {"key", "number", "dealer", "dealer_name", "totals", "message", "phone_seat", "fields_html"}
)
# About 6 KB each: some 3 MB a process at most, for as many forms as 80 tables' dealers.
KEPT = 512

_drawn: OrderedDict[tuple[str, str], SafeString] = OrderedDict()
_lock = Lock()


class _Unkeyed(Exception):
    """A value whose text is not known from its repr (an object of another kind)."""


def _plain(value: Any) -> Any:
    """`value` as plain data whose repr is its content: lazy texts read in the active
    language, containers item by item. Anything else is refused, so that two forms never share
    a key by an object's repr (an address reused by another object)."""
    if value is None or isinstance(value, str | int | float | range):
        return value if not isinstance(value, str) else str(value)
    if isinstance(value, Promise):
        return str(value)
    if isinstance(value, list | tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _plain(v)) for k, v in value.items()))
    raise _Unkeyed(type(value).__name__)


def _key(entry: dict[str, Any]) -> tuple[str, str] | None:
    try:
        shown = sorted(
            (name, _plain(value)) for name, value in entry.items() if name not in NOT_READ
        )
    except _Unkeyed:
        return None
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()
    return (get_language() or "", digest)


def blank_fields_html(entry: dict[str, Any]) -> SafeString | None:
    """The blank tap fields of `entry` (as `_hand_fields.html` draws them with only `entry` in
    its context); None for a form re-shown with values or errors, or holding a value that is
    not plain data, which the template draws itself."""
    if entry.get("values") or entry.get("errors"):
        return None
    key = _key(entry)
    if key is None:
        return None
    with _lock:
        html = _drawn.get(key)
        if html is not None:
            _drawn.move_to_end(key)
            return html
    html = mark_safe(get_template(FIELDS_TEMPLATE).render({"entry": entry}))
    with _lock:
        _drawn[key] = html
        while len(_drawn) > KEPT:
            _drawn.popitem(last=False)
    return html


def forget() -> None:
    """Drop every drawn form (tests that change templates or catalogues)."""
    with _lock:
        _drawn.clear()
