"""A season's page (its dates, rules, games and nights) and what owners and directors do to it:
edit, close, reopen (owners), delete while empty. Assembly, like the club page: the page shows
the season's games and nights. Thin views: access helper, form, service (`leagues.seasons`)."""

from __future__ import annotations

from django.contrib import messages
from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kaiser_league.http import form_status, signed_in
from leagues.clubs.access import ClubAccess, club_for_member
from leagues.clubs.forms import SeasonEditForm
from leagues.clubs.models import Season
from leagues.clubs.policy import may
from leagues.clubs.roles import (
    SEASON_CLOSE,
    SEASON_DELETE,
    SEASON_EDIT,
    SEASON_REOPEN,
    SEASONS_MANAGE,
    SEASONS_REOPEN,
    VIEW,
)
from leagues.clubs.services import LeagueError
from leagues.seasons import (
    SeasonContents,
    season_close,
    season_contents,
    season_delete,
    season_facts,
    season_offers,
    season_reopen,
    season_update,
)
from scorecards.rules_form import RulesForm
from scorecards.selectors import games_where


def _season(request: HttpRequest, slug: str, season_id: int, action: str = VIEW):
    """The club (for a member allowed `action`) and its season `season_id` (Http404 else)."""
    access = club_for_member(request, slug, action)
    season = Season.objects.filter(club=access.club, pk=season_id).first()
    if season is None:
        raise Http404("No such season")
    return access, season


def _page(
    request: HttpRequest,
    access: ClubAccess,
    season: Season,
    contents: SeasonContents | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    contents = contents or season_contents(season)
    can_manage = access.can(SEASONS_MANAGE)
    offers = season_offers(access.actor, season_facts(season, contents))
    return render(
        request,
        "leagues/season_detail.html",
        {
            "access": access,
            "club": access.club,
            "season": season,
            "contents": contents,
            "error": error,
            "can_manage": can_manage,
            "can_edit": bool(offers[SEASON_EDIT]),
            "can_close": bool(offers[SEASON_CLOSE]),
            "can_reopen": bool(offers[SEASON_REOPEN]),
            "can_delete": bool(offers[SEASON_DELETE]),
        },
        status=status,
    )


@require_GET
def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The season: its name, dates and rules, its games and nights, and (to owners and
    directors) what may be done to it now, or why not."""
    access, season = _season(request, slug, season_id)
    return _page(request, access, season)


@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Rename the season, change its dates, and its rules while no game was played in it."""
    access, season = _season(request, slug, season_id, SEASONS_MANAGE)
    decision = may(access.actor, SEASON_EDIT, season_facts(season, held=False))
    if not decision:
        status = 409 if request.method == "POST" else 200
        return _page(request, access, season, error=decision.reason, status=status)
    data = request.POST if request.method == "POST" else None
    form = SeasonEditForm(
        data,
        initial={
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "min_nights": season.min_nights,
        },
    )
    # The rules change only while the season has no game (its games keep theirs).
    played = games_where(season=season).exists()
    rules_form = None if played else RulesForm(data, base=season.rules)
    forms: list[BaseForm] = [form] if rules_form is None else [form, rules_form]
    if request.method == "POST" and all([f.is_valid() for f in forms]):
        try:
            season_update(
                season=season,
                by=signed_in(request),
                name=form.cleaned_data["name"],
                starts_on=form.cleaned_data["starts_on"],
                ends_on=form.cleaned_data["ends_on"],
                rules=rules_form.record() if rules_form is not None else None,
                min_nights=form.cleaned_data["min_nights"] or 0,
            )
        except LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Season saved."))
            return redirect("season_detail", slug=access.club.slug, season_id=season.pk)
    return render(
        request,
        "leagues/season_edit.html",
        {
            "access": access,
            "club": access.club,
            "season": season,
            "form": form,
            "rules_form": rules_form,
        },
        status=form_status(request, *forms),
    )


def _act(request: HttpRequest, slug: str, season_id: int, action: str, service, done: str):
    access, season = _season(request, slug, season_id, action)
    try:
        service(season=season, by=signed_in(request))
    except LeagueError as exc:
        return _page(request, access, season, error=str(exc), status=409)
    messages.success(request, done)
    return redirect("season_detail", slug=access.club.slug, season_id=season.pk)


@require_POST
def season_close_view(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    return _act(request, slug, season_id, SEASONS_MANAGE, season_close, _("Season closed."))


@require_POST
def season_reopen_view(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    return _act(request, slug, season_id, SEASONS_REOPEN, season_reopen, _("Season reopened."))


@require_POST
def season_delete_view(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    access, season = _season(request, slug, season_id, SEASONS_MANAGE)
    try:
        season_delete(season=season, by=signed_in(request))
    except LeagueError as exc:
        return _page(request, access, season, error=str(exc), status=409)
    messages.success(request, _("The season %(name)s is deleted.") % {"name": season.name})
    return redirect("club_seasons", slug=access.club.slug)
