"""The game laid out like the traditional paper score sheet, for printing: every hand, not only
the sheet's last ones (`scorecards.sheet.SHEET_ROWS`), as many a page as print whole."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from kaiser_league.http import HtmxHttpRequest
from scorecards.access import game_for_member
from scorecards.hands_page import hands_page
from scorecards.models import FinishReason, Game
from scorecards.rules import GameScore
from scorecards.sheet import side_names

# Hands a printed page holds. Every real game prints whole on one page: a game to 52 is over in
# 10 to 30 hands, and the longest target the rules accept takes some 100 to 200
# (docs/game-record.md, Bounds). A game past that is one no table plays (up to MAX_HANDS,
# 500): it prints in pages of 200 rows (some five sheets of paper each, an answer of some 45 kB
# drawn in some 90 ms), so that no answer draws 500 rows.
PRINT_HANDS = 200


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
    game = game_for_member(request, game_id).game
    shown = hands_page(game, request.GET, PRINT_HANDS, "game_print")
    score = shown.score
    sides = side_names(score.rules, shown.names)
    context = {
        "game": game,
        "score": score,
        "sides": sides,
        "rows": shown.rows,
        **shown.links,
        # The blank rows to write the next hands on, and the result, end the last page only.
        "last_page": shown.page == shown.pages,
        "winner_name": sides[score.winner] if score.winner is not None else "",
        "finish_reason": finish_words(game, score),
    }
    return render(request, "scorecards/game_print.html", context)
