#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_league.settings")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    from kaiser_league.budget import budget_set

    # A command (an import, a restore, a rebuild) holds no web worker: a larger time budget than
    # a request's for each statement (kaiser_league/budget.py).
    budget_set(settings.DB_COMMAND_STATEMENT_TIMEOUT)

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
