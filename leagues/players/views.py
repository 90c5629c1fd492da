"""The merge page of a player (owners and directors): choose the player they are the same person
as, see what will move, then merge. Works without JavaScript: the choice is a GET form (the
preview), the merge a POST."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from kaiser_league.collation import NameOrderedModelChoiceField
from kaiser_league.http import signed_in
from kaiser_league.inputs import model_choice_field
from leagues.clubs.access import player_for_member
from leagues.clubs.models import Club, Player, PlayerMerge
from leagues.clubs.roles import PLAYERS_MERGE
from leagues.clubs.services import LeagueError
from leagues.players.merge import merge_preview, player_merge

MERGES_SHOWN = 10


class MergeForm(forms.Form):
    into = NameOrderedModelChoiceField(
        queryset=Player.objects.none(),
        label=gettext_lazy("The same person as"),
        help_text=gettext_lazy("This player is kept; the one of this page is merged into it."),
    )

    def __init__(self, *args: Any, club: Club, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = model_choice_field(self.fields, "into")
        field.queryset = Player.objects.filter(club=club).exclude(pk=player.pk)
        field.empty_label = _("choose a player")


@require_http_methods(["GET", "POST"])
def player_merge_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """GET: the choice, and with `into` the preview of what moves (or why it cannot). POST:
    the merge, then the club's players; a refused merge answers 422 with the reason."""
    access, player = player_for_member(request, slug, player_id, PLAYERS_MERGE)
    club = access.club
    if request.method == "POST":
        data: Any = request.POST
    else:
        data = request.GET if "into" in request.GET else None
    form = MergeForm(data, club=club, player=player)
    preview = None
    if form.is_bound and form.is_valid():
        kept = form.cleaned_data["into"]
        if request.method == "POST":
            try:
                record = player_merge(kept=kept, merged=player, by=signed_in(request))
            except LeagueError as exc:
                form.add_error("into", str(exc))
            else:
                messages.success(
                    request,
                    _(
                        "%(merged)s merged into %(kept)s. Seats moved: %(seats)s; night "
                        "entries moved: %(entries)s. The standings and ratings are being rebuilt."
                    )
                    % {
                        "merged": record.merged_name,
                        "kept": kept.name,
                        "seats": record.moved.get("seats", 0),
                        "entries": record.moved.get("entries", 0),
                    },
                )
                return redirect("club_players", slug=club.slug)
        else:
            preview = merge_preview(kept=kept, merged=player)
    refused = (form.is_bound and bool(form.errors)) or (preview is not None and preview.refusal)
    return render(
        request,
        "leagues/player_merge.html",
        {
            "access": access,
            "club": club,
            "player": player,
            "form": form,
            "preview": preview,
            # The trace of the club's latest merges: who was made one with whom, by whom, when.
            "merges": list(
                PlayerMerge.objects.filter(club=club).select_related("kept")[:MERGES_SHOWN]
            ),
        },
        status=422 if refused else 200,
    )
