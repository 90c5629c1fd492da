"""manage.py game_import FILE --club SLUG: store a kaiser-game/1 record as a game of a club."""

from typing import Any

from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    no_translations,
)

from leagues.clubs.models import Club, Season
from scorecards.importing import game_import
from scorecards.management.commands.kaiser_score import read_json_argument
from scorecards.rules import KaiserError


class Command(BaseCommand):
    help = "Import a kaiser-game/1 record as a game of a club (players matched by name)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="kaiser-game/1 JSON file, or - for standard input")
        parser.add_argument("--club", required=True, help="the club's short name (slug)")
        parser.add_argument("--season", type=int, help="id of a season of that club")

    # Records and their errors are read by programs and by the spec's checks: always English.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        record = read_json_argument(options["file"])
        try:
            club = Club.objects.get(slug=options["club"])
        except Club.DoesNotExist as exc:
            raise CommandError(f"club: no club with short name {options['club']!r}") from exc
        season = None
        if options["season"] is not None:
            season = Season.objects.filter(club=club, pk=options["season"]).first()
            if season is None:
                raise CommandError(f"season: no season {options['season']} at {club.slug}")
        try:
            # A name that only looks like a player ("Jerome" for "Jérôme") is that player when
            # it looks like just one; otherwise the import is refused naming them.
            game = game_import(club=club, record=record, season=season, alike_match=True)
        except KaiserError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(str(game.pk))
        day = (
            f"played on {game.played_on.isoformat()}"
            if game.played_on
            else "date not known (the record has no played_on)"
        )
        self.stderr.write(f"imported game {game.pk}: {game.hand_count} hands, {game.status}, {day}")
