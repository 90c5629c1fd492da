"""Backups that happen without anyone remembering: every club written to BACKUP_DIR on a
schedule (Celery beat, `leagues.club_backups_write`), kept BACKUP_KEEP_DAYS days (the newest of
each club always stays), and a drill that restores the newest of each club into a scratch
database and compares it with the file (`manage.py backup_drill`).

Layout: `BACKUP_DIR/<club slug>/<club slug>-<UTC time>.kaiser-club.json`. A file is written
whole under a temporary name, then renamed, so a backup cut short never looks complete. One
club's failure is logged and the others are still written.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from leagues.backup.export import club_export
from leagues.clubs.models import Club

log = logging.getLogger(__name__)
SUFFIX = ".kaiser-club.json"
STAMP = "%Y%m%dT%H%M%SZ"


def _stamp(now: datetime.datetime) -> str:
    return now.astimezone(datetime.UTC).strftime(STAMP)


def backups_write(directory: Path, now: datetime.datetime) -> list[Path]:
    """Write every club's backup under `directory`; the files written (a club that failed is
    logged and left out)."""
    written = []
    for club in Club.objects.order_by("slug"):
        folder = directory / club.slug
        target = folder / f"{club.slug}-{_stamp(now)}{SUFFIX}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps(club_export(club), indent=1, ensure_ascii=False) + "\n"
            partial = target.with_name(target.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(target)
        except Exception:
            log.exception("backup of club %s failed", club.slug)
            continue
        written.append(target)
    return written


def _backups_of(folder: Path) -> list[Path]:
    """A club's backups, oldest first (the UTC time in the name sorts as text)."""
    return sorted(path for path in folder.glob(f"*{SUFFIX}") if path.is_file())


def backups_prune(directory: Path, keep_days: int, now: datetime.datetime) -> list[Path]:
    """Delete the backups older than `keep_days` (by the time in their name), except the newest
    of each club; the files deleted."""
    cutoff = _stamp(now - datetime.timedelta(days=keep_days))
    deleted = []
    for folder in sorted(path for path in directory.glob("*") if path.is_dir()):
        files = _backups_of(folder)
        for path in files[:-1]:
            if path.name[len(folder.name) + 1 :][: len(cutoff)] < cutoff:
                path.unlink(missing_ok=True)
                deleted.append(path)
    return deleted


def backups_latest(directory: Path) -> list[Path]:
    """The newest backup of each club under `directory`."""
    latest = []
    for folder in sorted(path for path in directory.glob("*") if path.is_dir()):
        files = _backups_of(folder)
        if files:
            latest.append(files[-1])
    return latest


@dataclass(frozen=True)
class DrillResult:
    path: Path
    same: bool
    detail: str  # what differed, or why the restore failed


def _manage(args: list[str], env: dict[str, str], stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-2000:] or f"manage.py {args[0]} failed")
    return done.stdout


def _first_difference(left: object, right: object, path: str = "") -> str:
    if type(left) is not type(right):
        return f"{path or '.'}: {left!r} != {right!r}"
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            if key not in left or key not in right:
                return f"{path}.{key}: only in {'the file' if key in left else 'the restore'}"
            found = _first_difference(left[key], right[key], f"{path}.{key}")
            if found:
                return found
        return ""
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            return f"{path}: {len(left)} items != {len(right)}"
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            found = _first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return ""
    return "" if left == right else f"{path or '.'}: {left!r} != {right!r}"


def backup_drill(path: Path) -> DrillResult:
    """Restore the backup at `path` into a new, empty SQLite database (another process, so
    nothing touches this server's database) and export it again: the drill passes when the
    export equals the file."""
    document = json.loads(path.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="kaiser-drill-") as scratch:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_URL", "CELERY_BROKER_URL"}
        }
        env["SQLITE_PATH"] = str(Path(scratch) / "drill.sqlite3")
        env.setdefault("SECRET_KEY", "backup-drill-scratch-database")
        try:
            _manage(["migrate", "--noinput", "-v", "0"], env)
            _manage(["club_import", str(path)], env)
            restored = json.loads(_manage(["club_export", document["club"]["slug"]], env))
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as error:
            return DrillResult(path, False, f"restore failed: {error}")
    difference = _first_difference(document, restored)
    return DrillResult(path, not difference, difference)
