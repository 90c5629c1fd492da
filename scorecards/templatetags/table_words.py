"""Template filters of the game pages: `table_words`, a game's table label in the viewer's
language (`scorecards.table_label`)."""

from __future__ import annotations

from django import template

from scorecards.table_label import table_label_worded

register = template.Library()


@register.filter
def table_words(label: str | None) -> str:
    """A game's `table_label` as the viewer reads it ("Ronde 1 · Table 2" in French)."""
    return table_label_worded(label or "")
