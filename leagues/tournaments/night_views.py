"""Calling a night off: one page says what cancelling or deleting the night would do (or why it
cannot), and the two actions it offers. Owners and directors only."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from kaiser_league.http import HtmxHttpRequest, signed_in
from leagues.clubs.policy import may
from leagues.clubs.roles import NIGHT_CANCEL, NIGHT_DELETE, TOURNAMENTS_RUN
from leagues.tournaments.access import TournamentAccess, tournament_for_member
from leagues.tournaments.lifecycle import (
    fate_facts,
    night_fate,
    tournament_cancel,
    tournament_delete,
)
from leagues.tournaments.services import TournamentError


def _page(
    request: HtmxHttpRequest, access: TournamentAccess, error: str = "", status: int = 200
) -> HttpResponse:
    tournament = access.tournament
    fate = night_fate(tournament)
    facts = fate_facts(tournament, fate)
    return render(
        request,
        "tournaments/call_off.html",
        {
            "tournament": tournament,
            "club": tournament.club,
            "fate": fate,
            "cancel": may(access.actor, NIGHT_CANCEL, facts),
            "delete": may(access.actor, NIGHT_DELETE, facts),
            "error": error,
        },
        status=status,
    )


@require_GET
def tournament_call_off(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """What cancelling or deleting the night would do, with the buttons the night allows."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    return _page(request, access)


@require_POST
def tournament_cancel_view(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    try:
        tournament_cancel(tournament=access.tournament, by=signed_in(request))
    except TournamentError as exc:
        return _page(request, access, str(exc), status=409)
    messages.success(request, _("The night is cancelled: none of its games counts."))
    return redirect(access.tournament)


@require_POST
def tournament_delete_view(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    try:
        tournament_delete(tournament=access.tournament, by=signed_in(request))
    except TournamentError as exc:
        return _page(request, access, str(exc), status=409)
    messages.success(
        request, _("The night %(name)s is deleted.") % {"name": access.tournament.name}
    )
    return redirect("tournament_list", slug=access.tournament.club.slug)
