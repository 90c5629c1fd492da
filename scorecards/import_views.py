"""The game import page: a director uploads or pastes a kaiser-game/1 record for their club."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kaiser_league.http import HtmxHttpRequest
from leagues.clubs.access import club_for_member
from leagues.clubs.roles import GAMES_IMPORT
from scorecards.import_names import PlayersAlike, answers_read, record_text
from scorecards.importing import GameImportForm, game_import, message_shorten
from scorecards.rules import KaiserError


@require_http_methods(["GET", "POST"])
def club_game_import(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: the form. POST: import, then go to the new game's sheet; a refused record answers
    422 with the form and the reason, and nothing is written."""
    access = club_for_member(request, slug, GAMES_IMPORT)
    club = access.club
    status = 200
    # Names of the record that only look like players of the club: asked before importing.
    asks: list[tuple[str, list]] = []
    if request.method == "POST":
        form = GameImportForm(request.POST, request.FILES, club=club)
        if form.is_valid():
            try:
                game = game_import(
                    club=club,
                    record=form.cleaned_data["record"],
                    season=form.cleaned_data["season"],
                    created_by=request.user if request.user.is_authenticated else None,
                    same=answers_read(request.POST),
                )
            except PlayersAlike as exc:
                asks = list(exc.alike.items())
                season = form.cleaned_data["season"]
                initial = {"text": record_text(form.cleaned_data["record"])}
                form = GameImportForm(
                    initial={**initial, "season": season.pk if season else None}, club=club
                )
            except KaiserError as exc:
                form.add_error(
                    None,
                    _("This record cannot be imported: %(reason)s")
                    % {"reason": message_shorten(str(exc))},
                )
            else:
                if game.played_on is not None:
                    text = _("Game imported: %(hands)s hands, played on %(day)s.") % {
                        "hands": game.hand_count,
                        "day": date_format(game.played_on, "DATE_FORMAT"),
                    }
                else:
                    text = _(
                        "Game imported: %(hands)s hands. The record gives no date "
                        "(played_on): the day it was played is not known."
                    ) % {"hands": game.hand_count}
                messages.success(request, text)
                return redirect(game)
        status = 200 if asks else 422
    else:
        form = GameImportForm(club=club)
    template = "scorecards/game_import.html"
    if request.htmx:
        template += "#import-form"
    return render(request, template, {"club": club, "form": form, "asks": asks}, status=status)
