"""The production set-up as deploy/README.md tells it: the files, make targets and settings it
names exist and are read, the env file means the same to systemd and to a shell, the web unit
does not migrate, `make release` migrates and collects once, requirements/prod.txt pins the
whole tree with hashes and no test tool."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import sqlite3
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "deploy" / "README.md").read_text()
ENV_EXAMPLE = ROOT / "deploy" / "kaiser.env.example"
# Where an environment variable may be read: the settings, gunicorn's, the units, manage.py.
READERS = "\n".join(
    path.read_text()
    for path in [
        ROOT / "kaiser_league" / "settings.py",
        ROOT / "deploy" / "gunicorn.conf.py",
        ROOT / "deploy" / "Procfile",
        ROOT / "manage.py",
        *sorted((ROOT / "deploy").glob("*.service")),
    ]
)


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"\b((?:deploy|requirements)/[\w./-]+\w)", README))
    assert "deploy/Caddyfile" in named and "requirements/prod.txt" in named
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing


def test_every_make_target_the_readme_names_exists() -> None:
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    named = set(re.findall(r"(?:^\s*|`)make ([a-z][\w-]*)", README, re.M))
    assert "release" in named
    assert named <= targets


def _env_names() -> set[str]:
    return set(re.findall(r"^([A-Z][A-Z0-9_]+)=", ENV_EXAMPLE.read_text(), re.M))


def test_every_setting_of_the_readme_and_the_env_file_is_read() -> None:
    in_readme = set(re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`", README))
    assert {"SIGNUP_OPEN", "ADMINS", "SENTRY_DSN"} <= _env_names()
    unread = sorted(
        name
        for name in in_readme | _env_names()
        if not re.search(rf"""["'$]{{?{name}\b""", READERS)
    )
    assert not unread


def _systemd_values(path: Path) -> dict[str, str]:
    """What systemd's EnvironmentFile= makes of the file (KEY=value, one pair of quotes)."""
    values = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, _, value = line.partition("=")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        values[key.strip()] = value
    return values


def test_the_env_file_means_the_same_to_systemd_and_to_a_shell() -> None:
    expected = _systemd_values(ENV_EXAMPLE)
    script = f"set -a; . {shlex.quote(str(ENV_EXAMPLE))}; set +a; env -0"
    done = subprocess.run(
        ["sh", "-euc", script], env={"PATH": "/usr/bin:/bin"}, capture_output=True, check=True
    )
    shell = dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
    assert {key: shell.get(key) for key in expected} == expected
    assert expected["DEFAULT_FROM_EMAIL"] == "Kaiser League <kaiser@example.org>"
    assert expected["SIGNUP_OPEN"] == "false"


def test_the_web_unit_does_not_migrate_at_start() -> None:
    unit = (ROOT / "deploy" / "kaiser-web.service").read_text()
    assert not re.search(r"^ExecStartPre=.*migrate", unit, re.M)
    assert "EnvironmentFile=/etc/kaiser-league/kaiser.env" in unit


def test_the_caddy_file_proxies_to_gunicorn_with_a_request_id() -> None:
    caddy = (ROOT / "deploy" / "Caddyfile").read_text()
    bind = re.search(r"^GUNICORN_BIND=(\S+)", ENV_EXAMPLE.read_text(), re.M)
    assert bind and f"reverse_proxy {bind.group(1)}" in caddy
    assert "header_up X-Request-ID" in caddy


def test_make_release_runs_its_steps_in_order() -> None:
    done = subprocess.run(
        ["make", "-n", "release", "ENV_FILE=/nonexistent"], cwd=ROOT, capture_output=True, text=True
    )
    lines = done.stdout
    steps = ["--require-hashes -r requirements/prod.txt", "migrate --noinput", "collectstatic"]
    positions = [lines.index(step) for step in steps]
    assert positions == sorted(positions)
    assert "systemctl restart kaiser-web kaiser-worker kaiser-beat" in lines


def test_make_release_migrates_and_collects_with_the_env_file(tmp_path: Path) -> None:
    env_file = tmp_path / "kaiser.env"
    env_file.write_text(
        "DJANGO_DEBUG=false\n"
        f"SECRET_KEY={secrets.token_urlsafe(50)}\n"
        "ALLOWED_HOSTS=kaiser.example.org\n"
        f"SQLITE_PATH={tmp_path / 'db.sqlite3'}\n"
        f"STATIC_ROOT={tmp_path / 'static'}\n"
        "WEB_CONCURRENCY=1\n"
        'DEFAULT_FROM_EMAIL="Kaiser League <kaiser@example.org>"\n'
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SQLITE_"))}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        ["make", "release", f"ENV_FILE={env_file}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM django_migrations").fetchone()[0] > 10
    assert (tmp_path / "static" / "staticfiles.json").exists()
    assert "restart the web, worker and beat processes yourself" in done.stdout


PROD = (ROOT / "requirements" / "prod.txt").read_text()
PINNED = dict(re.findall(r"^([a-z0-9][a-z0-9._-]*)==(\S+) \\$", PROD, re.M))


def test_prod_requirements_pin_every_package_with_a_hash_and_no_test_tool() -> None:
    entries = re.findall(r"^[a-z0-9]", PROD, re.M)
    assert len(entries) == len(PINNED) == PROD.count("--hash=sha256:")
    for tool in ("pytest", "pytest-django", "hypothesis", "playwright", "ruff", "mypy"):
        assert tool not in PINNED
    base = dict(
        re.findall(
            r"^([A-Za-z0-9._-]+)(?:\[[\w,]+\])?==(\S+)",
            (ROOT / "requirements" / "base.txt").read_text(),
            re.M,
        )
    )
    for name, version in base.items():
        assert PINNED.get(name.lower()) == version, name


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_tested_environment_has_the_pinned_versions(name: str) -> None:
    assert metadata.version(name) == PINNED[name]
