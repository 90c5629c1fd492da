"""A club's tournament nights as an iCalendar feed (RFC 5545, written by the `icalendar`
library): one all-day event per night, so Google, Apple and Outlook calendars show the club's
nights and follow changes (a night renamed, moved or called off keeps its UID).

Who may read it: calendar apps fetch a feed with no account, so the feed's address carries a
key derived from the server's secret (`calendar_key`): members see it on the club page; a club
whose standings are public serves its nights to anyone."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.core import signing
from django.utils.crypto import constant_time_compare
from icalendar import Calendar, Event

from leagues.clubs.models import Club
from leagues.tournaments.models import Tournament, TournamentStatus

_SALT = "kaiser.club-calendar"


def calendar_key(club: Club) -> str:
    """The key of `club`'s feed address (the same until the server's SECRET_KEY changes)."""
    return signing.Signer(salt=_SALT).signature(f"{club.pk}:{club.slug}")


def calendar_key_valid(club: Club, key: str) -> bool:
    return bool(key) and constant_time_compare(key, calendar_key(club))


def nights_calendar(
    club: Club, nights: Iterable[Tournament], *, base_url: str, host: str, name: str
) -> bytes:
    """The feed of `nights` (`name` is the calendar's title; `base_url` makes each night's
    link; `host` makes the events' UIDs unique across servers)."""
    calendar = Calendar()
    calendar.add("prodid", "-//Kaiser League//club nights//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for night in nights:
        event = Event()
        event.add("uid", f"kaiser-night-{night.pk}@{host}")
        event.add("dtstamp", night.created_at.astimezone(datetime.UTC))
        event.add("dtstart", night.date)
        event.add("dtend", night.date + datetime.timedelta(days=1))
        event.add("summary", f"{night.name} · {club.name}")
        event.add("url", base_url + night.get_absolute_url())
        event.add(
            "status", "CANCELLED" if night.status == TournamentStatus.CANCELLED else "CONFIRMED"
        )
        calendar.add_component(event)
    return calendar.to_ical()
