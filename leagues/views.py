"""The home page and a club's front page: assembly pages that gather clubs and their games."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from leagues.clubs.access import club_for_member
from leagues.clubs.roles import GAMES_IMPORT
from leagues.clubs.selectors import club_players_by_name, clubs_of
from leagues.standings.selectors import club_recent_games
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
        },
    )
