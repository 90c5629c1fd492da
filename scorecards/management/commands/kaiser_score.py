"""manage.py kaiser_score FILE|-: score a kaiser-game/1 record and print its kaiser-result/1."""

import json
import sys
from typing import Any

from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    no_translations,
)

from kaiser_league.json_read import JsonRefused, json_read
from scorecards.rules import KaiserError, record_score

# A record of the most hands a game holds (MAX_HANDS), with every detail of every hand, is far
# below this; reading more would only cost memory before the refusal.
MAX_FILE_CHARS = 4 * 1024 * 1024


def read_json_argument(path: str) -> Any:
    """The JSON document in file `path` ('-' for standard input), or CommandError saying why
    not: unreadable, larger than MAX_FILE_CHARS, not UTF-8, refused by `kaiser_league.json_read`
    (too deep, a number too long: checked before parsing, naming the place), or not JSON."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_FILE_CHARS + 1)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_FILE_CHARS + 1)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path}: not UTF-8 text") from exc
    if len(text) > MAX_FILE_CHARS:
        raise CommandError(f"{path}: larger than {MAX_FILE_CHARS // (1024 * 1024)} MB")
    try:
        return json_read(text)
    except JsonRefused as exc:
        raise CommandError(f"{path}: {exc}") from None


class Command(BaseCommand):
    help = "Score a kaiser-game/1 record (a file, or - for standard input) with the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="kaiser-game/1 JSON file, or - for standard input")

    # Records and their errors are read by programs and by the spec's checks: always English.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        record = read_json_argument(options["file"])
        try:
            result = record_score(record)
        except KaiserError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(result, indent=1))
