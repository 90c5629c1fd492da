"""Parts of every page drawn once per process: they depend only on what is fixed while the
process runs (the static files' hashed names, the URL map) and on the few values in their key,
never on a row, so no write can make them stale and every process draws the same."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from leagues.clubs.access import ClubAccess
from leagues.clubs.models import Club, Membership

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


@receiver(setting_changed)
def _forget(**kwargs: Any) -> None:
    # A test that changes the static files' storage, the URLs or the templates draws anew.
    _head.cache_clear()
    _club_nav.cache_clear()
