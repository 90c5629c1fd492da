"""The club's nights in a calendar app: a valid iCalendar feed at an address members get from the
club page, readable without an account (calendar apps have none), and by anyone only when the
club's standings are public."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from icalendar import Calendar

from leagues.clubs.models import Club, Membership
from leagues.clubs.roles import Role
from leagues.tournaments.calendar import calendar_key
from leagues.tournaments.models import TournamentStatus
from leagues.tournaments.services import tournament_create
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _nights(club: Club) -> list:
    friday = tournament_create(
        club=club, name="Friday, the 20th; darts too", date=datetime.date(2026, 11, 20)
    )
    off = tournament_create(club=club, name="Snow night", date=datetime.date(2026, 12, 4))
    off.status = TournamentStatus.CANCELLED
    off.save(update_fields=["status"])
    return [friday, off]


def test_a_member_finds_the_feed_on_the_club_page_and_a_calendar_app_reads_it(club, bob) -> None:
    friday, off = _nights(club)
    page = client_for(bob).get(reverse("club_detail", args=[club.slug])).content.decode()
    url = reverse("club_nights_calendar", args=[club.slug]) + f"?key={calendar_key(club)}"
    assert url in page
    answer = client_for(None).get(url)  # the calendar app: no account
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(answer.content)
    events = {str(event["uid"]): event for event in calendar.walk("VEVENT")}
    assert set(events) == {
        f"kaiser-night-{friday.pk}@testserver",
        f"kaiser-night-{off.pk}@testserver",
    }
    event = events[f"kaiser-night-{friday.pk}@testserver"]
    assert event.decoded("dtstart") == datetime.date(2026, 11, 20)
    assert event.decoded("dtend") == datetime.date(2026, 11, 21)
    assert str(event["summary"]) == f"Friday, the 20th; darts too · {club.name}"
    assert str(event["url"]).endswith(friday.get_absolute_url())
    assert str(events[f"kaiser-night-{off.pk}@testserver"]["status"]) == "CANCELLED"
    assert b"\r\n" in answer.content  # RFC 5545 line ends


def test_without_the_key_the_feed_is_for_members_or_a_public_club(club, bob, charlie) -> None:
    _nights(club)
    other = Club.objects.create(name="Other", slug="other")
    Membership.objects.create(club=other, user=charlie, role=Role.OWNER)
    url = reverse("club_nights_calendar", args=[club.slug])
    assert client_for(None).get(url).status_code == 404
    assert client_for(charlie).get(url).status_code == 404
    assert client_for(bob).get(url).status_code == 200  # a member, in the browser
    assert client_for(None).get(url + f"?key={calendar_key(other)}").status_code == 404
    assert client_for(None).get(url + "?key=x" * 3).status_code == 404
    club.standings_public = True
    club.save(update_fields=["standings_public"])
    assert client_for(None).get(url).status_code == 200
    missing = reverse("club_nights_calendar", args=["no-such-club"])
    assert client_for(None).get(missing).status_code == 404
