"""The rating changes of one game, for the finished sheet (registered with scorecards as its
`GameRatings`, `leagues.apps`): each rated player's shown rating (the ordinal) right after the
game against right before it, as the player's page explains them (`explain.GameExplained`)."""

from __future__ import annotations

from django.db.models import F, Window
from django.db.models.functions import Lag, RowNumber

from leagues.standings.derived import rating_model
from leagues.standings.explain import PROVISIONAL_GAMES, new_rating
from leagues.standings.models import RatingPoint
from leagues.standings.player_ratings import rating_change_text
from scorecards.hooks import RatingChange


class GameRatingChanges:
    def changes(self, game_id: int) -> dict[int, RatingChange]:
        """The change of each player rated by the game, by player id ({} while it has no
        stored ratings). One query: every stored point of the game's players, each with the
        one before it and its number in the player's order."""
        players = RatingPoint.objects.filter(game_id=game_id).values("player_id")
        rows = (
            RatingPoint.objects.filter(player_id__in=players)
            .annotate(
                before=Window(Lag("ordinal"), partition_by=[F("player_id")], order_by="seq"),
                number=Window(RowNumber(), partition_by=[F("player_id")], order_by="seq"),
            )
            .values_list("player_id", "game_id", "ordinal", "before", "number")
        )
        fresh = None
        changes: dict[int, RatingChange] = {}
        # The window reads every point of these players; only this game's are kept (a filter
        # on the game in the query would number the points before the window sees them).
        for player_id, point_game, ordinal, before, number in rows:
            if point_game != game_id:
                continue
            if before is None:  # the player's first rated game: from a new player's rating
                fresh = fresh if fresh is not None else new_rating(rating_model()).ordinal
                before = fresh
            changes[player_id] = RatingChange(
                change=rating_change_text(ordinal - before),
                provisional=number < PROVISIONAL_GAMES,
            )
        return changes
