"""Player pages of a club beyond the list: renaming a player (owners and directors). The merge
page needs several rooms and lives in `leagues.players.views`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kaiser_league.http import form_status, signed_in
from leagues.clubs.access import player_for_member
from leagues.clubs.forms import PlayerForm
from leagues.clubs.player_services import player_rename
from leagues.clubs.roles import PLAYERS_MANAGE
from leagues.clubs.services import LeagueError


@require_http_methods(["GET", "POST"])
def player_rename_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """GET: the player's name in a form. POST: rename, then the club's players; a refused name
    (another player's, even with other accents or case) answers 422 naming the field."""
    access, player = player_for_member(request, slug, player_id, PLAYERS_MANAGE)
    club = access.club
    old_name = player.name
    form = PlayerForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        try:
            player_rename(
                player=player,
                name=form.cleaned_data["name"],
                by=signed_in(request),
                action=PLAYERS_MANAGE,
            )
        except LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(
                request,
                _("%(old)s is now called %(new)s.") % {"old": old_name, "new": player.name},
            )
            return redirect("club_players", slug=club.slug)
    return render(
        request,
        "leagues/player_rename.html",
        {"access": access, "club": club, "player": player, "form": form},
        status=form_status(request, form),
    )
