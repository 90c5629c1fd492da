"""The tournament room's answer to scorecards' table context (`scorecards.hooks`): where a game
seated at a tournament table stands in its round, read on the game's own query."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils.translation import gettext as _

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


def place_worded(place: TablePlace) -> TablePlace:
    """`place` with what the sheet says of it, in the night's words (scorecards shows them, the
    tournament room writes them): its heading, the aside after it once the round is over, why a
    hand is refused then, and why its hands are final once the round is closed or the night
    over (`TablePlace.heading`, `aside`, `over_message`, `closed_message`)."""
    round_number = place.round_number
    if place.round_over:
        heading = _("Round %(round)s · round over") % {"round": round_number}
    elif place.tie_break:
        heading = _("Round %(round)s · tie-break hand") % {"round": round_number}
    elif place.needed:
        heading = _("Round %(round)s · hand %(n)s of %(total)s") % {
            "round": round_number,
            "n": place.next_hand,
            "total": place.needed,
        }
    else:
        heading = _("Round %(round)s · hand %(n)s") % {"round": round_number, "n": place.next_hand}
    aside = closed = ""
    if place.night_over:
        aside = _("the night is over")
        closed = _("This night is over: ask the director to correct a hand.")
    elif place.round_closed:
        closed = _("This round is over: ask the director to correct a hand.")
    else:
        aside = _("wait for the director’s next draw")
    over_message = _(
        "Round over: every hand of round %(round)s is in. Wait for the director's next draw."
    ) % {"round": round_number}
    return replace(
        place, heading=heading, aside=aside, over_message=over_message, closed_message=closed
    )


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
        place = TablePlace(
            round_number=value("round"),
            hands_per_round=tournament.hands_per_round if needed is not None else None,
            needed=needed,
            played=len(score.hands),
            round_closed=value("round_status") == RoundStatus.CLOSED,
            night_over=tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
        )
        return place_worded(place)

    def uncounted(self) -> Q:
        # A correlated NOT EXISTS: exact for games that are no table (no join to make nullable).
        called_off = TournamentTable.objects.filter(
            game=OuterRef("pk"), round__tournament__status=TournamentStatus.CANCELLED
        )
        return Q(Exists(called_off))
