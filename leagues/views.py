"""The home page and a club's front page: assembly pages that gather clubs and their games."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from kaiser_league.http import absolute_url, form_status, signed_in
from leagues.club_removal import club_contents
from leagues.club_removal import club_delete as club_delete_service
from leagues.clubs.access import club_for_member
from leagues.clubs.roles import CLUB_MANAGE, GAMES_IMPORT, TOURNAMENTS_RUN
from leagues.clubs.selectors import club_players_by_name, clubs_of
from leagues.clubs.services import LeagueError
from leagues.standings.selectors import club_recent_games
from leagues.tournaments.calendar import calendar_key
from scorecards.models import Game


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    memberships = []
    quick_games = []
    if request.user.is_authenticated:
        memberships = list(clubs_of(request.user))
        quick_games = list(
            Game.objects.filter(created_by=request.user, club__isnull=True)
            .prefetch_related("seats")
            .order_by("-created_at")[:10]
        )
    return render(request, "home.html", {"memberships": memberships, "quick_games": quick_games})


@require_GET
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug)
    club = access.club
    return render(
        request,
        "leagues/club_detail.html",
        {
            "access": access,
            "club": club,
            "games": list(club_recent_games(club)),
            "players": club_players_by_name(club),
            "can_import": access.can(GAMES_IMPORT),
            "can_upload_night": access.can(TOURNAMENTS_RUN),
            "calendar_url": absolute_url(
                request,
                reverse("club_nights_calendar", args=[club.slug]) + f"?key={calendar_key(club)}",
            ),
        },
    )


class ClubDeleteForm(forms.Form):
    """The owner types the club's short name: deleting a club cannot be undone."""

    slug = forms.CharField(label=gettext_lazy("The club’s short name"), max_length=60)

    def __init__(self, *args, club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].strip()
        if slug != self.club.slug:
            raise forms.ValidationError(
                _("Type %(slug)s to delete the club.") % {"slug": self.club.slug}
            )
        return slug


@require_http_methods(["GET", "POST"])
def club_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Delete the club (owners), after a page that names all it deletes."""
    access = club_for_member(request, slug, CLUB_MANAGE)
    club = access.club
    form = ClubDeleteForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            club_delete_service(club=club, by=signed_in(request))
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The club %(name)s is deleted.") % {"name": club.name})
            return redirect("home")
    return render(
        request,
        "leagues/club_delete.html",
        {"access": access, "club": club, "contents": club_contents(club), "form": form},
        status=form_status(request, form),
    )
