"""manage.py backup_drill [--dir DIR] [--write]: restore the newest backup of each club into a
scratch database and compare it with the file; exits 1 when one differs or fails."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from leagues.backup.periodic import backup_drill, backups_latest, backups_write


class Command(BaseCommand):
    help = (
        "Restore the newest backup of each club (BACKUP_DIR) into a new scratch SQLite "
        "database and compare it with the file. --write first writes a backup of every club."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=None, help="backup folder (default: BACKUP_DIR)")
        parser.add_argument("--write", action="store_true", help="write every club's backup first")

    def handle(self, *args: Any, **options: Any) -> None:
        directory = Path(options["dir"] or settings.BACKUP_DIR or "")
        if not str(directory) or str(directory) == ".":
            raise CommandError("dir: no backup folder (set BACKUP_DIR or give --dir)")
        if options["write"]:
            for path in backups_write(directory, timezone.now()):
                self.stderr.write(f"wrote {path}")
        latest = backups_latest(directory)
        if not latest:
            raise CommandError(f"dir: no backup in {directory}")
        failed = 0
        for path in latest:
            result = backup_drill(path)
            if result.same:
                self.stdout.write(f"OK    {path.name}: restored and equal")
            else:
                failed += 1
                self.stdout.write(f"FAIL  {path.name}: {result.detail}")
        if failed:
            raise CommandError(f"{failed} of {len(latest)} backups did not come back equal")
