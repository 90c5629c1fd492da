"""The production set-up: settings that pass `check --deploy`, gunicorn serving our pages and
static files through WhiteNoise with the security headers, and `make serve`'s honcho stopping
every process of the Procfile when one stops."""

from __future__ import annotations

import os
import re
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
    # Several web processes share one cache (settings refuse a per-process one).
    "CACHE_URL": "redis://127.0.0.1:6379/1",
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


def _serve_processes(tmp_path: Path, procfile: str) -> subprocess.Popen:
    """The end of deploy/serve.sh, from its honcho line on, with a test Procfile in place of ours:
    the very commands `make serve` runs once the database is migrated. A session of its own, so
    that a signal to its group is what Ctrl-C in a terminal does."""
    script = (ROOT / "deploy" / "serve.sh").read_text()
    tail = script[script.index(".venv/bin/honcho ") :]
    assert "--procfile deploy/Procfile" in tail
    (tmp_path / "Procfile").write_text(procfile)
    tail = tail.replace("deploy/Procfile", str(tmp_path / "Procfile"))
    return subprocess.Popen(
        ["bash", "-euo", "pipefail", "-c", tail],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


STARTED = re.compile(r"\| (\w+)\.1 started \(pid=(\d+)\)")


def _started(process: subprocess.Popen, count: int) -> tuple[dict[str, int], list[str]]:
    """Read honcho's output until `count` processes have started: their pids, and the lines read."""
    pids: dict[str, int] = {}
    lines = []
    while len(pids) < count:
        line = process.stdout.readline()
        assert line, "honcho ended before starting its processes:\n" + "".join(lines)
        lines.append(line)
        if match := STARTED.search(line):
            pids[match[1]] = int(match[2])
    return pids, lines


def _alive_in_group(pgid: int) -> list[str]:
    """The processes still running in a process group, read from /proc: honcho starts each line of
    the Procfile in a group of its own, so this is that line's shell and anything it started.
    Zombies count as gone: they have stopped, and pid 1 in a container may be slow to reap them."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        # The name in parentheses may hold spaces: the fields after it are state, ppid, pgrp.
        state, _ppid, group = text[text.rindex(")") + 2 :].split()[:3]
        if int(group) == pgid and state != "Z":
            alive.append(text[: text.rindex(")") + 1])
    return alive


def test_ctrl_c_stops_every_process_of_the_procfile(tmp_path) -> None:
    process = _serve_processes(
        tmp_path,
        "# comment\nweb: sleep 60\nworker: sh -c 'trap \"exit 0\" TERM; sleep 60 & wait'\n"
        "beat: sleep 60\n",
    )
    pids, _ = _started(process, 3)
    time.sleep(0.5)
    assert all(_alive_in_group(pid) for pid in pids.values())
    os.killpg(process.pid, signal.SIGINT)
    out, _ = process.communicate(timeout=15)
    assert process.returncode == 130, out
    assert "SIGINT received" in out
    assert [_alive_in_group(pid) for pid in pids.values()] == [[]] * len(pids), out


@pytest.mark.parametrize("status", [3, 0])
def test_one_process_stopping_stops_the_others_and_fails(tmp_path, status) -> None:
    began = time.monotonic()
    # With 3, the worker shrugs SIGTERM off: it stops only at the SIGKILL 5 seconds later.
    worker = "sh -c 'trap \"\" TERM; sleep 60 & wait; wait'" if status else "sleep 60"
    process = _serve_processes(
        tmp_path, f"web: sleep 60\nworker: {worker}\nbeat: sh -c 'sleep 0.5; exit {status}'\n"
    )
    pids, _ = _started(process, 3)
    out, _ = process.communicate(timeout=20)
    assert time.monotonic() - began < 15
    assert f"beat.1 stopped (rc={status})" in out
    assert ("SIGKILL" in out) == bool(status)
    assert process.returncode == (status or 1), out
    assert [_alive_in_group(pid) for pid in pids.values()] == [[]] * len(pids), out


def test_procfile_and_units_name_programs_and_files_that_exist() -> None:
    from honcho.environ import parse_procfile

    entries = parse_procfile((ROOT / "deploy" / "Procfile").read_text()).processes
    assert list(entries) == ["web", "worker", "beat"]
    for command in entries.values():
        # exec: honcho watches the program itself, so it sees the program stop however it stops
        assert command.startswith("exec ")
        assert (ROOT / command.split()[1]).exists(), command
        assert "--app kaiser_league" in command or "deploy/gunicorn.conf.py" in command
    for unit in ("kaiser-web", "kaiser-worker", "kaiser-beat"):
        text = (ROOT / "deploy" / f"{unit}.service").read_text()
        assert "EnvironmentFile=/etc/kaiser-league/kaiser.env" in text
        assert "Restart=always" in text
    example = (ROOT / "deploy" / "kaiser.env.example").read_text()
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL"):
        assert f"\n{name}=" in example
