"""Standings pages: the season standings (players, partnerships), the club's ratings, a player's
record, a season's pot, and the directors' rebuild. They read snapshots, never recompute."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import EmptyPage
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from kaiser_league.http import HtmxHttpRequest, absolute_url
from kaiser_league.inputs import number_or_none
from leagues.clubs.access import club_for_member, club_for_viewer, player_for_viewer
from leagues.clubs.embed import embed_origins
from leagues.clubs.roles import CLUB_MANAGE, SEASONS_MANAGE
from leagues.clubs.selectors import club_players_by_name, club_seasons
from leagues.standings import player_page, selectors, services
from leagues.standings.attendance import nights_held, ranked_split, season_attendance
from leagues.standings.charts import line_chart
from leagues.standings.explain import PROVISIONAL_GAMES
from leagues.standings.exports import EXPORT_FORMATS, table_export
from leagues.standings.forms import PlayerGamesFilterForm, StandingsFilterForm
from leagues.standings.page_content import CONTENT, content_html, content_key, row_values, stored
from leagues.standings.player_ratings import (
    explanation_text,
    player_explanations,
    player_rating_points,
)
from leagues.standings.table_cache import table_html
from leagues.standings.tables import (
    PER_PAGE,
    PartnershipStandingTable,
    PlayerRatingTable,
    PlayerStandingTable,
    name_ordered_rows,
)
from leagues.standings.when import ago
from scorecards.pot import cents_text

TABLE_TARGET = "standings-table"  # the element htmx swaps on sort and page changes


@require_GET
def player_detail(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's record: rating (each game explained), every game filtered by season, partner,
    opponent and result (members only, like the games), the record with each partner and
    against each opponent, bids by kind, the biggest hand, each season's pot balance and nights.
    A merged player's old address leads to the player kept."""
    try:
        access, player = player_for_viewer(request, slug, player_id)
    except Http404:
        kept = selectors.player_merged_into(club_for_viewer(request, slug).club, player_id)
        if kept is None:
            raise
        return redirect("player_detail", slug=slug, player_id=kept)
    club = access.club
    points = player_rating_points(player)
    rating = selectors.club_player_ratings(club).filter(player=player).first()
    context: dict[str, Any] = {
        "access": access,
        "club": club,
        "player": player,
        "rating": rating,
        "provisional": rating is not None and rating.games < PROVISIONAL_GAMES,
        "provisional_games": PROVISIONAL_GAMES,
        "chart": line_chart([p.ordinal for p in points]),
        "season_lines": player_page.player_season_lines(player),
    }
    for line in context["season_lines"]:
        line.pot_text = cents_text(line.pot_balance)
    if access.membership:
        context.update(_player_games_context(request, club, player, points))
    return render(request, "leagues/player_detail.html", context)


def _player_games_context(request: HtmxHttpRequest, club, player, points) -> dict[str, Any]:
    seasons = list(club_seasons(club))
    form = PlayerGamesFilterForm(
        request.GET or None, club=club, seasons=seasons, players=club_players_by_name(club)
    )
    lines = selectors.player_game_lines(player)
    if form.is_valid():
        season, partner, opponent = (
            form.cleaned_data[n] for n in ("season", "partner", "opponent")
        )
        result = form.cleaned_data["result"]
        lines = [
            line
            for line in lines
            if (season is None or line.game.season_id == season.pk)
            and (partner is None or any(pk == partner.pk for pk, _n in line.partner_ids))
            and (opponent is None or any(pk == opponent.pk for pk, _n in line.opponent_ids))
            and (not result or line.outcome == result)
        ]
    counted = player_page.counted_lines(lines)
    explained = player_explanations(player, points, [line.game.pk for line in counted])
    you = player.user_id is not None and player.user_id == request.user.pk
    rows = []
    for line in lines:
        why = explained.get(line.game.pk)
        text = (
            explanation_text(
                why,
                line.partners,
                list(line.opponent_names),
                player.name,
                you,
            )
            if why is not None
            else ""
        )
        rows.append({"line": line, "explained": why, "explanation": text})
    return {
        "form": form,
        "rows": rows,
        "partner_records": player_page.partner_records(counted),
        "opponent_records": player_page.opponent_records(counted),
        "hands": player_page.player_hand_figures(counted),
    }


MAX_PAGE = 100_000


def _table_configure(request: HtmxHttpRequest, table) -> None:
    """Sort by ?sort=, show page ?page= (read by kaiser_league.inputs; a bad or past-the-end
    page shows the first or last one). The page size is ours: ?per_page= is not read."""
    RequestConfig(request, paginate=False).configure(table)
    page = number_or_none(request.GET, "page", minimum=1, maximum=MAX_PAGE) or 1
    try:
        table.paginate(page=page, per_page=PER_PAGE)
    except EmptyPage:
        table.paginate(page=table.paginator.num_pages, per_page=PER_PAGE)


def _table_response(
    request: HtmxHttpRequest, table, name: str, template: str, context: dict, apart=None
):
    """Export (?_export=csv|xlsx), the table alone for an htmx swap, or the whole page. `apart`:
    the table of the players not yet ranked, shown (and exported) after the ranked one."""
    export = request.GET.get("_export")
    heading = context.get("apart_heading", "")
    if export in EXPORT_FORMATS:
        return table_export(table, export, name, apart, heading)
    if request.htmx and request.htmx.target == TABLE_TARGET:
        template += "#table"
    context = {**context, "table_html": table_html(request, table)}
    if apart is not None:
        context["apart_html"] = table_html(request, apart)
    return render(request, template, context)


def apart_heading(min_nights: int) -> str:
    return ngettext(
        "Not yet ranked: fewer than %(count)s night",
        "Not yet ranked: fewer than %(count)s nights",
        min_nights,
    ) % {"count": min_nights}


def _apart_table(request: HtmxHttpRequest, rows: list, club_slug: str):
    """The players listed apart, all on one page, sorted as the ranked table is."""
    if not rows:
        return None
    table = PlayerStandingTable(rows)
    table.club_slug = club_slug
    RequestConfig(request, paginate=False).configure(table)
    table.paginate(page=1, per_page=len(rows))
    return table


def _share_context(request: HtmxHttpRequest, access, season) -> dict[str, Any]:
    """For the owner: the public season page's address and the widget's iframe line, to copy
    (only once the standings are public: before, neither opens for anyone else)."""
    if season is None or not access.can(CLUB_MANAGE):
        return {}
    club = access.club
    if not club.standings_public:
        return {"share": {"public": False}}
    page = absolute_url(request, reverse("standings", args=[club.slug]) + f"?season={season.pk}")
    widget = absolute_url(request, reverse("standings_widget", args=[club.slug, season.pk]))
    title = _("Standings of %(club)s, %(season)s") % {"club": club.name, "season": season.name}
    snippet = format_html(
        '<iframe src="{}" title="{}" width="100%" height="480" loading="lazy"></iframe>',
        widget,
        title,
    )
    return {
        "share": {
            "public": True,
            "page_url": page,
            "widget_url": widget,
            "snippet": snippet,  # shown as text: the template escapes it (force_escape)
            "sites": embed_origins(club.embed_sites),
        }
    }


def _standings_context(request: HtmxHttpRequest, slug: str):
    access = club_for_viewer(request, slug)
    club = access.club
    seasons = selectors.club_seasons_counted(club)
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


def _standings_tables(request: HtmxHttpRequest, access, club, season, min_games: int, kind: str):
    """The page's table (configured and paginated), the table of the players listed apart and
    what the content shows beside them, drawn from the season's rows as model instances."""
    rows: Any
    if kind == "players":
        rows = selectors.season_player_standings(season) if season else []
        table_class: type[Any] = PlayerStandingTable
    else:
        rows = selectors.season_partnership_standings(season) if season else []
        table_class = PartnershipStandingTable
    if season is not None and min_games and kind != "players":
        rows = rows.filter(games__gte=min_games)
    extra: dict[str, Any] = {}
    apart = None
    if kind == "players":
        every = list(rows)
        held = nights_held(season.pk, every) if season is not None else 0
        attendance = extra["attendance"] = season_attendance(every, held)
        extra["attendance_groups"] = [
            (_("Regulars"), attendance.regulars),
            (_("Guests"), attendance.guests),
        ]
        rows = name_ordered_rows(
            (row for row in every if row.games >= min_games), lambda r: r.player.name
        )
        min_nights = season.min_nights if season is not None else 0
        rows, apart_rows = ranked_split(rows, min_nights)
        apart = _apart_table(request, apart_rows, club.slug)
        extra.update(min_nights=min_nights, apart_heading=apart_heading(min_nights))
        extra.update(_share_context(request, access, season))
    else:
        rows = name_ordered_rows(rows, lambda r: f"{r.first.name} & {r.second.name}")
    table = table_class(rows)
    table.club_slug = club.slug
    _table_configure(request, table)
    return table, apart, extra


def _standings_page(request: HtmxHttpRequest, slug: str, kind: str) -> HttpResponse:
    access, club, seasons, form, season, min_games, snapshot = _standings_context(request, slug)
    context: dict[str, Any] = {
        "access": access,
        "club": club,
        "season": season,
        "seasons": seasons,
        "form": form,
        "snapshot": snapshot,
        "kind": kind,
        "table_target": TABLE_TARGET,
    }
    export = request.GET.get("_export")
    if export in EXPORT_FORMATS:
        table, apart, extra = _standings_tables(request, access, club, season, min_games, kind)
        name = f"{club.slug}-{season.name if season else 'standings'}-{kind}"
        return table_export(table, export, name, apart, extra.get("apart_heading", ""))
    part = "#table" if request.htmx and request.htmx.target == TABLE_TARGET else ""
    # What the content is drawn from, read as plain values (leagues/standings/page_content).
    values = row_values(season.pk, kind, min_games) if season is not None else []
    key = content_key(
        get_language(),
        kind,
        part,
        request.path,
        sorted(request.GET.lists()),
        access.role,
        stored(club),
        [(stored(s), stored(getattr(s, "standings", None))) for s in seasons],
        None if season is None else season.pk,
        min_games,
        ago(snapshot.computed_at) if snapshot is not None else None,
        values,
        nights_held(season.pk, values) if season is not None and kind == "players" else 0,
        _share_context(request, access, season) if kind == "players" else {},
    )

    def draw() -> str:
        table, apart, extra = _standings_tables(request, access, club, season, min_games, kind)
        drawn = {**context, **extra, "table": table, "table_html": table_html(request, table)}
        if apart is not None:
            drawn["apart_html"] = table_html(request, apart)
        return render_to_string(CONTENT + part, drawn, request=request)

    content = content_html(key, draw)
    if part:
        return HttpResponse(content)
    return render(
        request,
        "leagues/standings.html",
        {
            **context,
            "content": content,
            "can_refresh": access.can(SEASONS_MANAGE),
            "rebuild_failures": (
                selectors.club_rebuild_failures(club, season) if access.can(SEASONS_MANAGE) else []
            ),
        },
    )


@require_GET
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _standings_page(request, slug, "players")


@require_GET
def standings_partnerships(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _standings_page(request, slug, "partnerships")


@require_GET
def ratings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
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
            "provisional_games": PROVISIONAL_GAMES,
        },
    )


@require_POST
def standings_refresh(request: HtmxHttpRequest, slug: str) -> HttpResponse:
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
def season_pot(request: HtmxHttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Each player's pot balance over a season's counted games (members only), as the standings
    rebuild stored it: nothing is scored again here."""
    access = club_for_member(request, slug)
    club = access.club
    season = club.seasons.select_related("standings").filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season")
    lines = selectors.season_pot_lines(season)
    # All at zero: no counted game moved anyone's balance (no pot kept, or none fed yet).
    balances = (
        [(line.name, cents_text(line.cents), line.cents) for line in lines]
        if any(line.cents for line in lines)
        else []
    )
    return render(
        request,
        "leagues/season_pot.html",
        {
            "access": access,
            "club": club,
            "season": season,
            "balances": balances,
            "snapshot": getattr(season, "standings", None),
        },
    )
