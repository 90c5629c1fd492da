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
    key: tuple[str, ...],
    fields: Iterable[str],
    wanted: dict[Any, dict],
    build: Callable[[Any, dict], models.Model],
) -> bool:
    """Make the rows of `queryset` exactly `wanted` ({key: figures}), where a row's key is the
    value of its `key` field (or the tuple of them, for several); write nothing when they
    already are. Returns True if anything was written. Rows are read as values, not model
    instances: a club's rating history holds a row per player and game."""
    fields = tuple(fields)
    width = len(key)
    existing: dict[Any, int] = {}
    current: dict[Any, dict] = {}
    for pk, *values in queryset.values_list("pk", *key, *fields):
        k = values[0] if width == 1 else tuple(values[:width])
        existing[k] = pk
        current[k] = dict(zip(fields, values[width:], strict=True))
    if current == wanted:
        return False
    model = queryset.model
    stale = [pk for k, pk in existing.items() if k not in wanted]
    changed = [
        model(pk=existing[k], **figures)
        for k, figures in wanted.items()
        if k in existing and current[k] != figures
    ]
    if stale:
        model.objects.filter(pk__in=stale).delete()
    if changed:
        model.objects.bulk_update(changed, fields, batch_size=500)
    new = [build(k, figures) for k, figures in wanted.items() if k not in existing]
    if new:
        model.objects.bulk_create(new, batch_size=500)
    return True


def newer_snapshot_exists(
    snapshot: StandingsSnapshot | RatingSnapshot | None, started: datetime.datetime
) -> bool:
    # A rebuild that began reading later has seen everything this one saw and more: never let
    # an older computation overwrite it.
    return snapshot is not None and snapshot.computed_at > started
