"""The production set-up: settings that pass `check --deploy`, gunicorn serving our pages and
static files through WhiteNoise with the security headers, and the process runner of
`make serve` stopping every child."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness import ROOT, HttpSession, gunicorn_server, manage, production_env

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "kaiser_league.settings",
    "DJANGO_DEBUG": "false",
    "ALLOWED_HOSTS": "kaiser.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://kaiser.example.org",
    "DATABASE_URL": "postgres://kaiser:secret@127.0.0.1:5432/kaiser_league",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
}


def _manage(extra: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECRET_"))}
    env.update(PRODUCTION, **extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy() -> None:
    done = _manage(
        {"SECRET_KEY": secrets.token_urlsafe(50)}, "check", "--deploy", "--fail-level", "WARNING"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = _manage({"SECRET_KEY": ""}, "check")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_a_weak_secret_key_fails_check_deploy() -> None:
    done = _manage({"SECRET_KEY": "short"}, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode != 0
    assert "security.W009" in done.stderr + done.stdout


@pytest.fixture(scope="module")
def production_server(tmp_path_factory) -> str:
    """gunicorn with DJANGO_DEBUG=false on a throw-away SQLite file, static files collected."""
    tmp = tmp_path_factory.mktemp("prod")
    env = production_env(static_root=tmp / "static", sqlite_path=tmp / "db.sqlite3")
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    with gunicorn_server(env, workers=1, threads=2) as base:
        yield base


def test_gunicorn_serves_pages_with_the_security_headers(production_server) -> None:
    client = HttpSession(production_server)
    status, headers, body = client.get("/healthz", {"X-Forwarded-Proto": "https"})
    assert status == 200
    assert b'"database": "ok"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert headers["X-Frame-Options"] == "DENY"
    status, headers, body = client.get("/accounts/login/", {"X-Forwarded-Proto": "https"})
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert "csrftoken=" in cookie and "Secure" in cookie


def test_whitenoise_serves_hashed_compressed_static_files(production_server) -> None:
    client = HttpSession(production_server)
    _, _, page = client.get("/accounts/login/")
    start = page.index(b"/static/css/kaiser.")
    href = page[start : page.index(b'"', start)].decode()
    assert href != "/static/css/kaiser.css", "manifest storage names files by their hash"
    status, headers, _body = client.get(href, {"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "immutable" in headers["Cache-Control"]


def test_debug_is_off_on_the_production_server(production_server) -> None:
    status, _, body = HttpSession(production_server).get("/no-such-page/")
    assert status == 404
    assert b"Traceback" not in body and b"URLconf" not in body


def _procrun(tmp_path: Path, procfile: str) -> subprocess.Popen:
    (tmp_path / "Procfile").write_text(procfile)
    return subprocess.Popen(
        [sys.executable, str(ROOT / "deploy" / "procrun.py"), "Procfile", "--grace", "5"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _pids_started(process: subprocess.Popen, count: int) -> list[int]:
    pids = []
    while len(pids) < count:
        line = process.stdout.readline()
        assert line, "procrun ended before starting its children"
        if "started" in line:
            pids.append(int(line.split("(pid ")[1].split(")")[0]))
    return pids


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie already reaped by nobody still answers kill(0): read its state.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except FileNotFoundError:
        return True


def test_procrun_stops_every_child_on_ctrl_c(tmp_path) -> None:
    process = _procrun(
        tmp_path,
        "# comment\nweb: sleep 60\nworker: sh -c 'trap \"exit 0\" TERM; sleep 60 & wait'\n"
        "beat: sleep 60\n",
    )
    pids = _pids_started(process, 3)
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=15)
    assert process.returncode == 0
    assert "stopping everything (signal)" in out
    assert all(_gone(pid) for pid in pids)


def test_procrun_stops_the_rest_when_one_child_dies(tmp_path) -> None:
    process = _procrun(tmp_path, "web: sleep 60\nworker: sh -c 'sleep 0.5; exit 3'\n")
    pids = _pids_started(process, 2)
    out, _ = process.communicate(timeout=15)
    assert process.returncode == 3
    assert "worker exited with 3" in out
    assert all(_gone(pid) for pid in pids)


def test_procfile_and_units_name_programs_and_files_that_exist() -> None:
    from deploy.procrun import procfile_read

    entries = dict(procfile_read(ROOT / "deploy" / "Procfile"))
    assert set(entries) == {"web", "worker", "beat"}
    for command in entries.values():
        assert (ROOT / command.split()[0]).exists(), command
        assert "--app kaiser_league" in command or "deploy/gunicorn.conf.py" in command
    for unit in ("kaiser-web", "kaiser-worker", "kaiser-beat"):
        text = (ROOT / "deploy" / f"{unit}.service").read_text()
        assert "EnvironmentFile=/etc/kaiser-league/kaiser.env" in text
        assert "Restart=always" in text
    example = (ROOT / "deploy" / "kaiser.env.example").read_text()
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL"):
        assert f"\n{name}=" in example
