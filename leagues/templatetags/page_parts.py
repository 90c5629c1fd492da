"""Parts of every page drawn once per process: they depend only on what is fixed while the
process runs (the static files' hashed names, the URL map) and on the few values in their key
(a role, the language; the frame's top bar: the signed-in name and the page's address as shown,
its CSRF token filled in per request), never on a row's id, so no write can make them stale and
every process draws the same. With the setting `KEPT_PARTS_CHECK` (the tests'), a frame part
found kept is drawn again as well and must read the same."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from leagues.clubs.access import ClubAccess
from leagues.clubs.models import Club, Membership
from scorecards.sheet_parts import CSRF_MARK, PageParts

register = template.Library()
CLUB_NAV = "leagues/_club_nav.html"


@lru_cache(maxsize=8)
def _head(prefix: str) -> SafeString:
    return mark_safe(render_to_string("_page_head.html"))


@register.simple_tag
def page_head() -> SafeString:
    """The stylesheet, icons, manifest and scripts every page links (templates/_page_head.html)."""
    return _head(get_script_prefix())


@lru_cache(maxsize=1024)
def _club_nav(slug: str, role: str | None, language: str | None, prefix: str) -> SafeString:
    club = Club(slug=slug)
    access = ClubAccess(club, None if role is None else Membership(role=role))
    return mark_safe(render_to_string(CLUB_NAV, {"club": club, "access": access}))


@register.simple_tag(takes_context=True)
def club_nav(context: Any) -> SafeString:
    """The club's page links for this viewer (templates/leagues/_club_nav.html): they depend on
    the club's slug, the viewer's role (none for a visitor of public standings) and the
    language only."""
    club, access = context["club"], context.get("access")
    if access is not None and not isinstance(access, ClubAccess):
        return mark_safe(render_to_string(CLUB_NAV, context.flatten()))
    role = access.role if access is not None else None
    return _club_nav(club.slug, role, get_language(), get_script_prefix())


# The frame's parts kept (`frame_part`): one for each signed-in name, page address and language
# seen lately, a couple of kB each.
FRAME_PARTS = 1024


class _FrameParts:
    """The frame's parts of this process, the least lately used forgotten past FRAME_PARTS."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def part(self, key: Hashable) -> str | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
            return kept

    def part_keep(self, key: Hashable, text: str) -> None:
        with self._lock:
            self._kept[key] = text
            while len(self._kept) > FRAME_PARTS:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_frame = _FrameParts()


class FramePartNode(template.Node):
    def __init__(self, name: str, values: list[FilterExpression], nodelist: NodeList) -> None:
        self.name = name
        self.values = values
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        token = context.get("csrf_token")
        token = "" if token is None else str(token)
        if not token or token == "NOTPROVIDED":
            return self.nodelist.render(context)
        key = (
            self.name,
            get_language(),
            get_script_prefix(),
            *(value.resolve(context) for value in self.values),
        )
        # Kept with a marker for the CSRF token, shown with this request's (and drawn again
        # and compared with `KEPT_PARTS_CHECK`), as the sheet's parts are.
        parts = PageParts(_frame, [(token, CSRF_MARK)])
        return parts.part(key, lambda: self.nodelist.render(context))


@register.tag("frame_part")
def frame_part(parser: Parser, token: Token) -> FramePartNode:
    """`{% frame_part "name" value ... %}...{% endframe_part %}`: the frame's content drawn
    once per process for each language, script prefix and set of `value`s, which must be all it
    shows but for the URL map, the static files and the CSRF token (kept with a marker in its
    place, and shown with this request's). With no CSRF token in the context, or a value that
    cannot be part of a key, it draws its content as if the tag were not there."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("frame_part: a quoted name first")
    nodelist = parser.parse(("endframe_part",))
    parser.delete_first_token()
    return FramePartNode(bits[1][1:-1], [parser.compile_filter(bit) for bit in bits[2:]], nodelist)


@receiver(setting_changed)
def _forget(**kwargs: Any) -> None:
    # A test that changes the static files' storage, the URLs or the templates draws anew.
    _head.cache_clear()
    _club_nav.cache_clear()
    _frame.clear()
