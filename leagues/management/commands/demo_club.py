"""manage.py demo_club: create the demo club (safe to run again)."""

import io
from typing import Any

import segno
from django.core.management.base import BaseCommand, CommandParser

from leagues.demo import DEMO_PASSWORD, DEMO_USERNAME, demo_club_create


class Command(BaseCommand):
    help = "Create a demo club with players, a season and games. Does nothing if it exists."

    def add_arguments(self, parser: CommandParser) -> None:
        # `make run` passes the address it is about to serve (HOST and PORT), so the link
        # printed here is the one that answers.
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="the address the server will answer on (default: %(default)s)",
        )
        parser.add_argument(
            "--qr",
            action="store_true",
            help="also print the club's address as a QR code (a phone's camera opens it)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club, created = demo_club_create()
        state = "created" if created else "already there"
        base = options["base_url"].rstrip("/")
        self.stdout.write(f"Demo club '{club.name}' {state}: {base}{club.get_absolute_url()}")
        self.stdout.write(f"Demo login: username {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}")
        if options["qr"]:
            self.stdout.write("Phones of this network open it with this code:")
            code = io.StringIO()
            segno.make(f"{base}{club.get_absolute_url()}", error="m").terminal(
                out=code, compact=True
            )
            self.stdout.write(code.getvalue(), ending="")
