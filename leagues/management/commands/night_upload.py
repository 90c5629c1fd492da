"""manage.py night_upload FILE --club SLUG --by USERNAME [--season ID]: add a night played on a
hall laptop (a kaiser-night/1 file from `manage.py night_export` or the night's page) to a club.
Uploading the same file again changes nothing."""

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from leagues.clubs.models import Club, Season
from leagues.clubs.services import LeagueError
from leagues.hall.bundle import MAX_BUNDLE_BYTES, BundleError, bundle_read
from leagues.hall.upload import night_upload
from scorecards.rules import KaiserError


class Command(BaseCommand):
    help = "Add a night played on a hall laptop (kaiser-night/1 file) to a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="kaiser-night/1 file, or - for standard input")
        parser.add_argument("--club", required=True, help="the club's short name (slug)")
        parser.add_argument("--by", required=True, help="username of a director or owner")
        parser.add_argument("--season", type=int, help="id of an open season of that club")

    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                data = sys.stdin.buffer.read(MAX_BUNDLE_BYTES + 1)
            else:
                with open(path, "rb") as file:
                    data = file.read(MAX_BUNDLE_BYTES + 1)
        except OSError as error:
            raise CommandError(f"file: {error.strerror}") from error
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"club: no club with short name {options['club']!r}")
        by = get_user_model().objects.filter(username=options["by"]).first()
        if by is None:
            raise CommandError(f"by: no account {options['by']!r}")
        season = None
        if options["season"] is not None:
            season = Season.objects.filter(club=club, pk=options["season"]).first()
            if season is None:
                raise CommandError(f"season: no season {options['season']} at {club.slug}")
        try:
            bundle = bundle_read(data)
            # A name that looks like just one player of the club is that player; one that looks
            # like several is refused, naming them.
            night, added = night_upload(
                club=club, bundle=bundle, by=by, season=season, alike_match=True
            )
        except BundleError as error:
            raise CommandError(f"{error.field}: {error.message}") from error
        except (LeagueError, KaiserError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(str(night.pk))
        self.stderr.write(
            f"night {night.pk}: {'added' if added else 'uploaded already, nothing changed'}"
        )
