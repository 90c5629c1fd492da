"""Club pages of issue 4: sign-up, creating a club, members and invitations, players, seasons,
standings, ratings and a player's record. Thin function views: access helper, form, service."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_tables2 import RequestConfig

from kaiser_league.collation import sorted_by_name
from kaiser_league.inputs import number_or_none
from leagues import selectors, services
from leagues.access import (
    club_for_member,
    club_for_viewer,
    player_for_member,
    player_for_viewer,
)
from leagues.charts import line_chart
from leagues.forms import (
    ClubForm,
    ClubSettingsForm,
    InvitationForm,
    PlayerForm,
    PlayerLinkForm,
    RoleForm,
    SeasonForm,
    SignUpForm,
    StandingsFilterForm,
)
from leagues.models import Invitation, Membership
from leagues.roles import CLUB_MANAGE, PLAYERS_MANAGE, SEASONS_MANAGE
from leagues.tables import (
    EXPORT_FORMATS,
    PER_PAGE,
    PartnershipStandingTable,
    PlayerRatingTable,
    PlayerStandingTable,
    name_ordered_rows,
    table_export,
)
from scorecards.pot import cents_decimal, cents_text
from scorecards.rules_form import RulesForm
from scorecards.selectors import season_pot_balances

TABLE_TARGET = "standings-table"  # the element htmx swaps on sort and page changes


# --- Accounts and clubs -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    user = None
    if request.method == "POST" and form.is_valid():
        try:
            user = services.account_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except services.LeagueError as exc:
            form.add_error("username", str(exc))
    if user is not None:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        nxt = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return redirect(nxt if nxt and safe else "home")
    return render(
        request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")}
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(name=form.cleaned_data["name"], owner=request.user)
        except services.LeagueError as exc:
            form.add_error("name", str(exc))
        else:
            return redirect(club)
    return render(request, "leagues/club_create.html", {"form": form})


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
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.club_settings_update(club=club, **form.cleaned_data)
        except services.LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Club settings saved."))
            return redirect("club_settings", slug=club.slug)
    return render(
        request, "leagues/club_settings.html", {"access": access, "club": club, "form": form}
    )


# --- Members and invitations ----------------------------------------------------------------


@require_GET
def club_members(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    club = access.club
    memberships = sorted_by_name(
        club.memberships.select_related("user"), lambda m: m.user.get_username()
    )
    invitations = list(
        club.invitations.filter(revoked=False).prefetch_related("uses").order_by("-created_at")[:20]
    )
    return render(
        request,
        "leagues/club_members.html",
        {
            "access": access,
            "club": club,
            "memberships": memberships,
            "invitations": invitations,
            "invite_form": InvitationForm(),
            "can_manage": access.can(CLUB_MANAGE),
            "now": timezone.now(),
            "role_choices": RoleForm.base_fields["role"].choices,
        },
    )


@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    form = InvitationForm(request.POST)
    if form.is_valid():
        invitation = services.invitation_create(
            club=access.club,
            role=form.cleaned_data["role"],
            created_by=request.user,
            max_uses=form.cleaned_data["max_uses"] or 1,
            days=form.cleaned_data["days"] or services.INVITATION_DAYS,
        )
        link = request.build_absolute_uri(reverse("invitation_accept", args=[invitation.token]))
        messages.success(request, _("Invitation link: %(link)s") % {"link": link})
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return redirect("club_members", slug=access.club.slug)


@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    invitation = Invitation.objects.filter(club=access.club, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation")
    services.invitation_revoke(invitation=invitation)
    messages.success(request, _("Invitation revoked."))
    return redirect("club_members", slug=access.club.slug)


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link. Anyone holding it sees the club's name; joining needs an account."""
    invitation = services.invitation_valid(token)
    if invitation is None:
        raise Http404("No such invitation")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            services.invitation_accept(invitation=invitation, user=request.user)
        except services.LeagueError as exc:
            messages.error(request, str(exc))
            return redirect("home")
        messages.success(request, _("Welcome to %(club)s.") % {"club": invitation.club.name})
        return redirect(invitation.club)
    return render(request, "leagues/invitation_accept.html", {"invitation": invitation})


@require_POST
def membership_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    access = club_for_member(request, slug, CLUB_MANAGE)
    membership = Membership.objects.filter(club=access.club, pk=membership_id).first()
    if membership is None:
        raise Http404("No such member")
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            services.membership_role_set(
                membership=membership, role=form.cleaned_data["role"], by=request.user
            )
        except services.LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Role changed."))
    return redirect("club_members", slug=access.club.slug)


@require_http_methods(["GET", "POST"])
def membership_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """Remove a member (owners and directors), after a confirmation page."""
    access = club_for_member(request, slug, PLAYERS_MANAGE)
    membership = (
        Membership.objects.filter(club=access.club, pk=membership_id).select_related("user").first()
    )
    if membership is None:
        raise Http404("No such member")
    if request.method == "POST":
        try:
            services.membership_remove(membership=membership, by=request.user)
        except services.LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("%(name)s is no longer a member.") % {"name": membership.user.get_username()},
            )
        return redirect("club_members", slug=access.club.slug)
    return render(
        request,
        "leagues/membership_remove.html",
        {"access": access, "club": access.club, "membership": membership},
    )


# --- Players --------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players; directors add players here (POST)."""
    if request.method == "POST":
        access = club_for_member(request, slug, PLAYERS_MANAGE)
    else:
        access = club_for_member(request, slug)
    club = access.club
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_save(club=club, name=form.cleaned_data["name"])
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
            "can_manage": access.can(PLAYERS_MANAGE),
        },
    )


@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """Rename a player or link them to a member's account (directors)."""
    access, player = player_for_member(request, slug, player_id, PLAYERS_MANAGE)
    club = access.club
    form = PlayerForm(request.POST or None, initial={"name": player.name})
    link_form = PlayerLinkForm(request.POST or None, club=club, initial={"user": player.user_id})
    if request.method == "POST" and form.is_valid() and link_form.is_valid():
        try:
            services.player_save(club=club, name=form.cleaned_data["name"], player=player)
            services.player_link(player=player, user=link_form.cleaned_data["user"])
        except services.LeagueError as exc:
            form.add_error(exc.field or None, str(exc))
        else:
            messages.success(request, _("Player saved."))
            return redirect("club_players", slug=club.slug)
    return render(
        request,
        "leagues/player_edit.html",
        {"access": access, "club": club, "player": player, "form": form, "link_form": link_form},
    )


@require_GET
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's record: games, partners, rating over time (snapshots and stored games)."""
    access, player = player_for_viewer(request, slug, player_id)
    points = selectors.player_rating_points(player)
    rating = selectors.club_player_ratings(access.club).filter(player=player).first()
    return render(
        request,
        "leagues/player_detail.html",
        {
            "access": access,
            "club": access.club,
            "player": player,
            "games": selectors.player_game_lines(player) if access.membership else [],
            "partnerships": selectors.player_partnerships(player),
            "rating": rating,
            "chart": line_chart([p.ordinal for p in points]),
        },
    )


# --- Seasons --------------------------------------------------------------------------------


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
            "seasons": selectors.club_seasons(club),
            "form": form,
            "rules_form": rules_form,
            "can_manage": access.can(SEASONS_MANAGE),
        },
    )


# --- Standings and ratings ------------------------------------------------------------------


MAX_PAGE = 100_000


def _table_configure(request: HttpRequest, table) -> None:
    """Sort by ?sort=, show page ?page= (read by kaiser_league.inputs; a bad or past-the-end
    page shows the first or last one). The page size is ours: ?per_page= is not read."""
    RequestConfig(request, paginate=False).configure(table)
    page = number_or_none(request.GET, "page", minimum=1, maximum=MAX_PAGE) or 1
    try:
        table.paginate(page=page, per_page=PER_PAGE)
    except EmptyPage:
        table.paginate(page=table.paginator.num_pages, per_page=PER_PAGE)


def _table_response(request: HttpRequest, table, name: str, template: str, context: dict):
    """Export (?_export=csv|xlsx), the table alone for an htmx swap, or the whole page."""
    export = request.GET.get("_export")
    if export in EXPORT_FORMATS:
        table.export_format = export  # decimals: localized text in CSV, numbers in XLSX
        return table_export(table, export, name)
    if request.htmx and request.htmx.target == TABLE_TARGET:
        template += "#table"
    return render(request, template, context)


def _standings_context(request: HttpRequest, slug: str):
    access = club_for_viewer(request, slug)
    club = access.club
    seasons = selectors.club_seasons(club)
    form = StandingsFilterForm(request.GET or None, club=club, seasons=seasons)
    season = seasons[0] if seasons else None
    min_games = 0
    if form.is_valid():
        season = form.cleaned_data["season"] or season
        min_games = form.cleaned_data["min_games"] or 0
    if season is not None:
        # The loaded object (with its snapshot), not the form's fresh copy.
        season = next((s for s in seasons if s.pk == season.pk), season)
    snapshot = getattr(season, "standings", None) if season is not None else None
    return access, club, seasons, form, season, min_games, snapshot


def _standings_page(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    access, club, seasons, form, season, min_games, snapshot = _standings_context(request, slug)
    if kind == "players":
        rows = selectors.season_player_standings(season) if season else []
        table_class = PlayerStandingTable
    else:
        rows = selectors.season_partnership_standings(season) if season else []
        table_class = PartnershipStandingTable
    if season is not None and min_games:
        rows = rows.filter(games__gte=min_games)
    if kind == "players":
        rows = name_ordered_rows(rows, lambda r: r.player.name)
    else:
        rows = name_ordered_rows(rows, lambda r: f"{r.first.name} & {r.second.name}")
    table = table_class(rows)
    table.club_slug = club.slug
    _table_configure(request, table)
    name = f"{club.slug}-{season.name if season else 'standings'}-{kind}"
    return _table_response(
        request,
        table,
        name,
        "leagues/standings.html",
        {
            "access": access,
            "club": club,
            "season": season,
            "seasons": seasons,
            "form": form,
            "table": table,
            "snapshot": snapshot,
            "kind": kind,
            "table_target": TABLE_TARGET,
            "can_refresh": access.can(SEASONS_MANAGE),
            "rebuild_failures": (
                selectors.club_rebuild_failures(club, season)
                if access.can(SEASONS_MANAGE) and not request.htmx
                else []
            ),
        },
    )


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    return _standings_page(request, slug, "players")


@require_GET
def standings_partnerships(request: HttpRequest, slug: str) -> HttpResponse:
    return _standings_page(request, slug, "partnerships")


@require_GET
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    access = club_for_viewer(request, slug)
    club = access.club
    rows = name_ordered_rows(selectors.club_player_ratings(club), lambda r: r.player.name)
    table = PlayerRatingTable(rows)
    table.club_slug = club.slug
    _table_configure(request, table)
    return _table_response(
        request,
        table,
        f"{club.slug}-ratings",
        "leagues/ratings.html",
        {
            "access": access,
            "club": club,
            "table": table,
            "snapshot": selectors.club_ratings_snapshot(club),
            "table_target": TABLE_TARGET,
        },
    )


@require_POST
def standings_refresh(request: HttpRequest, slug: str) -> HttpResponse:
    """Queue a rebuild of every season's standings and the ratings (directors). The page keeps
    showing the snapshot until the worker has written the new one."""
    access = club_for_member(request, slug, SEASONS_MANAGE)
    club = access.club
    queued = services.derived_data_send(
        season_ids=list(club.seasons.values_list("pk", flat=True)), club_ids=[club.pk]
    )
    text = _("Rebuild queued.") if queued else _("Could not queue the rebuild; try again later.")
    if request.htmx:
        return render(request, "leagues/standings.html#refreshed", {"text": text})
    messages.info(request, text)
    return redirect("standings", slug=club.slug)


@require_GET
def season_pot(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Each player's pot balance over a season (members only)."""
    access = club_for_member(request, slug)
    club = access.club
    season = club.seasons.filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season")
    balances = [(name, cents_text(cents), cents) for name, cents in season_pot_balances(season)]
    return render(
        request,
        "leagues/season_pot.html",
        {"access": access, "club": club, "season": season, "balances": balances},
    )
