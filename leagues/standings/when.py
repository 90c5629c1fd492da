"""How long ago a snapshot was computed, as the standings pages say it."""

from __future__ import annotations

import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


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
