"""The table score sheet and a game's record download."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from scorecards.access import game_for_member, game_for_table_token, table_token_remember
from scorecards.selectors import game_hands, game_record, game_scored, seat_names


@require_GET
def game_sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    access = game_for_member(request, game_id)
    game = access.game
    hands = list(game_hands(game))
    score = game_scored(game, hands)
    names = seat_names(game)
    rules = score.rules
    sides = [" & ".join(names[seat] for seat in side) for side in rules.sides]
    rows = [(scored, names[scored.dealer]) for scored in score.hands]
    context = {
        "access": access,
        "game": game,
        "score": score,
        "sides": sides,
        "names": names,
        "rows": rows,
        "winner_name": sides[score.winner] if score.winner is not None else "",
    }
    template = "scorecards/game_sheet.html"
    if request.htmx:
        template += "#sheet"
    return render(request, template, context)


@require_GET
def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_for_member(request, game_id).game
    response = HttpResponse(
        json.dumps(game_record(game), indent=1, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="kaiser-game-{game.pk}.json"'
    return response


@require_GET
def game_table_join(request: HttpRequest, token: str) -> HttpResponse:
    """The table link (and its QR code): remember the token in this browser, open the sheet."""
    game = game_for_table_token(token)
    table_token_remember(request, game)
    return redirect("game_sheet", game_id=game.pk)
