"""The scheduled backup of every club (Celery beat; see `leagues.backup.periodic`)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import timezone

from kaiser_league.celery import app
from leagues.backup.periodic import backups_prune, backups_write


@app.task(name="leagues.club_backups_write", ignore_result=True, time_limit=3600)
def club_backups_write() -> int:
    """Write every club's backup to BACKUP_DIR and delete those past BACKUP_KEEP_DAYS; returns
    how many were written. Does nothing when BACKUP_DIR is empty. Running it twice in a second
    writes the same file twice (same name): idempotent."""
    if not settings.BACKUP_DIR:
        return 0
    directory = Path(settings.BACKUP_DIR)
    now = timezone.now()
    written = backups_write(directory, now)
    backups_prune(directory, settings.BACKUP_KEEP_DAYS, now)
    return len(written)
