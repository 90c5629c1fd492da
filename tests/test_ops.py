"""Operations: the health check (from localhost, and deep), the request id in headers and log
lines, one UTC log format, the error pages, the security and content-type headers, robots.txt,
the periodic purges, and sign-up closed with invitations as the way in."""

from __future__ import annotations

import io
import json
import logging
import re
import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from kaiser_league import tasks
from kaiser_league.logs import JsonFormatter, RequestIdFilter, UtcFormatter
from leagues.clubs.models import Invitation

pytestmark = pytest.mark.django_db

UTC_STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"


# --- /healthz -------------------------------------------------------------------------------


def test_healthz_answers_a_localhost_probe_that_names_no_allowed_host(
    client: Client, settings, caplog
) -> None:
    settings.ALLOWED_HOSTS = ["kaiser.example.org"]
    with caplog.at_level(logging.WARNING):
        for host in ("127.0.0.1", "localhost:8000", "[::1]"):
            response = client.get("/healthz", HTTP_HOST=host)
            assert response.status_code == 200, host
            assert response.json()["database"] == "ok"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    # Only the health check: any other page on that host is still refused, on the styled page.
    refused = client.get("/", HTTP_HOST="127.0.0.1")
    assert refused.status_code == 400
    assert b"kaiser.css" in refused.content and b"Bad request" in refused.content


def test_healthz_deep_checks_database_cache_and_eager_worker(client: Client) -> None:
    response = client.get("/healthz?deep=1")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok" and body["cache"] == "ok"
    assert body["worker"] == "eager" and body["failed"] == []


@pytest.fixture
def real_worker(settings, monkeypatch):
    """Tasks go to a broker (reported up) and the cache is taken as shared."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.PER_PROCESS_CACHES = frozenset()
    monkeypatch.setattr("kaiser_league.views.broker_status", lambda: "ok")
    cache.delete(tasks.HEARTBEAT_KEY)
    yield
    cache.delete(tasks.HEARTBEAT_KEY)


def test_healthz_deep_wants_a_worker_heartbeat_younger_than_a_minute(
    client: Client, real_worker
) -> None:
    response = client.get("/healthz?deep=1")
    assert response.status_code == 503
    assert response.json()["worker"] == "no heartbeat"
    assert response.json()["failed"] == ["worker"]
    # The shallow probe (systemd's) stays up: the worker is not the web's life.
    assert client.get("/healthz").status_code == 200

    tasks.worker_heartbeat.run()
    response = client.get("/healthz?deep=1")
    assert response.status_code == 200, response.json()
    assert response.json()["worker"] == "ok"

    cache.set(tasks.HEARTBEAT_KEY, time.time() - 90)
    response = client.get("/healthz?deep=1")
    assert response.status_code == 503
    assert response.json()["worker"] == "last heartbeat 90 s ago"


def test_healthz_deep_refuses_a_per_process_cache_with_a_real_worker(
    client: Client, settings, monkeypatch
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr("kaiser_league.views.broker_status", lambda: "ok")
    response = client.get("/healthz?deep=1")
    assert response.status_code == 503
    assert response.json()["worker"] == "unknown: no shared cache (CACHE_URL)"


def test_healthz_deep_names_a_cache_that_does_not_answer(client: Client, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "set", broken)
    response = client.get("/healthz?deep=1")
    assert response.status_code == 503
    assert response.json()["cache"] == "down" and response.json()["failed"] == ["cache"]


def test_beat_schedules_the_heartbeat_and_the_purges(settings) -> None:
    tasks_scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "kaiser_league.worker_heartbeat",
        "kaiser_league.sessions_purge",
        "kaiser_league.login_attempts_purge",
    } <= tasks_scheduled
    heartbeat = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]["schedule"]
    assert heartbeat < settings.WORKER_HEARTBEAT_MAX_AGE
    assert "kaiser_league.tasks" in settings.CELERY_IMPORTS


# --- Request id and logs --------------------------------------------------------------------


def test_every_response_carries_a_request_id(client: Client) -> None:
    made = client.get("/").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert client.get("/").headers["X-Request-ID"] != made
    kept = client.get("/", HTTP_X_REQUEST_ID="caddy-0f3e-4a2b-9c1d")
    assert kept.headers["X-Request-ID"] == "caddy-0f3e-4a2b-9c1d"


@pytest.mark.parametrize(
    "forged",
    ["short", "x" * 65, "a b c d e f g h", "abc\r\nSet-Cookie: x=1", "<script>1234</script>"],
)
def test_an_insane_incoming_request_id_is_replaced(client: Client, forged: str) -> None:
    answered = client.get("/", HTTP_X_REQUEST_ID=forged).headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", answered)


@pytest.fixture
def log_lines():
    """What the project's text handler writes for django.request, as lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(UtcFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield lambda: stream.getvalue().splitlines()
    logger.removeHandler(handler)


def test_a_log_line_carries_the_utc_time_with_zone_and_the_request_id(
    client: Client, log_lines
) -> None:
    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="req-0123456789")
    assert response.status_code == 404
    [line] = [line for line in log_lines() if "Not Found" in line]
    assert re.match(UTC_STAMP + r" WARNING \[req-0123456789\] django\.request: Not Found", line)


def test_json_log_lines_carry_the_same_fields() -> None:
    record = logging.LogRecord("kaiser", logging.ERROR, __file__, 1, "hand %s", ("saved",), None)
    record.request_id = "req-0123456789"
    line = json.loads(JsonFormatter().format(record))
    assert re.fullmatch(UTC_STAMP, line["time"])
    assert line["request_id"] == "req-0123456789"
    assert line["message"] == "hand saved" and line["level"] == "ERROR"


def test_settings_use_the_utc_formatter_and_json_on_demand() -> None:
    from kaiser_league.logs import logging_config

    assert logging_config()["formatters"]["line"]["()"].endswith("UtcFormatter")
    json_config = logging_config(log_format="json")
    assert json_config["formatters"]["line"]["()"].endswith("JsonFormatter")
    with pytest.raises(ValueError, match="LOG_FORMAT"):
        logging_config(log_format="xml")


# --- Headers, pages, files ------------------------------------------------------------------


def test_pages_send_the_permissions_policy(client: Client) -> None:
    policy = client.get("/").headers["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy


def test_robots_txt_lists_only_the_home_page(client: Client) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    assert "Disallow: /\n" in response.content.decode()


def test_whitenoise_serves_the_manifest_as_a_web_manifest(settings) -> None:
    from whitenoise.media_types import MediaTypes

    types = MediaTypes(extra_types=settings.WHITENOISE_MIMETYPES)
    assert types.get_type("static/manifest.webmanifest") == "application/manifest+json"


@pytest.mark.parametrize(
    ("template", "words"),
    [
        ("400.html", "Bad request"),
        ("403.html", "Not allowed"),
        ("404.html", "Page not found"),
        ("500.html", "Something went wrong"),
    ],
)
def test_error_pages_use_the_site_stylesheet_and_no_inline_code(template: str, words: str) -> None:
    from django.template import loader

    page = loader.get_template(template).render()
    assert words in page and "css/kaiser.css" in page
    # Our own script files only (CSP): no inline script, no style attribute or element.
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert "style=" not in page and "<style" not in page


def test_error_pages_are_translated() -> None:
    from django.template import loader
    from django.utils import translation

    with translation.override("fr"):
        assert "Retour à vos clubs" in loader.get_template("500.html").render()


def test_a_server_error_answers_the_styled_page(settings) -> None:
    from django.urls import include, path

    def boom(request):
        raise RuntimeError("boom")

    import types

    module = types.ModuleType("ops_boom_urls")
    module.urlpatterns = [path("boom", boom), path("", include("kaiser_league.urls"))]  # type: ignore[attr-defined]
    import sys

    sys.modules["ops_boom_urls"] = module
    settings.ROOT_URLCONF = "ops_boom_urls"
    response = Client(raise_request_exception=False).get("/boom")
    assert response.status_code == 500
    assert b"Something went wrong" in response.content and b"kaiser.css" in response.content


def test_the_service_worker_clears_its_cache_at_logout(client: Client) -> None:
    worker = client.get("/sw.js").content.decode()
    assert 'var LOGOUT = "/accounts/logout/";' in worker
    assert "caches.delete" in worker[worker.index("LOGOUT)") :]


# --- Purges ---------------------------------------------------------------------------------


def test_purges_remove_expired_sessions_and_old_login_attempts(settings) -> None:
    from axes.models import AccessAttempt

    now = timezone.now()
    Session.objects.create(session_key="old" * 10, session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="new" * 10, session_data="", expire_date=now + timedelta(1))
    for days in (settings.LOGIN_RECORDS_KEEP_DAYS + 1, 0):
        attempt = AccessAttempt.objects.create(
            username=f"u{days}",
            ip_address="192.0.2.1",
            failures_since_start=1,
            get_data="",
            post_data="",
            http_accept="",
            path_info="/",
            user_agent="",
        )
        AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=now - timedelta(days))
    assert tasks.sessions_purge.run() == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new" * 10]
    assert tasks.login_attempts_purge.run() == 1
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["u0"]


# --- Sign-up --------------------------------------------------------------------------------


def test_signup_closed_refuses_a_stranger_and_creates_nothing(client: Client, settings) -> None:
    from django.contrib.auth import get_user_model

    settings.SIGNUP_OPEN = False
    page = client.get("/accounts/signup/")
    assert page.status_code == 403
    assert "invitation link" in page.content.decode()
    posted = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.org",
            "password1": "x-long-pass-9",
            "password2": "x-long-pass-9",
        },
    )
    assert posted.status_code == 403
    assert not get_user_model().objects.filter(username="dora").exists()


def _invitation(club, alice, **extra) -> Invitation:
    return Invitation.objects.create(
        club=club,
        token="t" * 43,
        created_by=alice,
        expires_at=timezone.now() + timedelta(days=7),
        **extra,
    )


def test_signup_closed_still_lets_an_invited_person_in(
    client: Client, settings, club, alice
) -> None:
    from django.contrib.auth import get_user_model

    settings.SIGNUP_OPEN = False
    invitation = _invitation(club, alice)
    link = f"/join/{invitation.token}/"
    page = client.get(f"/accounts/signup/?next={link}")
    assert page.status_code == 200
    password = "a-long-enough-pass-42"
    posted = client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.org",
            "password1": password,
            "password2": password,
            "next": link,
        },
    )
    assert posted.status_code == 302 and posted["Location"] == link
    assert get_user_model().objects.filter(username="dora").exists()


def test_signup_closed_refuses_a_revoked_invitation(client: Client, settings, club, alice) -> None:
    settings.SIGNUP_OPEN = False
    invitation = _invitation(club, alice, revoked=True)
    assert client.get(f"/accounts/signup/?next=/join/{invitation.token}/").status_code == 403
    assert client.get("/accounts/signup/?next=https://evil.example/join/x/").status_code == 403


def test_signup_is_closed_by_default_in_production() -> None:
    import os
    import subprocess
    import sys

    from bench.harness import ROOT

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SIGNUP_"))}
    env.update(
        DJANGO_DEBUG="false",
        WEB_CONCURRENCY="1",
        SECRET_KEY="x" * 60,
        DJANGO_SETTINGS_MODULE="kaiser_league.settings",
    )
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.SIGNUP_OPEN)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "False", done.stderr
    env["SIGNUP_OPEN"] = "true"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "True", done.stderr


# --- Celery's lines -------------------------------------------------------------------------


def test_celery_keeps_the_project_log_format() -> None:
    from kaiser_league.celery import app

    assert app.conf.worker_hijack_root_logger is False


def test_a_task_in_a_worker_logs_under_its_id_and_an_eager_one_under_the_request() -> None:
    from types import SimpleNamespace

    from celery.signals import task_postrun, task_prerun

    from kaiser_league.logs import request_id_var

    in_worker = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    task_prerun.send(sender=None, task_id="abc123", task=in_worker)
    assert request_id_var.get() == "task-abc123"
    task_postrun.send(sender=None, task_id="abc123", task=in_worker)
    assert request_id_var.get() == "-"

    request_id_var.set("req-0123456789")
    eager = SimpleNamespace(request=SimpleNamespace(is_eager=True))
    task_prerun.send(sender=None, task_id="abc123", task=eager)
    task_postrun.send(sender=None, task_id="abc123", task=eager)
    assert request_id_var.get() == "req-0123456789"
    request_id_var.set("-")


def test_healthz_sends_the_security_headers_though_it_skips_their_middleware(
    client: Client,
) -> None:
    headers = client.get("/healthz", HTTP_HOST="127.0.0.1").headers
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert "camera=()" in headers["Permissions-Policy"]
    assert headers["X-Frame-Options"] == "DENY"


# --- Error reports --------------------------------------------------------------------------


@pytest.fixture
def boom_urls(settings) -> None:
    """A site with one more URL, /boom, that fails."""
    import sys
    import types

    from django.urls import include, path

    def boom(request):
        raise RuntimeError("boom at the table")

    module = types.ModuleType("ops_boom_urls_2")
    module.urlpatterns = [path("boom", boom), path("", include("kaiser_league.urls"))]  # type: ignore[attr-defined]
    sys.modules["ops_boom_urls_2"] = module
    settings.ROOT_URLCONF = "ops_boom_urls_2"


def test_a_server_error_is_mailed_to_admins_from_the_environment(boom_urls, settings) -> None:
    from django.core import mail

    settings.ADMINS = [("Ann", "ann@example.org")]
    response = Client(raise_request_exception=False).get("/boom")
    assert response.status_code == 500
    [message] = mail.outbox
    assert message.to == ["ann@example.org"]
    assert "boom at the table" in message.body


def test_no_admins_no_mail(boom_urls, settings) -> None:
    from django.core import mail

    settings.ADMINS = []
    assert Client(raise_request_exception=False).get("/boom").status_code == 500
    assert mail.outbox == []


def test_django_writes_each_line_once_in_the_project_format() -> None:
    from django.utils.log import AdminEmailHandler

    assert [type(h) for h in logging.getLogger("django").handlers] == [AdminEmailHandler]
    assert logging.getLogger("django.server").handlers == []


def _settings_in_subprocess(extra: dict[str, str], expression: str):
    import os
    import subprocess
    import sys

    from bench.harness import ROOT

    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SENTRY_"))}
    env.update(DJANGO_SETTINGS_MODULE="kaiser_league.settings", **extra)
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_admins_are_read_from_the_environment() -> None:
    done = _settings_in_subprocess(
        {"ADMINS": "Ann Smith <ann@example.org>, bob@example.org"}, "settings.ADMINS"
    )
    assert done.stdout.strip() == (
        "[('Ann Smith', 'ann@example.org'), ('bob@example.org', 'bob@example.org')]"
    ), done.stderr


def test_sentry_is_off_unless_configured_and_named_when_missing() -> None:
    done = _settings_in_subprocess({}, "settings.SENTRY_DSN == ''")
    assert done.stdout.strip() == "True", done.stderr
    try:
        import sentry_sdk  # noqa: F401
    except ImportError:
        done = _settings_in_subprocess(
            {"SENTRY_DSN": "https://key@sentry.example.org/1"}, "settings.SENTRY_DSN"
        )
        assert done.returncode != 0
        assert "SENTRY_DSN is set but sentry-sdk is not installed" in done.stderr


@pytest.mark.parametrize("page", ["/", "/accounts/login/"])
def test_sign_up_is_offered_only_when_the_sign_up_page_takes_strangers(
    client: Client, settings, page: str
) -> None:
    settings.SIGNUP_OPEN = False
    assert "/accounts/signup/" not in client.get(page).content.decode()
    settings.SIGNUP_OPEN = True
    assert "/accounts/signup/" in client.get(page).content.decode()
