"""The session engine (`kaiser_league.sessions`): each session read by a statement compiled
once, found, expired and missing exactly as Django's database sessions are."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from kaiser_league.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_uses_it() -> None:
    assert settings.SESSION_ENGINE == "kaiser_league.sessions"


def test_a_session_reads_as_djangos_own_and_each_read_sees_the_row_now() -> None:
    saved = SessionStore()
    saved.update({"table_tokens": {"7": "abc"}, "phone": "p1"})
    saved.save()
    key = saved.session_key
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(key).load() == DjangoStore(key).load() == dict(saved.items())
    assert len(queries) == 2
    changed = DjangoStore(key)
    changed["phone"] = "p2"
    changed.save()
    assert SessionStore(key).load()["phone"] == "p2"


@pytest.mark.parametrize("how", ["expired", "missing"])
def test_an_expired_or_missing_session_is_empty_and_saved_under_a_new_key(how) -> None:
    saved = SessionStore()
    saved["phone"] = "p1"
    saved.save()
    key = saved.session_key
    if how == "expired":
        past = timezone.now() - datetime.timedelta(seconds=1)
        Session.objects.filter(session_key=key).update(expire_date=past)
    else:
        key = "z" * 32
    ours, django = SessionStore(key), DjangoStore(key)
    assert ours.load() == django.load() == {}
    assert ours.session_key is None and django.session_key is None
    ours["phone"] = "p3"
    ours.save()
    assert ours.session_key not in (None, key)
