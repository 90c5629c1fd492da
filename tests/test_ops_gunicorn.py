"""gunicorn as the systemd unit runs it (deploy/gunicorn.conf.py, DJANGO_DEBUG=false, a real
domain in ALLOWED_HOSTS): a health probe from 127.0.0.1 is answered 200 with no traceback, and
gunicorn's lines and Django's share one format, UTC with its zone and the request id."""

from __future__ import annotations

import http.client
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness import ROOT, production_env

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), body


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> tuple[int, Path]:
    """The port of a running gunicorn and the file its output goes to."""
    tmp = tmp_path_factory.mktemp("ops-gunicorn")
    env = production_env(static_root=tmp / "static", sqlite_path=tmp / "db.sqlite3")
    port = _free_port()
    env.update(
        ALLOWED_HOSTS="kaiser.example.org",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_ACCESS_LOG="-",
        LOG_LEVEL="INFO",
        WEB_CONCURRENCY="1",
        SECRET_KEY=secrets.token_urlsafe(50),
    )
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"], cwd=ROOT, env=env, check=True
        )
    out = tmp / "gunicorn.log"
    with out.open("wb") as sink:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "--config", "deploy/gunicorn.conf.py",
             "kaiser_league.wsgi"],
            cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                _get(port, "/healthz", {"Host": "127.0.0.1"})
                break
            except OSError:
                time.sleep(0.2)
        yield port, out
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_probe_from_localhost_gets_200_and_logs_no_traceback(served) -> None:
    port, out = served
    for host in ("127.0.0.1", f"127.0.0.1:{port}", "localhost"):
        status, headers, body = _get(port, "/healthz", {"Host": host})
        assert status == 200, (host, body)
        assert b'"database": "ok"' in body
        assert re.fullmatch(r"[0-9a-f]{32}", headers["X-Request-ID"])
    status, _, body = _get(port, "/healthz?deep=1", {"Host": "127.0.0.1"})
    assert status == 200 and b'"failed": []' in body
    time.sleep(0.3)
    assert "Traceback" not in out.read_text()
    assert "DisallowedHost" not in out.read_text()


def test_gunicorn_and_django_lines_share_the_utc_format_and_the_request_id(served) -> None:
    port, out = served
    headers = {"Host": "kaiser.example.org", "X-Forwarded-Proto": "https"}
    status, answered, _ = _get(
        port, "/no-such-page/", {**headers, "X-Request-ID": "ops-probe-4242"}
    )
    assert status == 404 and answered["X-Request-ID"] == "ops-probe-4242"
    time.sleep(0.3)
    lines = out.read_text().splitlines()
    assert lines and all(re.match(STAMP + " ", line) for line in lines), lines
    django_line = [line for line in lines if "django.request" in line]
    assert re.match(
        STAMP + r" WARNING \[ops-probe-4242\] django\.request: Not Found", django_line[-1]
    )
    access = [line for line in lines if "gunicorn.access" in line and "/no-such-page/" in line]
    assert access and access[-1].endswith("request_id=ops-probe-4242")
    assert any("gunicorn.error: Booting worker" in line for line in lines)
