"""The tournament room's answer to scorecards' table context (`scorecards.hooks`): where a game
seated at a tournament table stands in its round, read on the game's own query."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, F, OuterRef, Q

from leagues.tournaments.models import (
    RoundStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
)
from leagues.tournaments.selectors import hands_needed
from scorecards.hooks import ANNOTATION_PREFIX, TablePlace
from scorecards.rules import GameScore

# The game's reverse one-to-one link to its tournament table (TournamentTable.game).
TABLE = "tournament_table"

# Annotation suffix -> the tournament table's field it reads.
FIELDS = {
    "table": "pk",
    "confirms": "round__tournament__hands_need_confirmation",
    "round": "round__number",
    "round_status": "round__status",
    "night_status": "round__tournament__status",
    "round_end": "round__tournament__round_end",
    "hands_per_round": "round__tournament__hands_per_round",
    "extra": "round__tournament__extra_hand_on_tie",
}


class TournamentTableContext:
    def annotations(self) -> dict[str, Any]:
        # One LEFT JOIN through the table's one-to-one link rather than a subquery per field:
        # the same values, but Django compiles the query in a fraction of the time, and this
        # query runs on every request and every write of a game.
        return {
            f"{ANNOTATION_PREFIX}{name}": F(f"{TABLE}__{field}") for name, field in FIELDS.items()
        }

    def place(self, values: dict[str, Any], score: GameScore) -> TablePlace | None:
        def value(name: str) -> Any:
            return values[f"{ANNOTATION_PREFIX}{name}"]

        if value("table") is None:
            return None
        tournament = Tournament(
            status=value("night_status"),
            round_end=value("round_end"),
            hands_per_round=value("hands_per_round"),
            extra_hand_on_tie=value("extra"),
        )
        needed = hands_needed(tournament, score)
        return TablePlace(
            round_number=value("round"),
            hands_per_round=tournament.hands_per_round if needed is not None else None,
            needed=needed,
            played=len(score.hands),
            round_closed=value("round_status") == RoundStatus.CLOSED,
            night_over=tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
        )

    def uncounted(self) -> Q:
        # A correlated NOT EXISTS: exact for games that are no table (no join to make nullable).
        called_off = TournamentTable.objects.filter(
            game=OuterRef("pk"), round__tournament__status=TournamentStatus.CANCELLED
        )
        return Q(Exists(called_off))
