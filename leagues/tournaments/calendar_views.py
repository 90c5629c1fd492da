"""The club's nights as an iCalendar feed (see `leagues.tournaments.calendar`)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from kaiser_league.http import absolute_url
from leagues.clubs.access import membership_of
from leagues.clubs.models import Club
from leagues.tournaments.calendar import calendar_key_valid, nights_calendar
from leagues.tournaments.models import Tournament

# The nights of the last two years and every one to come: a feed a calendar app reads often.
MAX_NIGHTS = 500


@require_GET
def club_nights_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """GET ?key=...: the `.ics` feed of the club's nights, for a calendar app holding the club's
    key, a signed-in member, or anyone when the club's standings are public; Http404 else (the
    same answer for a club that does not exist)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not (
        club.standings_public
        or calendar_key_valid(club, request.GET.get("key", ""))
        or membership_of(request, club) is not None
    ):
        raise Http404("No such calendar")
    nights = Tournament.objects.filter(club=club).order_by("-date", "-pk")[:MAX_NIGHTS]
    body = nights_calendar(
        club,
        nights,
        base_url=absolute_url(request, "").rstrip("/"),
        host=request.get_host().split(":")[0] or "kaiser-league",
        name=_("%(club)s: nights") % {"club": club.name},
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{club.slug}-nights.ics"'
    # Calendar apps poll: let them keep it an hour.
    response["Cache-Control"] = "private, max-age=3600"
    return response
