"""Writing a restore in short transactions, so that it never holds the database (on SQLite, its
one write lock) long enough to make another club's phone wait."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connections, router, transaction
from django.db.models import Model

# How long one transaction of a restore stays open before it commits (seconds). A step is a
# few rows or one game, far shorter than the second a phone may wait.
BATCH_SECONDS = 0.4
# After each commit on SQLite, the restore waits this long before it takes the write lock
# again. A writer kept waiting sleeps between its tries (SQLite's busy handler, up to 100 ms a
# sleep); without the pause the restore would take the lock back before that writer wakes.
SQLITE_PAUSE_SECONDS = 0.1


class Batches:
    """Steps of a restore, grouped into transactions of about BATCH_SECONDS each: a step joins
    the open transaction, which commits once it has been open that long. A step that raises
    rolls back its whole transaction (the caller removes what earlier ones wrote)."""

    def __init__(self) -> None:
        self._atomic: Any = None
        self._since = 0.0

    @contextmanager
    def step(self) -> Iterator[None]:
        if self._atomic is None:
            self._atomic = transaction.atomic()
            self._atomic.__enter__()
            self._since = time.monotonic()
        try:
            yield
        except BaseException as exc:
            atomic, self._atomic = self._atomic, None
            atomic.__exit__(type(exc), exc, exc.__traceback__)
            raise
        if time.monotonic() - self._since >= BATCH_SECONDS:
            self.close()

    def close(self) -> None:
        """Commit the open transaction, if any."""
        if self._atomic is not None:
            atomic, self._atomic = self._atomic, None
            atomic.__exit__(None, None, None)
            db = connections[router.db_for_write(Model)]
            if db.vendor == "sqlite" and not db.in_atomic_block:
                time.sleep(SQLITE_PAUSE_SECONDS)


def rows_insert(model: type[Model], objects: Sequence[Model]) -> None:
    """Insert `objects` in as few statements as the database takes, with every value as set on
    them: an `auto_now_add` time too (the document's; set `timezone.now()` on those not
    given). bulk_create would stamp those times itself, and updating them back row by row
    costs more than the insert. The objects get their primary keys."""
    if not objects:
        return
    opts = model._meta
    using = router.db_for_write(model)
    connection = connections[using]
    fields = [f for f in opts.concrete_fields if not f.primary_key and not f.generated]
    returning = opts.db_returning_fields
    size = max(connection.ops.bulk_batch_size(fields, objects), 1)
    for start in range(0, len(objects), size):
        part = objects[start : start + size]
        rows = model._base_manager._insert(  # type: ignore[attr-defined]
            part, fields=fields, returning_fields=returning, raw=True, using=using
        )
        for obj, row in zip(part, rows, strict=True):
            for field, value in zip(returning, row, strict=True):
                setattr(obj, field.attname, value)
            obj._state.adding = False
            obj._state.db = using
