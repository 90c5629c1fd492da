"""manage.py club_export SLUG [--output FILE]: back up a club as one kaiser-club/1 JSON document."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.backup import club_export
from leagues.clubs.models import Club


class Command(BaseCommand):
    help = (
        "Write a club (members and roles, players, seasons, every game as a kaiser-game/1 "
        "record with its hands' authors) as one JSON document; club_import restores it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's short name")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"club: no club with short name {options['slug']!r}")
        text = json.dumps(club_export(club), indent=1, ensure_ascii=False) + "\n"
        if options["output"]:
            # Written whole, then renamed: a backup interrupted half-way never looks complete.
            target = Path(options["output"])
            partial = target.with_name(target.name + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(target)
            self.stderr.write(f"wrote {target}")
        else:
            self.stdout.write(text, ending="")
