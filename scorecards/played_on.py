"""The day a game was played (`Game.played_on`) as the app takes it from a person: the engine
checks the form (YYYY-MM-DD) and the years (`scorecards.rules.played_on_parse`); the app adds
that a game is recorded once played, so no day after tomorrow (tomorrow, not today: a club a
time zone ahead of the server may already be there).

    day = played_on_read("2026-09-14")     # a date, or RecordError naming `played_on`
    played_on_recent(day)                  # the same check for a day read elsewhere (a record)
"""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from scorecards.rules import RecordError, played_on_parse


def played_on_latest() -> datetime.date:
    """The last day a game may say it was played on: tomorrow in the server's time zone (the
    club's: there is one time zone per installation, `settings.TIME_ZONE`)."""
    return timezone.localdate() + datetime.timedelta(days=1)


def played_on_recent(day: datetime.date | None) -> datetime.date | None:
    """`day` unless it is after tomorrow (RecordError naming `played_on`); None stays None."""
    if day is None:
        return None
    latest = played_on_latest()
    if day > latest:
        raise RecordError(
            "played_on",
            _("%(day)s is in the future: a game is recorded on the day it is played or after")
            % {"day": day.isoformat()},
        )
    return day


def played_on_read(text: str) -> datetime.date:
    """The day typed in `text` (YYYY-MM-DD, as a browser's date field sends it), or
    RecordError naming `played_on`: malformed, no such day, before 1900 or after tomorrow."""
    day = played_on_recent(played_on_parse(text))
    assert day is not None
    return day
