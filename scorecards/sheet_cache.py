"""The sheet's rows as HTML, rendered once and kept in the cache.

A row of the score sheet changes only when its hand, the scores up to it, the players' names,
its marks (corrected, confirmed) or the language change, so each row is kept under a key made
of exactly those. Entering the next hand re-renders one row, not the whole sheet; a page or a
poll of an unchanged game renders none. A row that shows the viewer a confirm form (its CSRF
token and the phone's seat are the viewer's own) is never kept: the template renders it live.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scorecards.models import Game
from scorecards.sheet import SheetRow

ROW_TEMPLATE = "scorecards/game_sheet.html#sheet-row"
ROW_SECONDS = 6 * 3600


@functools.cache
def _markup_digest() -> str:
    """A digest of the sheet's templates and of our compiled translations, so that HTML kept by
    an older release of the markup or of its words (in a shared cache that outlives a deploy,
    read by old and new web processes alike) is never shown. Made of file contents only: every
    process of one release computes the same digest."""
    origin = getattr(get_template("scorecards/game_sheet.html"), "origin", None)
    folder = Path(getattr(origin, "name", "") or "").parent
    digest = hashlib.blake2b(digest_size=6)
    catalogues = [Path(p).glob("*/LC_MESSAGES/*.mo") for p in settings.LOCALE_PATHS]
    for source in [*sorted(folder.glob("*.html")), *sorted(f for c in catalogues for f in c)]:
        digest.update(source.name.encode() + source.read_bytes())
    return digest.hexdigest()


def _row_key(game: Game, row: SheetRow, corrected: bool, needs_confirming: bool) -> str:
    hand = row.hand
    confirmed_by = hand.confirmed_by_name if hand is not None and row.confirmed else None
    what = repr(
        (
            row.scored,
            row.dealer_name,
            row.bidder_name,
            row.bid_label,
            corrected,
            needs_confirming,
            confirmed_by,
        )
    )
    digest = hashlib.blake2b(what.encode(), digest_size=16).hexdigest()
    return f"sheet-row:{_markup_digest()}:{get_language()}:{game.pk}:{digest}"


def rows_with_html(
    game: Game,
    rows: Sequence[SheetRow],
    *,
    corrected: set[int],
    needs_confirming: bool,
) -> list[SheetRow]:
    """`rows` with `html` filled in for every row that looks the same to every viewer: from the
    cache, or rendered now and kept. Rows awaiting a confirmation keep `html` empty."""
    keys: dict[int, str] = {}
    for index, row in enumerate(rows):
        if needs_confirming and not row.confirmed:
            continue  # may carry a confirm form for this viewer
        keys[index] = _row_key(game, row, row.scored.number in corrected, needs_confirming)
    found = cache.get_many(list(keys.values())) if keys else {}
    missing: dict[str, str] = {}
    out = list(rows)
    template = None
    for index, key in keys.items():
        row = rows[index]
        html = found.get(key)
        if html is None:
            if template is None:
                template = get_template(ROW_TEMPLATE)
            context = {
                "row": row,
                "game": game,
                "corrected": corrected,
                "needs_confirming": needs_confirming,
            }
            html = missing[key] = template.render(context)
        out[index] = row.with_html(mark_safe(html))
    if missing:
        cache.set_many(missing, ROW_SECONDS)
    return out


FIELDS_TEMPLATE = "scorecards/_hand_fields.html"
# What the hand's fields do not show (scorecards/_hand_fields.html reads only the rest of the
# entry): left out of the key, so the blank fields are drawn once for every hand of a game.
_NOT_IN_FIELDS = frozenset(
    {
        "key",
        "number",
        "dealer",
        "dealer_name",
        "totals",
        "message",
        "phone_seat",
        "conflict_url",
        "fields_html",
    }
)


def blank_fields_html(entry: dict[str, Any]) -> str:
    """The hand's tap fields, blank (no values, no errors), from the cache or rendered now and
    kept; "" for a form re-shown with values or errors, which the template draws live."""
    if entry.get("values") or entry.get("errors"):
        return ""
    shown = sorted((name, value) for name, value in entry.items() if name not in _NOT_IN_FIELDS)
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()
    key = f"hand-fields:{_markup_digest()}:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        html = get_template(FIELDS_TEMPLATE).render({"entry": entry})
        cache.set(key, html, ROW_SECONDS)
    return mark_safe(html)
