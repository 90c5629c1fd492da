"""Template helpers of the club pages."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def ago(when: datetime.datetime | None) -> str:
    """'updated 4 s ago', '3 min ago', '2 h ago', '5 days ago'; 'not computed yet' for None."""
    if not when:
        return _("not computed yet")
    seconds = max(0, int((timezone.now() - when).total_seconds()))
    if seconds < 60:
        return _("updated %(n)s s ago") % {"n": seconds}
    if seconds < 3600:
        return _("updated %(n)s min ago") % {"n": seconds // 60}
    if seconds < 86400:
        return _("updated %(n)s h ago") % {"n": seconds // 3600}
    days = seconds // 86400
    return ngettext("updated %(n)s day ago", "updated %(n)s days ago", days) % {"n": days}


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
