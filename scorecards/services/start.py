"""Opening a game at a table: the game, its seats and its table link in one transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scorecards.models import Game
from scorecards.services.games import game_token_issue
from scorecards.services.hands import game_start


def game_open(**start: Any) -> Game:
    """Start a game (`game_start`, same keywords and refusals) and give it its table link (the
    QR code the other phones scan), both or neither: a game never exists without its link."""
    with transaction.atomic():
        game = game_start(**start)
        game_token_issue(game=game)
    return game
