"""The hands of a game as the sheet reads them, in one query whatever the game's length: every
hand's record for the engine, whole rows only for the last ones (those the sheet shows, and
those a phone kept from earlier answers).

A game at the bound (MAX_HANDS) read as 500 model rows, each with its corrected mark, took some
150 ms; read so, some 30 ms: the sheet of the largest game answers like a short one's."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import BooleanField, Case, Exists, OuterRef, Value, When

from scorecards.models import Game, Hand, HandAction, HandVersion, hand_input
from scorecards.rules import HandInput
from scorecards.sheet import SHEET_ROWS

# Whole rows for the last hands: those the sheet shows and as many again, so that a phone whose
# sheet grew by the rows sent to it since its page still gets only its new rows.
RECENT_ROWS = 2 * SHEET_ROWS


@dataclass(frozen=True)
class SheetHands:
    """`inputs`: every hand as the engine takes it, in order; `recent`: the last RECENT_ROWS
    hands (or those asked) as rows, each with `corrected`; `count`: how many hands;
    `corrected`: the numbers of the recent hands changed after they were entered;
    `unconfirmed`: some hand, recent or not, waits for a confirmation."""

    inputs: list[HandInput]
    recent: list[Hand]
    count: int
    corrected: set[int]
    unconfirmed: bool

    def padded(self) -> list[Hand | None]:
        """As many items as hands, the recent ones last (None before them): for readers of a
        game's hands that want their count and the last one (`game_now_of`)."""
        return [None] * (self.count - len(self.recent)) + list(self.recent)


def sheet_hands(game: Game, whole: tuple[int, int] | None = None) -> SheetHands:
    """The game's hands as the sheet reads them (one query); `whole`: the numbers (first, last)
    of the hands read as rows (`recent`), by default the last RECENT_ROWS."""
    first, last = whole or (game.hand_count - RECENT_ROWS + 1, game.hand_count)
    corrected = HandVersion.objects.filter(
        game=OuterRef("game"), number=OuterRef("number"), action=HandAction.CORRECT
    )
    # The corrected mark is looked up for the recent hands only (CASE does not run the
    # subquery for the others): it was most of the read's time.
    mark = Case(
        When(number__gte=first, number__lte=last, then=Exists(corrected)),
        default=Value(False),
        output_field=BooleanField(),
    )
    names = [field.attname for field in Hand._meta.concrete_fields]
    number_at, record_at, confirmed_at = (
        names.index("number"),
        names.index("record"),
        names.index("confirmed_at"),
    )
    rows = game.hands.annotate(corrected=mark).order_by("number").values_list(*names, "corrected")
    inputs: list[HandInput] = []
    recent: list[Hand] = []
    unconfirmed = False
    db = game._state.db or "default"
    for row in rows:
        number = row[number_at]
        inputs.append(hand_input(number, row[record_at]))
        unconfirmed = unconfirmed or row[confirmed_at] is None
        if first <= number <= last:
            hand = Hand.from_db(db, names, row[:-1])
            hand.corrected = row[-1]  # type: ignore[attr-defined]
            recent.append(hand)
    return SheetHands(
        inputs=inputs,
        recent=recent,
        count=len(inputs),
        corrected={hand.number for hand in recent if getattr(hand, "corrected", False)},
        unconfirmed=unconfirmed,
    )
