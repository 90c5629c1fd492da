"""The page parts drawn once per process (leagues/templatetags/page_parts.py) are what their
templates draw for the same viewer: the club's links for every role and for a visitor, in both
languages, the links every page's head carries, and the top bar of each viewer and page."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.utils import translation

from leagues.clubs.access import ClubAccess
from leagues.clubs.models import Membership
from leagues.clubs.roles import Role
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

NAV = Template("{% load page_parts %}{% club_nav %}")


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("role", [None, *Role.values])
def test_club_links_are_the_template_s_for_each_role(club, alice, role, language) -> None:
    membership = None if role is None else Membership(club=club, user=alice, role=role)
    access = ClubAccess(club, membership)
    with translation.override(language):
        drawn = render_to_string("leagues/_club_nav.html", {"club": club, "access": access})
        for _ in range(2):  # drawn, then from the memo
            assert NAV.render(Context({"club": club, "access": access})) == drawn


def test_members_see_their_role_s_links_and_visitors_the_public_ones(
    club, alice, bob, charlie
) -> None:
    """On the standings page: the owner's links, a member's, and (public standings) a
    signed-in outsider's, one after the other in one process."""
    club.standings_public = True
    club.save()
    url = f"/clubs/{club.slug}/standings/"
    settings_link = f'href="/clubs/{club.slug}/settings/"'
    players_link = f'href="/clubs/{club.slug}/players/"'
    owner = client_for(alice).get(url).content.decode()
    member = client_for(bob).get(url).content.decode()
    outsider = client_for(charlie).get(url).content.decode()
    assert settings_link in owner and players_link in owner
    assert settings_link not in member and players_link in member
    assert settings_link not in outsider and players_link not in outsider
    assert Membership.objects.get(club=club, user=alice).role == Role.OWNER


def test_the_head_is_the_template_s_and_follows_the_static_settings() -> None:
    head = Template("{% load page_parts %}{% page_head %}")
    assert head.render(Context()) == render_to_string("_page_head.html")
    with override_settings(STATIC_URL="/elsewhere/"):
        moved = head.render(Context())
        assert 'href="/elsewhere/' in moved
        assert moved == render_to_string("_page_head.html")
    assert 'href="/elsewhere/' not in head.render(Context())


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_top_bar_is_drawn_for_each_viewer_and_address(alice, bob, language) -> None:
    """The frame's top bar, kept per process: each signed-in name and each page address gets
    its own (the language form sends the reader back to the page they were on), and each
    request its own CSRF token, which signs the forms out and switches the language."""
    headers = {"Accept-Language": language}
    pages = {
        "alice": client_for(alice).get("/", headers=headers).content.decode(),
        "bob": client_for(bob).get("/", headers=headers).content.decode(),
        "bob elsewhere": client_for(bob).get("/?next=%3Cb%3E", headers=headers).content.decode(),
    }
    assert '<span class="who">alice</span>' in pages["alice"]
    assert '<span class="who">bob</span>' in pages["bob"]
    assert '<span class="who">alice</span>' not in pages["bob"]
    assert 'name="next" value="/"' in pages["bob"]
    assert 'name="next" value="/?next=%3Cb%3E"' in pages["bob elsewhere"]
    for html in pages.values():
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
        assert len(tokens) == 1 and tokens <= set(re.findall(r'"X-CSRFToken": "([^"]+)"', html))


def test_a_form_of_a_kept_top_bar_carries_this_browser_s_token(alice) -> None:
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(alice)
    second.force_login(alice)
    first.get("/")
    html = second.get("/").content.decode()
    token = re.search(
        r'class="inline lang"><input type="hidden" name="csrfmiddlewaretoken" '
        r'value="([^"]+)"',
        html,
    )
    assert token is not None
    switched = second.post(
        "/i18n/setlang/", {"csrfmiddlewaretoken": token[1], "language": "fr", "next": "/"}
    )
    assert switched.status_code == 302
