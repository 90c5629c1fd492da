"""manage.py demo_club: create the demo club (safe to run again)."""

from typing import Any

from django.core.management.base import BaseCommand

from leagues.demo import DEMO_PASSWORD, DEMO_USERNAME, demo_club_create


class Command(BaseCommand):
    help = "Create a demo club with players, a season and games. Does nothing if it exists."

    def handle(self, *args: Any, **options: Any) -> None:
        club, created = demo_club_create()
        state = "created" if created else "already there"
        self.stdout.write(
            f"Demo club '{club.name}' {state}: http://127.0.0.1:8000{club.get_absolute_url()}"
        )
        self.stdout.write(f"Demo login: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}")
