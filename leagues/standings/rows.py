"""Writing derived rows: replace a set of rows by the wanted ones, writing only what changed, and
never letting an older computation overwrite a newer one."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Any

from django.db import models

from leagues.standings.models import (
    RatingSnapshot,
    StandingsSnapshot,
)


def rows_replace(
    queryset: models.QuerySet,
    key: Callable[[Any], Any],
    fields: Iterable[str],
    wanted: dict[Any, dict],
    build: Callable[[Any, dict], models.Model],
) -> bool:
    """Make the rows of `queryset` exactly `wanted` ({key: figures}); write nothing when they
    already are. Returns True if anything was written."""
    fields = tuple(fields)
    existing = {key(row): row for row in queryset}
    current = {k: {f: getattr(row, f) for f in fields} for k, row in existing.items()}
    if current == wanted:
        return False
    stale = [row.pk for k, row in existing.items() if k not in wanted]
    changed = []
    for k, figures in wanted.items():
        row = existing.get(k)
        if row is not None and current[k] != figures:
            for name, value in figures.items():
                setattr(row, name, value)
            changed.append(row)
    if stale:
        queryset.model.objects.filter(pk__in=stale).delete()
    if changed:
        queryset.model.objects.bulk_update(changed, fields, batch_size=500)
    new = [build(k, figures) for k, figures in wanted.items() if k not in existing]
    if new:
        queryset.model.objects.bulk_create(new, batch_size=500)
    return True


def newer_snapshot_exists(
    snapshot: StandingsSnapshot | RatingSnapshot | None, started: datetime.datetime
) -> bool:
    # A rebuild that began reading later has seen everything this one saw and more: never let
    # an older computation overwrite it.
    return snapshot is not None and snapshot.computed_at > started
