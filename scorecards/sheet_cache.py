"""The parts of a game's sheet that every viewer sees alike, kept by each web process between
requests: the hands read, the engine's score, the rows, the rows drawn (without any viewer's ✓
form) and the chart.

They are kept under a key of everything they are drawn from, so that a kept entry is never
stale, only unused:
- the game: its id and `updated_at` (the sheet's version, `sheet.sheet_version`: every write
  of a hand, a correction, an undo, a confirmation, and every save of the game row moves it,
  as the poll relies on too), and the columns of the row they read (hand count, first dealer,
  rules, finish reason, status), which a write without `save()` could change alone;
- the seats' names as this request read them (a seat renamed shows at once, whichever process
  answers);
- whether the game asks each hand to be confirmed (its club's setting, or its night's: neither
  moves the game's version), which marks the rows;
- the language and the script prefix (the rows' words and links).
A write makes a new key: a process that has not seen it reads the hands again, as every process
did before this cache; nothing is invalidated, and the entries of past versions age out (a
bounded LRU). So what a page shows does not depend on which process answers it
(CONTRIBUTING, caches).

What a viewer sees of their own (the ✓ forms of the hands they may confirm, the seat board, the
table link, the entry form, the policy's offers) is never kept here alone: `sheet_context` adds
it per request. The page's parts drawn from it (`scorecards.sheet_parts`) are kept in an entry
under the viewer's values they read besides. The kept hands and rows are shared between
requests and threads: read only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import get_script_prefix
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from scorecards.models import Game, Hand
from scorecards.rules import GameScore, game_score
from scorecards.sheet import (
    DrawnRow,
    RowMarks,
    SheetRow,
    rows_drawn,
    score_chart,
    sheet_rows,
    side_names,
)
from scorecards.sheet_hands import sheet_hands

# Sheets kept per process: the games being played at once in a club's night, each at its last
# version or two. An entry of the longest game (MAX_HANDS) weighs some hundreds of kB.
SIZE = 64
# Page parts kept per sheet (`SheetShared.part`): each part once for each kind of viewer of one
# version (their powers, their seat), a few kB each.
PARTS = 32


@dataclass
class SheetShared:
    """One game's sheet at one version, as every viewer sees it. `recent`: the last hands as
    rows (`sheet_hands.RECENT_ROWS`), each with `corrected`; `count`: every hand;
    `corrected`: the numbers of the recent hands changed after they were entered;
    `unconfirmed`: some hand waits for a confirmation; `rows`: every hand's row."""

    game_id: int
    recent: list[Hand]
    count: int
    corrected: frozenset[int]
    unconfirmed: bool
    needs_confirming: bool
    score: GameScore
    sides: list[str]
    rows: list[SheetRow]
    _drawn: dict[int, list[DrawnRow]] = field(default_factory=dict, repr=False)
    _chart: list[SafeString] = field(default_factory=list, repr=False)
    _kept: dict[Hashable, Any] = field(default_factory=dict, repr=False)
    _parts: dict[Hashable, str] = field(default_factory=dict, repr=False)

    def padded(self) -> list[Hand | None]:
        """As many items as hands, the recent ones last (None before them)."""
        return [None] * (self.count - len(self.recent)) + list(self.recent)

    def marks(self) -> RowMarks:
        """The rows' marks every viewer sees (no ✓ form: `confirmable` is the viewer's)."""
        return RowMarks(corrected=self.corrected, needs_confirming=self.needs_confirming)

    def drawn(self, first: int) -> list[DrawnRow]:
        """The rows from index `first`, drawn for every viewer (`sheet.rows_joined` adds a
        viewer's ✓ forms); drawn once per entry (two threads may both draw them: the same)."""
        drawn = self._drawn.get(first)
        if drawn is None:
            drawn = self._drawn[first] = rows_drawn(self.game_id, self.rows[first:], self.marks())
        return drawn

    def chart(self) -> SafeString:
        """The score chart (`sheet.score_chart`), drawn once per entry."""
        if not self._chart:
            self._chart.append(score_chart(self.score))
        return self._chart[0]

    def kept(self, name: Hashable, make: Callable[[], Any]) -> Any:
        """`make()`, worked out once per entry under `name`: for a value drawn from this
        entry's parts and what `name` holds alone (the caller's promise), such as the blank
        entry form. Read only."""
        if name not in self._kept:
            self._kept[name] = make()
        return self._kept[name]

    def part(self, key: Hashable) -> str | None:
        """The page part kept under `key` (`scorecards.sheet_parts`), None when none is."""
        return self._parts.get(key)

    def part_keep(self, key: Hashable, text: str) -> None:
        """Keep the page part `text` under `key`: a key of everything the part shows besides
        this entry's parts (the caller's promise). The oldest goes beyond PARTS."""
        with _lock:
            parts = self._parts
            parts[key] = text
            while len(parts) > PARTS:
                del parts[next(iter(parts))]


_kept: OrderedDict[Hashable, SheetShared] = OrderedDict()
_lock = threading.Lock()


def shared_key(game: Game, names: Sequence[str], needs_confirming: bool) -> Hashable:
    """Everything the kept parts of `game`'s sheet are drawn from (see the module's doc)."""
    return (
        game.pk,
        game.updated_at,
        game.hand_count,
        game.first_dealer,
        game.rules_value,
        game.finish_reason,
        game.status,
        tuple(names),
        needs_confirming,
        get_language(),
        get_script_prefix(),
    )


def sheet_shared(game: Game, names: Sequence[str], *, needs_confirming: bool) -> SheetShared:
    """The parts of `game`'s sheet every viewer sees alike: kept ones when this process drew the
    same game at the same version with the same names, language and confirmation setting, else
    read now (one query: `sheet_hands`) and kept. `game` is the row this request read; the hands
    are read after it, so an entry never shows less than its version."""
    key = shared_key(game, names, needs_confirming)
    with _lock:
        shared = _kept.get(key)
        if shared is not None:
            _kept.move_to_end(key)
            return shared
    shared = _read(game, list(names), needs_confirming)
    with _lock:
        _kept[key] = shared
        _kept.move_to_end(key)
        while len(_kept) > SIZE:
            _kept.popitem(last=False)
    return shared


def _read(game: Game, names: list[str], needs_confirming: bool) -> SheetShared:
    read = sheet_hands(game)
    score = game_score(game.rules_value, read.inputs, game.first_dealer)
    return SheetShared(
        game_id=game.pk,
        recent=read.recent,
        count=read.count,
        corrected=frozenset(read.corrected),
        unconfirmed=read.unconfirmed,
        needs_confirming=needs_confirming,
        score=score,
        sides=side_names(score.rules, names),
        rows=sheet_rows(score, read.recent, names),
    )


def kept_count() -> int:
    """How many sheets this process keeps now."""
    return len(_kept)


def forget_all(*_args: Any, **_kwargs: Any) -> None:
    """Drop every kept sheet of this process (a test's fresh start; never needed for truth)."""
    with _lock:
        _kept.clear()
