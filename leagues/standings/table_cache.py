"""Rendered standings and ratings tables, kept in the cache.

django-tables2 renders a cell in about 0.1 ms (it inspects each column's render method per
cell), so a page of standings costs tens of milliseconds to draw while its figures change only
when a rebuild writes new rows. The HTML is kept under a key made of everything it is drawn
from: the rows shown (every stored value, and the names of the players they point to), the
page and sort asked for, the number of pages, the language and the markup. A new rebuild or a
renamed player makes a new key; nothing needs to be cleared.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django_tables2 import Table

TABLE_SECONDS = 6 * 3600
# Bump when the table markup (django_tables2 templates, tables.py columns) changes in a way a
# shared cache outliving a deploy should not show; the package version covers its templates.
MARKUP = 2
_TABLES2 = version("django-tables2")


def _own_values(obj: Any) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in vars(obj).items() if k != "_state"))


def _record_values(record: Any) -> tuple[Any, ...]:
    """A row's stored values and those of the rows read with it (its players), one level deep:
    related rows can point back at the row, and the table shows nothing further away."""
    state = getattr(record, "_state", None)
    related = getattr(state, "fields_cache", {}) if state is not None else {}
    return (
        _own_values(record),
        tuple(sorted((name, _own_values(obj)) for name, obj in related.items() if obj)),
    )


def table_html(request: HttpRequest, table: Table) -> SafeString:
    """`table` (configured and paginated) as HTML, from the cache when the same rows were
    drawn for the same query before."""
    page = table.page
    what = repr(
        (
            MARKUP,
            _TABLES2,
            type(table).__qualname__,
            getattr(table, "club_slug", ""),
            request.path,
            sorted(request.GET.lists()),
            page.number,
            table.paginator.num_pages,
            table.paginator.count,
            [_record_values(getattr(row, "record", row)) for row in page.object_list],
        )
    )
    digest = hashlib.blake2b(what.encode(), digest_size=16).hexdigest()
    key = f"standings-table:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        html = table.as_html(request)
        cache.set(key, html, TABLE_SECONDS)
    return mark_safe(html)
