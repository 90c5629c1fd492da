"""A real gunicorn (production settings) on the test database, for the load and fault tests.

The test's data must be committed for the server to see it: tests using these fixtures use
`django_db(transaction=True)`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from bench.harness import GunicornServer, manage, production_env


@pytest.fixture(scope="session")
def static_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Static files collected once (production settings need the manifest to render pages)."""
    root = tmp_path_factory.mktemp("static")
    manage(production_env(static_root=root), "collectstatic", "--noinput")
    return root


def test_database_url() -> str:
    """DATABASE_URL of the database this test run created (PostgreSQL), or '' for SQLite."""
    if connection.vendor != "postgresql":
        return ""
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    return f"{base}/{connection.settings_dict['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


@pytest.fixture
def server_env(static_root: Path, transactional_db) -> dict[str, str]:
    """Environment of a production server process on this run's test database."""
    env = production_env(
        static_root=static_root,
        database_url=test_database_url(),
        sqlite_path=Path(connection.settings_dict["NAME"]),
    )
    env["CONN_MAX_AGE"] = "0"  # the test database is dropped at the end: hold no connection
    return env


@pytest.fixture
def web_server(server_env: dict[str, str]) -> Iterator[GunicornServer]:
    """A started gunicorn (2 workers x 4 threads) on the test database."""
    server = GunicornServer(server_env, workers=2, threads=4)
    server.start()
    try:
        yield server
    finally:
        server.close()
