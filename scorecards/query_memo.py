"""Querysets built once per process and cloned for each request.

Building a queryset (resolving its annotations and joins through the models) costs as much as
compiling it, on every request. A queryset that is never evaluated itself can be kept and
refined per request: `filter`, `annotate` and `get` work on a clone (as a form field's
queryset is shared between requests). What is kept is the query's shape only, keyed by
everything that shapes it, never a row: no write can make it stale, and every process builds
the same one."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any, TypeVar

from django.db.models import QuerySet

Q = TypeVar("Q", bound=QuerySet[Any])

_built: dict[Hashable, QuerySet[Any]] = {}
_lock = Lock()


def built_once(key: Hashable, build: Callable[[], Q]) -> Q:
    """The queryset `build()` gives, built the first time `key` is asked for in this process.
    The caller never evaluates it as it is: it refines a clone (`filter`, `annotate`, `get`)."""
    built = _built.get(key)
    if built is None:
        built = build()
        with _lock:
            _built.setdefault(key, built)
    return built  # type: ignore[return-value]
