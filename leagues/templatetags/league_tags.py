"""Template helpers of the club pages."""

from __future__ import annotations

from django import template

from leagues.standings.when import ago

register = template.Library()


# 'updated 4 s ago', '3 min ago', ...: the standings room's words (leagues/standings/when.py).
register.filter("ago", ago)


@register.filter
def rules_words(rules: dict | None) -> str:
    """Stored rules (a preset and its changes, or every setting) in words: "Standard · Minimum
    bid: 6". Rules the engine no longer reads are shown as their preset's id."""
    from scorecards.rules import KaiserError, rules_build
    from scorecards.rules.catalogue import rules_describe

    try:
        return rules_describe(rules_build(rules or {}))
    except KaiserError:
        return str((rules or {}).get("preset", ""))
