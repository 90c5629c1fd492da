"""Every hand of a game, as many a page: the sheet shows only the last ones
(`scorecards.sheet.SHEET_ROWS`) and links here for the earlier ones. No entry here; each hand's
number leads to its own page (its history, a correction), and a hand waiting for this viewer's
confirmation offers the sheet's ✓, which comes back to its page."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from scorecards.access import game_for_member
from scorecards.game_state import game_now_of
from scorecards.rules import game_score
from scorecards.selectors import game_needs_confirmation, table_place
from scorecards.sheet import SHEET_ROWS, RowMarks, rows_html, sheet_rows, side_names
from scorecards.sheet_context import confirm_context
from scorecards.sheet_hands import sheet_hands
from scorecards.table_phone import game_names, phone_id

TEMPLATE = "scorecards/game_history.html"
# As many hands a page as the sheet shows: a page weighs what the sheet does.
HISTORY_PAGE = SHEET_ROWS


def history_pages(count: int) -> int:
    """How many pages `count` hands fill (one, empty, for a game with no hand)."""
    return max(1, -(-count // HISTORY_PAGE))


@require_GET
def game_history(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Page `page` (1: the first hands) of the game's hands, oldest first, each row as the
    sheet draws it, totals the engine's, with the ✓ the sheet would offer this viewer on
    each (the same decision, `confirm_context`). Whoever sees the sheet sees this; a page past
    the last, or not a number, is 404. With htmx, the `#history` fragment only."""
    access = game_for_member(request, game_id)
    game = access.game
    pages = history_pages(game.hand_count)
    page = (
        number_or_none(request.GET, "page", minimum=1, maximum=pages)
        if "page" in request.GET
        else 1
    )
    if page is None:
        raise Http404("No such page")
    start = (page - 1) * HISTORY_PAGE
    # Every record for the engine (the totals of each row), this page's hands as rows.
    read = sheet_hands(game, whole=(start + 1, start + HISTORY_PAGE))
    score = game_score(game.rules_value, read.inputs, game.first_dealer)
    names = game_names(game)
    rows = sheet_rows(score, read.recent, names)
    shown = rows[start : start + HISTORY_PAGE]
    needs_confirming = game_needs_confirmation(game)
    # What the game accepts now, as the sheet reads it; the hands' count alone (the page's
    # hands are not the last ones): the last hand's confirmation decides an undo, not a ✓.
    now = game_now_of(game, table_place(game, score), confirm_asked=needs_confirming)
    confirm = confirm_context(
        access,
        read.recent,
        names,
        now=now,
        user=request.user if request.user.is_authenticated else None,
        phone=phone_id(request.session),
    )
    marks = RowMarks(
        corrected=read.corrected,
        needs_confirming=needs_confirming,
        confirmable=confirm["numbers"],
        confirmer=confirm["name"],
        csrf_token=get_token(request) if confirm["numbers"] else "",
        back_page=page,
    )
    url = reverse("game_history", args=[game.pk])
    context = {
        "game": game,
        "sides": side_names(score.rules, names),
        "score": score,
        "rows_html": rows_html(game.pk, shown, marks),
        "first": start + 1 if shown else 0,
        "last": start + len(shown),
        "count": len(rows),
        "page": page,
        "pages": pages,
        "previous_url": f"{url}?page={page - 1}" if page > 1 else "",
        "next_url": f"{url}?page={page + 1}" if page < pages else "",
    }
    return render(request, TEMPLATE + "#history" if request.htmx else TEMPLATE, context)
