"""Lists written into a sentence in the viewer's language: items apart by a semicolon, which
French sets off with a no-break space ("sièges 1 & 3 ; 2 & 4")."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import pgettext


def semicolon_join(items: Iterable[str]) -> str:
    """`items` one after another, apart by the language's semicolon ("; ", French "\u00a0; ")."""
    return pgettext("between the items of a list", "; ").join(items)
