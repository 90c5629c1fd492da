"""The hall projector's panels kept rendered, under a version of everything they show.

The projector polls every few seconds from every screen of the hall, and a panel is the same
for every member allowed to see it. So a panel's HTML is kept under a key made of everything it
shows: the night's own row (as the access check read it: its settings, its status), the rows
`night_read.night_rows` reads (the entries with their players' names, withdrawals and
sit-outs; the rounds with their status; the tables with each game's `updated_at`, which every
write of a game's hands or state moves: a hand entered, corrected, undone or confirmed, a game
finished or abandoned), the panel and page asked, whether htmx asked for the fragment alone,
and the language. Each game's own `updated_at` is in the key, not their latest: two games
written at once may commit in the other order than their times.

The rows are read before the night they key is rendered, so a write that commits in between
can only make the kept page newer than its key, never older; every later reader sees that
write in its key and renders again.

Kept in each process, a bounded memo (the least recently asked forgotten first): a key names
one state of the night, so whichever process answers gives the same page, and a process that
has not seen that state renders it. Nothing is invalidated; a key no one asks again ages out.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable

from leagues.tournaments.models import Tournament
from leagues.tournaments.night_read import NightRows

# A hall runs one or two projectors of one night at a time; each panel's screenfuls, in both
# languages, of a few nights, with room to spare.
KEPT = 128

_kept: OrderedDict[bytes, bytes] = OrderedDict()
_lock = threading.Lock()


def panel_key(tournament: Tournament, rows: NightRows, *asked: object) -> bytes:
    """The key of a panel of `tournament` whose rows are `rows`, asked as `asked` (the panel,
    its page, fragment or page, the language): equal keys show the same HTML."""
    night = tuple(getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields)
    # repr is exact for what these hold (numbers, text, datetimes, None, the rules' JSON).
    text = repr((night, rows.entries, rows.rounds, asked))
    return hashlib.blake2b(text.encode(), digest_size=20).digest()


def panel_html(key: bytes, render: Callable[[], bytes]) -> bytes:
    """The HTML kept under `key`, else `render()`'s, kept."""
    with _lock:
        content = _kept.get(key)
        if content is not None:
            _kept.move_to_end(key)
            return content
    # Rendered outside the lock: two screens asking a new state at once both render it.
    content = render()
    with _lock:
        _kept[key] = content
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return content


def panels_forget() -> None:
    """Forget every kept panel (tests start from nothing)."""
    with _lock:
        _kept.clear()
