"""What scorecards tells the rooms above it, and what it asks of them, without importing them.

Scorecards sits below standings and tournaments (CONTRIBUTING.md): it announces, they listen.

- `game_result_changed` (signal, keyword `game`): sent by the services, inside their
  transaction, when what a game counts for may have changed: it finished, a hand of a finished
  game was corrected, undone or confirmed, or it was abandoned. Receivers queue their work with
  `transaction.on_commit`, so nothing happens for a transaction that rolls back.
- `games_deleted` (signal, keywords `season_games`, `club_games`: {season or club id: the ids
  of its games}): sent inside the transaction that deletes games, just before they go, so a
  receiver still reads what it keeps of them (the standings' summaries go with them).
- The table context: the room that seats games at tournament tables registers one
  `TableContext` (`table_context_register`). Scorecards reads through it where a game stands in
  its round, with the figures annotated on the game's own query, so no extra query is paid.
  With none registered, no game is a table. It also names the games that never count
  (`uncounted_games`: the tables of a night called off), for `Game.objects.counted()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.db.models import Q
from django.dispatch import Signal

if TYPE_CHECKING:
    from scorecards.rules import GameScore

game_result_changed = Signal()
games_deleted = Signal()

# Prefix of the annotations a table context adds to a game's query.
ANNOTATION_PREFIX = "_place_"


@dataclass(frozen=True)
class TablePlace:
    """Where a tournament table stands in its round. The figures are for scorecards' rules (is
    the round over, may a hand go in); the words are the table context's, in its room's
    vocabulary (rounds, the director, the night), which scorecards shows and never writes:
    `heading` (the sheet's line: "Round 2 · hand 3 of 4"), `aside` (what follows it once the
    round is over: "wait for the director's next draw"), `over_message` (why a hand is refused
    once the round is over) and `closed_message` (why the table's hands are final once its round
    is closed or its night over, and who corrects them)."""

    round_number: int
    hands_per_round: int | None  # None: the round runs to the target or a time limit
    needed: int | None  # the round's hands, one more when tied after the last (tie-break)
    played: int
    round_closed: bool  # the director closed the round (or drew the next)
    night_over: bool
    heading: str = ""
    aside: str = ""
    over_message: str = ""
    closed_message: str = ""

    @property
    def tie_break(self) -> bool:
        return self.needed is not None and self.needed > (self.hands_per_round or 0)

    @property
    def round_over(self) -> bool:
        return (
            self.round_closed
            or self.night_over
            or (self.needed is not None and self.played >= self.needed)
        )

    @property
    def next_hand(self) -> int:
        return self.played + 1


class TableContext(Protocol):
    def annotations(self) -> dict[str, Any]:
        """Query expressions, keyed by names starting with ANNOTATION_PREFIX, that a Game
        queryset annotates to know where the game stands (all None for a game that is no
        table). Must include `_place_confirms`: True when the game's night asks every hand to
        be confirmed."""
        ...

    def place(self, values: dict[str, Any], score: GameScore) -> TablePlace | None:
        """The table's place from the annotated values (no query), with its words; None when
        not a table."""
        ...

    def uncounted(self) -> Q:
        """A filter on Game matching the games that never count for standings or ratings,
        whatever their state (the tables of a night that was called off)."""
        ...


_contexts: list[TableContext] = []


def table_context_register(context: TableContext) -> None:
    """Install the table context (once per process; a second registration replaces it)."""
    _contexts[:] = [context]


def place_annotations() -> dict[str, Any]:
    """The annotations a game query adds so `table_place` and `game_needs_confirmation` cost no
    query (empty when no table context is registered)."""
    return _contexts[0].annotations() if _contexts else {}


def place_values(game: Any) -> dict[str, Any] | None:
    """The table-context values annotated on `game`, or None when it was read without them."""
    names = place_annotations()
    if not names or not all(hasattr(game, name) for name in names):
        return None
    return {name: getattr(game, name) for name in names}


def place_from(values: dict[str, Any], score: GameScore) -> TablePlace | None:
    return _contexts[0].place(values, score) if _contexts else None


def uncounted_games() -> Q | None:
    """The filter of games that never count (`TableContext.uncounted`), or None."""
    return _contexts[0].uncounted() if _contexts else None


# --- rating changes at the end of a game --------------------------------------------------------
# The standings room, which keeps the ratings, registers one `GameRatings`; the finished sheet
# shows each rated player's change through it. With none registered, it shows none.


@dataclass(frozen=True)
class RatingChange:
    """One player's shown rating after a game, against before it: `change` signed ("+1.4"),
    `provisional` while the player has few rated games."""

    change: str
    provisional: bool


class GameRatings(Protocol):
    def changes(self, game_id: int) -> dict[int, RatingChange]:
        """The change of each rated player of the game, by player id; empty while the game is
        not rated (not counted, or its ratings not updated yet)."""
        ...


_ratings: list[GameRatings] = []


def game_ratings_register(provider: GameRatings) -> None:
    """Install the ratings' provider (once per process; a second registration replaces it)."""
    _ratings[:] = [provider]


def game_rating_changes(game_id: int) -> dict[int, RatingChange]:
    """`GameRatings.changes` of the registered provider, or {} when none is registered."""
    return _ratings[0].changes(game_id) if _ratings else {}
