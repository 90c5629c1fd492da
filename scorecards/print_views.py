"""The game laid out like the traditional paper score sheet, for printing: every hand, not only
the sheet's last ones (`scorecards.sheet.SHEET_ROWS`), as many a page as print whole."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from scorecards.access import game_for_member
from scorecards.models import FinishReason, Game
from scorecards.rules import GameScore, game_score
from scorecards.sheet import sheet_rows, side_names
from scorecards.sheet_hands import sheet_hands
from scorecards.table_phone import game_names

# Hands a printed page holds. Every real game prints whole on one page: a game to 52 is over in
# 10 to 30 hands, and the longest target the rules accept takes some 100 to 200
# (docs/game-record.md, Bounds). A game past that is one no table plays (up to MAX_HANDS,
# 500): it prints in pages of 200 rows (some five sheets of paper each, an answer of some 45 kB
# drawn in some 90 ms), so that no answer draws 500 rows.
PRINT_HANDS = 200


def print_pages(count: int) -> int:
    """How many pages `count` hands fill (one for a game with no hand)."""
    return max(1, -(-count // PRINT_HANDS))


def finish_words(game: Game, score: GameScore) -> str:
    """Why the game ended, in words ("" while it goes on)."""
    if score.reason or game.finish_reason == FinishReason.ROUND:
        return str(FinishReason(score.reason or game.finish_reason).label)
    return ""


@require_GET
def game_print(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Page `page` (1: the first hands; one page for any real game) of the paper sheet: each
    row the hand's dealer, bid and each side's hand and total, totals the engine's over every
    hand. One read of the hands whatever the game's length. Whoever sees the sheet sees this;
    a page past the last, or not a number, is 404."""
    access = game_for_member(request, game_id)
    game = access.game
    pages = print_pages(game.hand_count)
    page = (
        number_or_none(request.GET, "page", minimum=1, maximum=pages)
        if "page" in request.GET
        else 1
    )
    if page is None:
        raise Http404("No such page")
    start = (page - 1) * PRINT_HANDS
    read = sheet_hands(game, whole=(start + 1, start + PRINT_HANDS))
    score = game_score(game.rules_value, read.inputs, game.first_dealer)
    names = game_names(game)
    sides = side_names(score.rules, names)
    rows = sheet_rows(score, read.recent, names)[start : start + PRINT_HANDS]
    url = reverse("game_print", args=[game.pk])
    context = {
        "game": game,
        "score": score,
        "sides": sides,
        "rows": rows,
        "page": page,
        "pages": pages,
        "first": start + 1 if rows else 0,
        "last": start + len(rows),
        "count": len(read.inputs),
        # The blank rows to write the next hands on, and the result, end the last page only.
        "last_page": page == pages,
        "previous_url": f"{url}?page={page - 1}" if page > 1 else "",
        "next_url": f"{url}?page={page + 1}" if page < pages else "",
        "winner_name": sides[score.winner] if score.winner is not None else "",
        "finish_reason": finish_words(game, score),
    }
    return render(request, "scorecards/game_print.html", context)
