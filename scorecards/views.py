"""A game's record download and the table link. The sheet itself is in table_views, the
actions around a hand in hand_views."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from scorecards.access import game_for_member, game_for_table_token, table_token_remember
from scorecards.selectors import game_record


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
