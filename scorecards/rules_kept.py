"""A game's stored rules read as `Rules` once per process for each distinct content.

`rules_build` validates every setting on each call, and a hand submit or a sheet reads a game's
rules several times. The result is a pure function of the stored object: the memo is keyed by
that content itself (each value with its type, so `1` is never taken for `true`), so no write
can make it stale and every process answers alike. Only rules that build are kept: a refusal is
raised again on every read, in the reader's language."""

from __future__ import annotations

from collections.abc import Hashable
from threading import Lock
from typing import Any

from scorecards.rules import Rules, rules_build

# A club has a handful of rule sets; bounded all the same (a new key past it is not kept).
KEPT = 256

_kept: dict[Hashable, Rules] = {}
_lock = Lock()


def _key(data: Any) -> Hashable | None:
    if not isinstance(data, dict):
        return None
    try:
        key = tuple(sorted((name, type(value), value) for name, value in data.items()))
        hash(key)
    except TypeError:  # a name that is not text, or a value that is a list or an object
        return None
    return key


def rules_of(data: Any) -> Rules:
    """`rules_build(data)`, read once per process for each content of `data`."""
    key = _key(data)
    if key is None:
        return rules_build(data)
    rules = _kept.get(key)
    if rules is None:
        rules = rules_build(data)
        with _lock:
            if len(_kept) < KEPT:
                _kept[key] = rules
    return rules
