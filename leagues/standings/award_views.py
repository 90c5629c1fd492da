"""The season's awards and records page, also a one-page winners sheet to print
(`leagues.standings.awards` ranks; this module reads the season's counted games)."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from leagues.clubs.access import club_for_viewer
from leagues.standings.awards import MIN_PARTNERSHIP_GAMES, Award, PlayedGame, season_awards
from leagues.standings.models import PlayerStanding
from scorecards.models import Hand, Seat
from scorecards.selectors import game_scored, games_where

TITLES = {
    "most_wins": _("Most wins"),
    "best_partnership": _("Best partnership"),
    "highest_no_trump": _("Highest no-trump bid made"),
    "kaiser_made": _("Kaiser bid made"),
    "longest_streak": _("Longest winning streak"),
    "best_comeback": _("Best comeback"),
    "most_nights": _("Most nights attended"),
}


def season_played_games(season) -> list[PlayedGame]:
    """The season's counted games in the standings' order (day played, then finish), each
    scored by the engine from its stored hands. Three queries."""
    games = (
        games_where(season=season)
        .counted()
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("seat")),
            Prefetch("hands", Hand.objects.order_by("number")),
        )
        .order_by("played_on", "finished_at", "pk")
    )
    played = []
    for game in games:
        seats = list(game.seats.all())
        played.append(
            PlayedGame(
                game_id=game.pk,
                players=tuple(seat.player_id for seat in seats),
                names=tuple(seat.player.name if seat.player else seat.name for seat in seats),
                winner=game.winner,
                score=game_scored(game, list(game.hands.all())),
            )
        )
    return played


@require_GET
def season_awards_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The awards of a season, for whoever may see the club's standings."""
    access = club_for_viewer(request, slug)
    season = access.club.seasons.filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season")
    nights = dict(
        PlayerStanding.objects.filter(season=season).values_list("player__name", "nights")
    )
    awards: list[Award] = season_awards(season_played_games(season), nights)
    rows = [(TITLES[award.key], award) for award in awards]
    return render(
        request,
        "leagues/season_awards.html",
        {
            "access": access,
            "club": access.club,
            "season": season,
            "rows": rows,
            "min_games": MIN_PARTNERSHIP_GAMES,
        },
    )
