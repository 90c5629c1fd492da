"""The database's own constraints of a section's model, checked on the document's rows before
anything is written: each CheckConstraint on one row (evaluated here, without a query per
row), each UniqueConstraint across the section's rows."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q

from leagues.backup.fields import BackupError

_LOOKUPS = {
    "exact": lambda value, given: value == given,
    "in": lambda value, given: value in given,
    "gte": lambda value, given: value is not None and value >= given,
    "gt": lambda value, given: value is not None and value > given,
    "lte": lambda value, given: value is not None and value <= given,
    "lt": lambda value, given: value is not None and value < given,
    "isnull": lambda value, given: (value is None) == given,
}


class _Unknown(Exception):
    """A condition this reader does not evaluate (the database still checks it)."""


def _holds(condition: Any, row: dict[str, Any]) -> bool:
    results = []
    for child in condition.children:
        if isinstance(child, Q):
            results.append(_holds(child, row))
            continue
        lookup, given = child
        name, _, kind = lookup.partition("__")
        kind = kind or "exact"
        if "__" in kind or kind not in _LOOKUPS or name not in row:
            raise _Unknown
        results.append(bool(_LOOKUPS[kind](row[name], given)))
    held = all(results) if condition.connector == Q.AND else any(results)
    return not held if condition.negated else held


def row_constraints_check(model: type[models.Model], row: dict[str, Any], path: str) -> None:
    """Raise BackupError naming `path` and the constraint's fields when a CheckConstraint of
    `model` fails on `row` (the values the row will be written with)."""
    for constraint in model._meta.constraints:
        if not isinstance(constraint, models.CheckConstraint):
            continue
        if not isinstance(constraint.condition, Q):
            continue
        try:
            held = _holds(constraint.condition, row)
        except _Unknown:
            continue
        if not held:
            fields = sorted({lookup.split("__")[0] for lookup in _lookups(constraint.condition)})
            raise BackupError(
                f"{path}.{fields[0]}" if len(fields) == 1 else path,
                f"breaks the rule {constraint.name} ({', '.join(fields)})",
            )


def _lookups(condition: Any) -> list[str]:
    found: list[str] = []
    for child in condition.children:
        found.extend(_lookups(child) if isinstance(child, Q) else [child[0]])
    return found


def unique_constraints_check(
    model: type[models.Model], rows: list[tuple[dict[str, Any], dict[str, Any]]], key: str
) -> None:
    """Raise BackupError naming the second of two rows of section `key` that a UniqueConstraint
    of `model` refuses together (references compare by their position in the document)."""
    for constraint in model._meta.constraints:
        if not isinstance(constraint, models.UniqueConstraint) or constraint.condition:
            continue
        seen: dict[tuple, int] = {}
        for i, (values, refs) in enumerate(rows):
            row = {**values, **refs}
            if not all(name in row for name in constraint.fields):
                break
            value = tuple(row[name] for name in constraint.fields)
            if None in value:
                continue
            if value in seen:
                raise BackupError(
                    f"{key}[{i}]",
                    f"the same {', '.join(constraint.fields)} as {key}[{seen[value]}]",
                )
            seen[value] = i
