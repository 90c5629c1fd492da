"""A club's settings, players and seasons pages: assembly, because each shows or links more
than the clubs room: the settings refuse some changes while games are in progress (scorecards)
and link to deleting the club (which removes every room's rows), the players link to their pages
(standings) and to merging two players, and the seasons show when their standings were computed
and link to the standings, the pot and the season's page. Thin views: access helper, form,
service (`leagues.clubs.services`)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kaiser_league.http import form_status, signed_in
from leagues.clubs import selectors, services
from leagues.clubs.access import club_for_member
from leagues.clubs.forms import ClubSettingsForm, PlayerForm, SeasonForm
from leagues.clubs.name_match import alike_message, players_alike
from leagues.clubs.roles import CLUB_MANAGE, PLAYERS_MANAGE, SEASONS_MANAGE
from scorecards.pot import cents_decimal
from scorecards.rules_form import RulesForm
from scorecards.selectors import club_games_in_progress


@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug, CLUB_MANAGE)
    club = access.club
    form = ClubSettingsForm(
        request.POST or None,
        initial={
            "name": club.name,
            "standings_public": club.standings_public,
            "hands_need_confirmation": club.hands_need_confirmation,
            "pot_per_set": None if club.pot_per_set is None else cents_decimal(club.pot_per_set),
            "embed_sites": club.embed_sites,
        },
        club=club,
        in_progress=club_games_in_progress(club),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.club_settings_update(club=club, by=signed_in(request), **form.cleaned_data)
        except services.LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Club settings saved."))
            return redirect("club_settings", slug=club.slug)
    return render(
        request,
        "leagues/club_settings.html",
        {"access": access, "club": club, "form": form},
        status=form_status(request, form),
    )


@require_http_methods(["GET", "POST"])
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players; directors add players here (POST)."""
    if request.method == "POST":
        access = club_for_member(request, slug, PLAYERS_MANAGE)
    else:
        access = club_for_member(request, slug)
    club = access.club
    form = PlayerForm(request.POST or None)
    alike_name = ""
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        # A name that only looks like a player's ("Jerome" beside "Jérôme") is added only when
        # the director says it is someone else (the "add anyway" button sends it back).
        alike = players_alike(club, [name]).get(name)
        if alike and request.POST.get("alike_ok") != name:
            alike_name = name
            form.add_error("name", alike_message(name, alike))
    if request.method == "POST" and form.is_valid():
        try:
            services.player_save(club=club, name=form.cleaned_data["name"], by=signed_in(request))
        except services.LeagueError as exc:
            form.add_error("name", str(exc))
        else:
            messages.success(request, _("Player added."))
            return redirect("club_players", slug=club.slug)
    players = selectors.club_players_by_name(club)
    return render(
        request,
        "leagues/club_players.html",
        {
            "access": access,
            "club": club,
            "players": players,
            "form": form,
            "alike_name": alike_name,
            "can_manage": access.can(PLAYERS_MANAGE),
        },
        status=form_status(request, form),
    )


@require_http_methods(["GET", "POST"])
def club_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    if request.method == "POST":
        access = club_for_member(request, slug, SEASONS_MANAGE)
    else:
        access = club_for_member(request, slug)
    club = access.club
    form = SeasonForm(request.POST or None, initial={"starts_on": datetime.date.today()})
    rules_form = RulesForm(request.POST or None)
    if request.method == "POST" and all([form.is_valid(), rules_form.is_valid()]):
        data = form.cleaned_data
        try:
            services.season_create(
                club=club,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                rules=rules_form.record(),
                by=signed_in(request),
            )
        except services.LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Season created."))
            return redirect("club_seasons", slug=club.slug)
    return render(
        request,
        "leagues/club_seasons.html",
        {
            "access": access,
            "club": club,
            "seasons": selectors.club_seasons(club).select_related("standings"),
            "form": form,
            "rules_form": rules_form,
            "can_manage": access.can(SEASONS_MANAGE),
        },
        status=form_status(request, form, rules_form),
    )
