"""The sheet page's parts drawn once for all who see them alike: pieces of the page template
(`{% kept "name" value ... %}...{% endkept %}`, the tag of `scorecards/templatetags/sheet_parts`)
kept, as drawn, in the sheet's shared entry (`scorecards.sheet_cache`).

A part is kept under its name and the values its tag names: everything it shows besides what the
shared entry is drawn from (the game's version, the seats' names, the confirmation setting, the
language), such as the viewer's powers, the seat their phone holds, where the table stands in its
round, the club's name. So a kept part is one the same values would draw again, whichever
process answers (CONTRIBUTING, caches). A value that cannot be part of a key (a dict, a list)
draws the part each time, kept by no one.

Two values of the request's own are drawn into parts: the CSRF token and the entry form's
idempotency key. A part is kept with a marker in their place and shown with this request's.

With the setting `KEPT_PARTS_CHECK` (the tests'), a part found kept is drawn again as well and
must read the same: a value a part shows that its tag does not name fails the request.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

# Markers no page shows (NUL is never drawn): a kept part holds them in place of the values of
# the request that drew it.
CSRF_MARK = "\x00csrf\x00"
KEY_MARK = "\x00key\x00"


class PartStore(Protocol):
    """Where parts are kept: the sheet's shared entry (`scorecards.sheet_cache.SheetShared`),
    the frame's parts (`leagues/templatetags/page_parts`)."""

    def part(self, key: Hashable) -> str | None: ...

    def part_keep(self, key: Hashable, text: str) -> None: ...


class PartChanged(AssertionError):
    """A kept part reads differently when drawn again (`KEPT_PARTS_CHECK`): its tag names
    fewer values than it shows."""


class PageParts:
    """The parts of one request's page: kept in `shared`, shown with `fresh`, the pairs (this
    request's value, its marker)."""

    def __init__(self, shared: PartStore, fresh: Sequence[tuple[str, str]]) -> None:
        self.shared = shared
        self.fresh = [(value, mark) for value, mark in fresh if value]
        self.check = bool(getattr(settings, "KEPT_PARTS_CHECK", False))

    def part(self, key: Hashable, draw: Callable[[], str]) -> SafeString:
        """The part `key` (its name and the values it reads), kept or drawn now (`draw()`) and
        kept."""
        try:
            kept = self.shared.part(key)
        except TypeError:  # a value that is no key: drawn for this request alone
            return mark_safe(draw())
        if kept is None or self.check:
            drawn = self._marked(draw())
            if kept is not None and kept != drawn:
                raise PartChanged(f"page part {key!r} reads differently drawn again")
            if kept is None:
                self.shared.part_keep(key, drawn)
            kept = drawn
        return mark_safe(self._filled(kept))

    def _marked(self, text: str) -> str:
        for value, mark in self.fresh:
            text = text.replace(value, mark)
        return text

    def _filled(self, text: str) -> str:
        for value, mark in self.fresh:
            text = text.replace(mark, value)
        return text
