"""Django's database sessions (`SESSION_ENGINE`), each request's read of its session row by a
statement compiled once per process (`query_memo.compiled_once`): every request that carries a
session cookie reads it, and the ORM's building of that one SELECT cost several times its run.
Stored, written, expired and cleared exactly as `django.contrib.sessions.backends.db` does."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.sessions.backends import db
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.utils import timezone

from kaiser_league.query_memo import compiled_once

_EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
# Two values of each argument the statement is compiled with.
_SAMPLES = {"key": ("a" * 32, "b" * 32), "now": (_EPOCH, _EPOCH + datetime.timedelta(days=1))}


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        model = self.get_model_class()
        if connections[DEFAULT_DB_ALIAS].vendor != "postgresql":
            # SQLite is sent a time as text, which a compiled statement's slots do not write:
            # the ORM's own read.
            return super()._get_session_from_db()  # type: ignore[misc]

        def build(key: str, now: datetime.datetime) -> QuerySet[Any]:
            return model.objects.filter(session_key=key, expire_date__gt=now)

        statement = compiled_once(("session", model), build, **_SAMPLES)
        found = statement.rows(key=self.session_key, now=timezone.now())
        if not found:
            # As the ORM's read finds no row: a new session is made if one is saved.
            self._session_key = None
            return None
        return found[0]
