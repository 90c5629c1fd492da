"""manage.py night_export NIGHT_ID [--output FILE]: a finished night as a kaiser-night/1 file, to
carry from the hall laptop to the club's server (`manage.py night_upload` there)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from leagues.hall.bundle import BundleError, night_bundle
from leagues.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a finished tournament night as one kaiser-night/1 file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("night", type=int, help="the night's id (in its page's address)")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        night = Tournament.objects.select_related("club").filter(pk=options["night"]).first()
        if night is None:
            raise CommandError(f"night: no night {options['night']}")
        try:
            text = json.dumps(night_bundle(night), ensure_ascii=False, indent=1)
        except BundleError as error:
            raise CommandError(f"{error.field}: {error.message}") from error
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text)
