"""manage.py game_export GAME_ID: print a game as its kaiser-game/1 record."""

import json
from typing import Any

from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    no_translations,
)

from scorecards.models import Game
from scorecards.selectors import game_record, game_with_seats


class Command(BaseCommand):
    help = "Write a stored game as a kaiser-game/1 JSON record on standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    # Records and their errors are read by programs and by the spec's checks: always English.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = game_with_seats(options["game_id"])
        except Game.DoesNotExist as exc:
            raise CommandError(f"game: no game with id {options['game_id']}") from exc
        self.stdout.write(json.dumps(game_record(game), indent=1, ensure_ascii=False))
