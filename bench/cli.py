"""What a bench's `main` shares: the gunicorn it starts (`server_arguments`), the database it
measures (`database_or_each`) and the environment of that server (`production_env_in`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bench.harness import per_database, production_env, vendor_of


def production_env_in(
    folder: str | Path, database_url: str = "", floor: bool = False
) -> dict[str, str]:
    """`production_env` with its static files and (without `database_url`) its SQLite file in
    `folder`, a bench's temporary directory."""
    return production_env(
        static_root=Path(folder) / "static",
        database_url=database_url,
        sqlite_path=Path(folder) / "bench.sqlite3",
        floor=floor,
    )


def server_arguments(parser: argparse.ArgumentParser) -> None:
    """`--workers` (WEB_CONCURRENCY, else two per core) and `--threads` (4): the gunicorn a
    bench starts, as deploy/gunicorn.conf.py reads them."""
    workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1))
    parser.add_argument("--workers", type=int, default=workers, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=4)


def database_or_each(script: str, argv: list[str] | None, args: argparse.Namespace) -> int | None:
    """`per_database` for `args.database_url` (`argv`: the script's, None for sys.argv's). When
    the caller is to measure one database (None returned), `args.database_url` is left as its
    URL, or "" for a throw-away SQLite file."""
    status = per_database(script, argv if argv is not None else sys.argv[1:], args.database_url)
    if status is None:
        args.database_url = "" if vendor_of(args.database_url) == "sqlite" else args.database_url
    return status
