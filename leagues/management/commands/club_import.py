"""manage.py club_import FILE [--slug NEW --name NEW --account NAME=EXISTING ...]: restore a club
from club_export's JSON."""

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.backup import BackupError, club_import
from leagues.backup.limits import MAX_BYTES, document_read


class Command(BaseCommand):
    help = (
        "Restore a kaiser-club/1 document as a new club, all in one transaction: a document "
        "with any problem writes nothing. --slug/--name restore it beside the original. The "
        "backup's accounts are made new (no password; another name when theirs is taken) "
        "unless --account maps one to an existing account."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="kaiser-club/1 JSON file, or - for standard input")
        parser.add_argument("--slug", help="short name for the restored club")
        parser.add_argument("--name", help="name for the restored club")
        parser.add_argument(
            "--account",
            action="append",
            default=[],
            metavar="NAME=EXISTING",
            help="give the backup's account NAME to the existing account EXISTING (repeatable; "
            "never a staff account)",
        )

        parser.add_argument(
            "--max-mb",
            type=int,
            default=MAX_BYTES // (1024 * 1024),
            help="refuse a file larger than this many megabytes (default %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["max_mb"] <= 1024:
            raise CommandError("--max-mb: expected 1 to 1024")
        max_bytes = options["max_mb"] * 1024 * 1024
        accounts = {}
        for pair in options["account"]:
            source, sep, target = pair.partition("=")
            if not sep or not source or not target:
                raise CommandError(f"--account {pair!r}: expected NAME=EXISTING")
            accounts[source] = target
        path = options["file"]
        try:
            data = document_read(_read(path, max_bytes), max_bytes=max_bytes)
            club = club_import(
                data=data, slug=options["slug"], name=options["name"], accounts=accounts
            )
        except BackupError as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        games = club.games.count()
        self.stdout.write(
            f"restored club {club.slug!r}: {club.memberships.count()} members, "
            f"{club.players.count()} players, {club.seasons.count()} seasons, {games} games"
        )


def _read(path: str, max_bytes: int) -> bytes:
    """At most one byte more than `max_bytes` (the check then refuses it unread)."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(max_bytes + 1)
        with open(path, "rb") as handle:
            return handle.read(max_bytes + 1)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from exc
