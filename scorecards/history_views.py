"""Every hand of a game, as many a page: the sheet shows only the last ones
(`scorecards.sheet.SHEET_ROWS`) and links here for the earlier ones. No entry here; each hand's
number leads to its own page (its history, a correction), and a hand waiting for this viewer's
confirmation offers the sheet's ✓, which comes back to its page."""

from __future__ import annotations

from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.views.decorators.http import require_GET

from kaiser_league.http import HtmxHttpRequest
from scorecards.access import game_for_member
from scorecards.game_state import game_now_of
from scorecards.hands_page import hands_page
from scorecards.selectors import game_needs_confirmation, table_place
from scorecards.sheet import SHEET_ROWS, RowMarks, rows_html, side_names
from scorecards.sheet_context import confirm_context
from scorecards.table_phone import phone_id

TEMPLATE = "scorecards/game_history.html"
# As many hands a page as the sheet shows: a page weighs what the sheet does.
HISTORY_PAGE = SHEET_ROWS


@require_GET
def game_history(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Page `page` (1: the first hands) of the game's hands, oldest first, each row as the
    sheet draws it, totals the engine's, with the ✓ the sheet would offer this viewer on
    each (the same decision, `confirm_context`). Whoever sees the sheet sees this; a page past
    the last, or not a number, is 404. With htmx, the `#history` fragment only."""
    access = game_for_member(request, game_id)
    game = access.game
    shown = hands_page(game, request.GET, HISTORY_PAGE, "game_history")
    read, score, names = shown.read, shown.score, shown.names
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
        back_page=shown.page,
    )
    context = {
        "game": game,
        "sides": side_names(score.rules, names),
        "score": score,
        "rows_html": rows_html(game.pk, shown.rows, marks),
        **shown.links,
    }
    return render(request, TEMPLATE + "#history" if request.htmx else TEMPLATE, context)
