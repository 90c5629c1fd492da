"""The bench's floor views (bench/floor): served only under `bench.floor.settings`, never by the
app's URLs; through the whole middleware stack they answer 200 signed in (the POST with its
CSRF token), turn a stranger away, and do exactly the work their docstring states: one indexed
SELECT, and for the POST one INSERT inside a transaction."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from bench import goals
from bench.floor import FLOOR_GET, FLOOR_POST
from bench.floor import settings as floor_settings
from bench.harness import production_env

FLOOR = override_settings(
    ROOT_URLCONF=floor_settings.ROOT_URLCONF, TEMPLATES=floor_settings.TEMPLATES
)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _own_queries(captured: CaptureQueriesContext) -> list[str]:
    """The view's statements: all but the session and the signed-in user, which every page
    of the app reads alike."""
    return [
        q["sql"]
        for q in captured.captured_queries
        if "django_session" not in q["sql"] and 'FROM "auth_user"' not in q["sql"]
    ]


def test_the_app_urls_never_include_the_floor() -> None:
    for name in ("bench_floor_get", "bench_floor_post"):
        with pytest.raises(NoReverseMatch):
            reverse(name)
    with FLOOR:
        assert reverse("bench_floor_get") == FLOOR_GET
        assert reverse("bench_floor_post") == FLOOR_POST
        assert reverse("healthz") == "/healthz"  # the app's own URLs are all still there


@pytest.mark.django_db
def test_floor_get_is_one_select_signed_in_and_a_redirect_signed_out(alice, club) -> None:
    with FLOOR:
        assert Client().get(FLOOR_GET).status_code == 302
        client = Client()
        client.force_login(alice)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(FLOOR_GET)
        assert response.status_code == 200
        assert "owner" in response.text and CSRF.search(response.text)
        own = _own_queries(captured)
        assert len(own) == 1 and own[0].startswith("SELECT"), own
        assert '"user_id" =' in own[0] and "leagues_membership" in own[0]


@pytest.mark.django_db(transaction=True)
def test_floor_post_checks_csrf_and_inserts_one_row_in_a_transaction(alice, club) -> None:
    with FLOOR:
        assert Client().post(FLOOR_POST).status_code == 302  # signed out: to the login page
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        assert client.post(FLOOR_POST, {"note": "floor"}).status_code == 403  # no token
        token = CSRF.search(client.get(FLOOR_GET).text)
        assert token is not None
        seen: list[tuple[str, bool]] = []

        def record(execute, sql, params, many, context):
            seen.append((sql, connection.in_atomic_block))
            return execute(sql, params, many, context)

        with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(record):
            response = client.post(
                FLOOR_POST, {"csrfmiddlewaretoken": token.group(1), "note": "floor"}
            )
        assert response.status_code == 200
        own = [q for q in _own_queries(captured) if q.split()[0] not in {"BEGIN", "COMMIT"}]
        assert [q.split()[0] for q in own] == ["SELECT", "INSERT"], own
        inserts = [atomic for sql, atomic in seen if sql.startswith("INSERT")]
        assert inserts == [True]  # inside the view's transaction
        assert LogEntry.objects.filter(user=alice, object_repr="floor").count() == 1


def test_production_env_serves_the_floor_only_when_asked(tmp_path) -> None:
    assert production_env(static_root=tmp_path)["DJANGO_SETTINGS_MODULE"] == (
        "kaiser_league.settings"
    )
    assert production_env(static_root=tmp_path, floor=True)["DJANGO_SETTINGS_MODULE"] == (
        "bench.floor.settings"
    )


def test_the_goals_judge_pages_and_submits_against_the_floor() -> None:
    floor_rows = [f for f in goals.FIGURES if "floor" in f.baseline]
    limits = {f.key: (f.goal, f.limit, f.baseline) for f in floor_rows}
    post = "submit.sqlite.single.floor_post.p50"
    get = "http.sqlite.single.floor_get.p50"
    assert limits == {
        "submit.sqlite.single.hand.ratio_floor_p50": ("at_most", 1.5, post),
        "submit.sqlite.single.htmx.ratio_floor_p50": ("at_most", 2, post),
        "http.sqlite.single.game_sheet.ratio_floor_p50": ("at_most", 2, get),
        "http.sqlite.single.standings_page.ratio_floor_p50": ("at_most", 2, get),
        "http.sqlite.single.projector_standings.ratio_floor_p50": ("at_most", 2, get),
    }
    assert {f.goal_text() for f in floor_rows} == {
        "<= 1.5 x floor POST",
        "<= 2 x floor POST",
        "<= 2 x floor GET",
    }
    # The old goals, against /healthz, stay beside them.
    assert {f.label for f in goals.FIGURES} >= {"hand submit, JSON, p50", "standings page, p50"}


def test_a_floor_row_shows_its_ratio_and_its_floor(tmp_path) -> None:
    results = {
        "submit.sqlite.single.hand.ratio_floor_p50": (1.2, "x floor POST"),
        "submit.sqlite.single.floor_post.p50": (4.0, "ms"),
    }
    rows = goals.judge(results, {"submit"}, postgres_set=False)
    row = next(r for r in rows if r.figure.label.startswith("hand submit, JSON, p50, beside"))
    assert row.verdict == goals.PASS and row.ratio == 1.2
    line = next(x for x in goals.summary(rows) if x.startswith(f"| {row.figure.label} |"))
    assert "| 1.2 x floor POST | 4 ms (floor POST p50) | 1.2x | <= 1.5 x floor POST |" in line
