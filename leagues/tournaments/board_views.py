"""What a tournament night shows: its standings, the hall's projector, and one table as the
director sees it. Thin views: access helper, selector, service."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from kaiser_league.http import HtmxHttpRequest, signed_in
from kaiser_league.inputs import number_or_none
from leagues.clubs.roles import TOURNAMENTS_RUN
from leagues.tournaments.access import tournament_for_member
from leagues.tournaments.board_cache import panel_html, panel_key
from leagues.tournaments.models import Tournament, TournamentTable
from leagues.tournaments.night_read import NightRows, night_read, night_rows
from leagues.tournaments.night_state import night_is_over, round_is_open
from leagues.tournaments.selectors import TableResult, standings_of, table_result, unit_key
from leagues.tournaments.views import _fragment
from scorecards.qr import table_link
from scorecards.rules import KaiserError
from scorecards.services import HandRefused, hand_undo


def _standings_context(tournament: Tournament) -> dict:
    night = night_read(tournament)
    standings = standings_of(
        tournament, night.entries, night.rounds, night.results, night.sitouts, night.name_order
    )
    return {"tournament": tournament, "standings": standings}


@require_GET
def tournament_standings_view(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id)
    context = _standings_context(access.tournament) | {"access": access}
    return render(request, _fragment(request, "tournaments/standings.html", "standings"), context)


PROJECTOR_SECONDS = 15  # how long each panel stays on the wall before the next one
# What fits a 16:9 screen (1920 x 1080, 1280 x 720: the type follows the screen's size) with
# room for names of two lines (two or three rows, or every side of a table); projector.js
# splits a screenful further when long names still make it taller than the screen.
PROJECTOR_TABLES = 4
PROJECTOR_ROWS = 10
PANEL_NAMES = {"seating": gettext_lazy("Seating"), "standings": gettext_lazy("Standings")}


def _seating(result: TableResult) -> dict:
    """A table as the room reads it: who sits where, who partners whom, who deals first."""
    names = result.names
    first_dealer = result.first_dealer
    return {
        "table": result.table,
        "seats": names,
        "sides": result.sides,
        "scores": result.scores,
        "counted": result.counted,
        "state": result.state,
        "dealer": names[first_dealer] if first_dealer < len(names) else "",
    }


def _panel_query(show: str, page: int) -> str:
    return f"show={show}&page={page}"


def projector_nav(panels: list[tuple[str, int]], shown: tuple[str, int]) -> list[dict]:
    """Every panel as a link, grouped by kind, so the wall can be stepped without JavaScript:
    [{"name", "pages": [{"page", "query", "current"}]}]; empty when there is only one panel."""
    if len(panels) < 2:
        return []
    kinds = list(dict.fromkeys(kind for kind, _page in panels))
    return [
        {
            "name": PANEL_NAMES[kind],
            "pages": [
                {"page": page, "query": _panel_query(kind, page), "current": (k, page) == shown}
                for k, page in panels
                if k == kind
            ],
        }
        for kind in kinds
    ]


def _pages(count: int, size: int) -> int:
    return max(1, -(-count // size))


def projector_panels(*, tables: int, rows: int, seating: bool) -> list[tuple[str, int]]:
    """The projector's panels in the order they follow each other: the round's seating (while
    a round is being played), then the standings, each in screenfuls."""
    panels = (
        [("seating", p) for p in range(1, _pages(tables, PROJECTOR_TABLES) + 1)] if seating else []
    )
    return panels + [("standings", p) for p in range(1, _pages(rows, PROJECTOR_ROWS) + 1)]


@require_GET
def tournament_projector(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The night on the hall's projector: full screen, large type, no site header. While a round
    is being played it shows the round's seating and the standings in turn (`?show=seating` or
    `?show=standings`, and `page` when a panel takes more than one screen); each panel names
    the next one, fetched by htmx when static/js/projector.js has shown the whole panel or,
    without JavaScript, by a meta refresh; every panel is also a link. Before the first round
    and once the night is over, only the standings. The same for every member: kept rendered
    under the version of what it shows (`board_cache`), read after the access check."""
    access = tournament_for_member(request, tournament_id)
    tournament = access.tournament
    show = request.GET.get("show", "")
    show = show if show in PANEL_NAMES else ""  # any other asks the first panel alike
    page = number_or_none(request.GET, "page", minimum=1, maximum=999) or 1
    rows = night_rows(tournament)
    key = panel_key(tournament, rows, show, page, bool(request.htmx), get_language())
    return HttpResponse(
        panel_html(key, lambda: _projector_html(request, tournament, rows, (show, page)))
    )


def _projector_html(
    request: HtmxHttpRequest, tournament: Tournament, rows: NightRows, wanted: tuple[str, int]
) -> bytes:
    """The projector's panel `wanted` (kind, page) of the night whose rows are `rows`."""
    night = night_read(tournament, seating=wanted[0] == "seating", rows=rows)
    current = night.rounds[-1] if night.rounds else None
    seating_open = round_is_open(current) and not night_is_over(tournament)
    results = night.results.get(current.number, []) if current and seating_open else []
    # The standings' rows are counted without ranking them: the seating panel shows none.
    rows_count = len({unit_key(entry, tournament.fixed_pairs) for entry in night.entries})
    panels = projector_panels(tables=len(results), rows=rows_count, seating=seating_open)
    if wanted not in panels:
        # Unknown, or gone since (the round closed): the first panel of that kind, else the first.
        wanted = next((p for p in panels if p[0] == wanted[0]), panels[0])
    show, number = wanted
    next_show, next_page = panels[(panels.index(wanted) + 1) % len(panels)]
    context: dict[str, Any] = {
        "tournament": tournament,
        "current": current,
        "show": show,
        "next_query": f"show={next_show}" + (f"&page={next_page}" if next_page > 1 else ""),
        "seconds": PROJECTOR_SECONDS,
        "pages": sum(1 for p in panels if p[0] == show),
        "page": number,
        "nav": projector_nav(panels, wanted),
    }
    if show == "seating":
        names = {entry.pk: entry.name for entry in night.entries}
        shown = results[(number - 1) * PROJECTOR_TABLES : number * PROJECTOR_TABLES]
        context["tables"] = [_seating(r) for r in shown]
        sitouts = night.sitouts.get(current.number, []) if current is not None else []
        context["sitouts"] = sorted((names[entry_id] for entry_id in sitouts), key=night.name_order)
    else:
        if not night.complete:
            night = night_read(tournament, rows=rows)
        standings = standings_of(
            tournament, night.entries, night.rounds, night.results, night.sitouts, night.name_order
        )
        shown_rows = standings.rows[(number - 1) * PROJECTOR_ROWS : number * PROJECTOR_ROWS]
        context["standings"] = {
            "rows": shown_rows,
            "tiebreaks": standings.tiebreaks,
            # One column for every screenful of the night, or none.
            "sitouts": any(row.sitouts for row in standings.rows),
        }
    template = _fragment(request, "tournaments/projector.html", "board")
    return render_to_string(template, context, request).encode()


def _table(access, table_id: int) -> TournamentTable:
    table = (
        TournamentTable.objects.select_related("round", "game")
        .prefetch_related("game__seats", "game__hands")
        .filter(pk=table_id, round__tournament=access.tournament)
        .first()
    )
    if table is None:
        raise Http404("No such table")
    return table


def _table_context(request: HtmxHttpRequest, access, table: TournamentTable) -> dict:
    tournament = access.tournament
    need_confirm = tournament.hands_need_confirmation
    result = table_result(tournament, table, not round_is_open(table.round), need_confirm)
    assert result.score is not None  # `table_result` scores by the general path
    hands = {h.number: h for h in table.game.hands.all()}
    # Each row says who dealt and who bid first (the seat after the dealer).
    seats = len(result.names)
    rows = [
        (
            scored,
            result.names[scored.dealer],
            hands.get(scored.number),
            result.names[(scored.dealer + 1) % seats],
        )
        for scored in result.score.hands
    ]
    return {
        "tournament": tournament,
        "table": table,
        "result": result,
        "rows": rows,
        "need_confirm": need_confirm,
        "link": table_link(request, table.game),
    }


@require_GET
def table_detail(request: HtmxHttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """A table as the director sees it: what the round counts of it, its hands (each opening the
    score sheet's correction form and history, so a director's correction has the same version
    history as one made at the table), the last hand's undo and the link to the score sheet.
    Hands are entered on the score sheet itself."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    table = _table(access, table_id)
    return render(request, "tournaments/table.html", _table_context(request, access, table))


@require_POST
def table_hand_undo(request: HtmxHttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """Remove the table's last hand (kept in the game's version history)."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    table = _table(access, table_id)
    try:
        user = signed_in(request)
        hand_undo(game=table.game, by=user, by_name=user.get_username())
    except (KaiserError, HandRefused) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Last hand removed."))
    return redirect("tournament_table", tournament_id=tournament_id, table_id=table_id)
