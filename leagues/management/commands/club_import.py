"""manage.py club_import FILE [--slug NEW --name NEW]: restore a club from club_export's JSON."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.backup import BackupError, club_import
from scorecards.management.commands.kaiser_score import read_json_argument


class Command(BaseCommand):
    help = (
        "Restore a kaiser-club/1 document as a new club, all in one transaction: a document "
        "with any problem writes nothing. --slug/--name restore it beside the original."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="kaiser-club/1 JSON file, or - for standard input")
        parser.add_argument("--slug", help="short name for the restored club")
        parser.add_argument("--name", help="name for the restored club")

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_json_argument(options["file"])
        try:
            club = club_import(data=data, slug=options["slug"], name=options["name"])
        except BackupError as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        games = club.games.count()
        self.stdout.write(
            f"restored club {club.slug!r}: {club.memberships.count()} members, "
            f"{club.players.count()} players, {club.seasons.count()} seasons, {games} games"
        )
