"""manage.py standings_rebuild --all | --season ID | --club SLUG: rebuild standings and ratings
now, in this process (no broker needed). It goes on past a season or club that fails, lists
what it could not rebuild and why, and then exits with status 1."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.clubs.models import Club, Season
from leagues.standings.rebuild import derived_data_rebuild_all


class Command(BaseCommand):
    help = "Rebuild season standings and club ratings from the stored hands."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--all", action="store_true", help="every season and every club")
        which.add_argument("--season", type=int, help="one season (by id) and its club's ratings")
        which.add_argument(
            "--club", help="every season of one club (by short name) and its ratings"
        )

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        if options["all"]:
            report = derived_data_rebuild_all()
        elif options["season"] is not None:
            season = Season.objects.filter(pk=options["season"]).first()
            if season is None:
                raise CommandError(f"no season {options['season']}")
            report = derived_data_rebuild_all(season_ids=[season.pk], club_ids=[season.club_id])
        else:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club {options['club']!r}")
            report = derived_data_rebuild_all(
                season_ids=list(club.seasons.values_list("pk", flat=True)), club_ids=[club.pk]
            )
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"rebuilt standings of {report.seasons} season(s) and ratings of {report.clubs} "
            f"club(s) in {elapsed:.2f} s"
        )
        if report.failures:
            self.stdout.write(f"could not rebuild {len(report.failures)}:")
            for what, why in report.failures:
                self.stdout.write(f"  {what}: {why}")
            # Every other season and club was rebuilt; the exit status tells scripts to look.
            raise CommandError(f"{len(report.failures)} rebuild(s) failed (listed above)")
