"""Writing a restore in short transactions, so that it never holds the database (on SQLite, its
one write lock) long enough to make another club's phone wait."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction

# How long one transaction of a restore stays open before it commits (seconds). A step is a
# few rows or one game, far shorter than the second a phone may wait.
BATCH_SECONDS = 0.25


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
