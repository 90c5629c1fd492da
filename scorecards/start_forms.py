"""The form of a new game's table: its seats, first dealer, day and table label (the rules and
the table's habits have forms of their own: `RulesForm`, `GameHabitsForm`)."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from kaiser_league.inputs import NameField, WholeNumberField
from scorecards.played_on import played_on_read
from scorecards.rules import KaiserError, Rules

MAX_SEAT_NAME = 80  # Seat.name
MAX_TABLE_LABEL = 40  # Game.table_label
MAX_SEATS = 6  # the most seats the engine's rules allow (`Rules.seats`)


class GameStartForm(forms.Form):
    """The table of a game with `seats` seats. `starting`: the scorer asked to start, so the
    seat names are checked too (a refresh of the page keeps what was typed without judging
    it). `move` (the arrow that moves a player one seat up) is read, never refused: a move out
    of range moves nothing.

    Errors are read by `errors_by_part` under the parts of the page they belong to."""

    # Bounded again in __init__ by the game's seats.
    first_dealer = WholeNumberField(min_value=0, max_value=MAX_SEATS - 1, required=False)
    move = WholeNumberField(min_value=1, max_value=MAX_SEATS - 1, required=False)
    table_label = NameField(max_length=MAX_TABLE_LABEL, required=False)
    # Read by `played_on_read` alone, so every bad day is refused in the engine's words.
    played_on = forms.Field(required=False)

    def __init__(self, data: Any, *, seats: int, starting: bool) -> None:
        super().__init__(data)
        self.seats = seats
        self.fields["first_dealer"] = WholeNumberField(
            min_value=0, max_value=seats - 1, required=False
        )
        self.fields["move"] = WholeNumberField(
            min_value=1, max_value=max(seats - 1, 1), required=False
        )
        for seat in range(seats):
            self.fields[f"seat_{seat}"] = (
                NameField(max_length=MAX_SEAT_NAME, required=False)
                if starting
                else forms.CharField(required=False)
            )

    def clean_played_on(self) -> datetime.date:
        """Today (the club's day) unless the scorer says otherwise, e.g. a game typed in from
        paper the morning after."""
        raw = self.cleaned_data.get("played_on")
        text = raw.strip() if isinstance(raw, str) else ""
        if not text:
            return timezone.localdate()
        try:
            return played_on_read(text)
        except KaiserError as error:
            raise ValidationError(error.message) from None

    def value(self, name: str, default: Any = None) -> Any:
        """A field's clean value, or `default` when it was refused."""
        return self.cleaned_data.get(name, default) if name not in self.errors else default

    def errors_by_part(self) -> dict[str, list[str]]:
        """The refusals, by the part of the page that shows them: `first_dealer`,
        `table_label`, `played_on`, and `seats` (one line per seat, naming it)."""
        parts: dict[str, list[str]] = {}
        if "first_dealer" in self.errors:
            refused = [str(message) for message in self.errors["first_dealer"]]
            parts["first_dealer"] = [_("Choose the first dealer."), *refused]
        for name in ("table_label", "played_on"):
            if name in self.errors:
                parts[name] = [str(message) for message in self.errors[name]]
        for seat in range(self.seats):
            for message in self.errors.get(f"seat_{seat}", []):
                parts.setdefault("seats", []).append(
                    _("Seat %(n)s: %(error)s") % {"n": seat + 1, "error": message}
                )
        return parts


def rematch_data(game: Any, rules: Rules) -> dict[str, str]:
    """The new-game form's values for a rematch of `game` (its seats read with their players):
    the same people in the same seats (a club player under their name now), the same table
    label, and the first dealer moved on by one seat from `game`'s first dealer (`rules`:
    the game's, for its number of seats). The form shows them; the scorer may change any."""
    data = {
        f"seat_{seat.seat}": seat.player.name if seat.player is not None else seat.name
        for seat in game.seats.all()
    }
    data["first_dealer"] = str((game.first_dealer + 1) % rules.seats)
    if game.table_label:
        data["table_label"] = game.table_label
    return data
