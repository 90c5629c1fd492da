"""The sheet page is put together from parts kept by the web process (scorecards.sheet_parts):
each drawn once for everyone who sees it alike, and never shown to someone it was not drawn
for. A viewer whose powers changed, a club renamed, a game finished: the next page is the one
drawn from nothing. The CSRF token and the entry form's key in a kept part are the viewer's own,
and a part whose key leaves out something it shows is caught."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.test import Client, override_settings
from django.urls import reverse

from leagues.clubs.models import Club, Membership
from leagues.clubs.roles import Role
from scorecards import sheet_cache
from scorecards.models import Game
from scorecards.rules import HandInput, rules_build
from scorecards.services import game_start, hand_record
from scorecards.sheet_parts import PageParts, PartChanged
from tests.conftest import client_for
from tests.test_sheet_cache import page, same_page

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(8, 0), five_hearts=0, three_spades=0)
TOKENS = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')
KEY = re.compile(r'name="idempotency_key" value="([^"]+)"')


@pytest.fixture(autouse=True)
def _no_sheet_kept() -> None:
    sheet_cache.forget_all()


@pytest.fixture
def game(club, players, alice) -> Game:
    game = game_start(seats=players, rules=rules_build({"preset": "standard"}), club=club)
    hand_record(game=game, hand=MADE)
    return Game.objects.get(pk=game.pk)


def drawn_anew(client: Client, game: Game) -> str:
    sheet_cache.forget_all()
    return page(client, game)


def assert_as_drawn_anew(client: Client, game: Game) -> str:
    """The page this process serves from kept parts is the one a process keeping nothing
    draws."""
    kept = page(client, game)
    assert same_page(kept) == same_page(drawn_anew(client, game))
    return kept


def test_each_viewer_of_one_version_gets_the_page_drawn_for_them(game, alice, bob) -> None:
    """Owner, member, then the owner again, each from the parts the others' pages left."""
    owner, member = client_for(alice), client_for(bob)
    first = {"owner": page(owner, game), "member": page(member, game)}
    again = {"owner": page(owner, game), "member": page(member, game)}
    assert same_page(first["owner"]) == same_page(again["owner"])
    assert same_page(first["member"]) == same_page(again["member"])
    assert "Abandon this game" in first["owner"] and "Abandon this game" not in first["member"]
    assert 'value="revoke"' not in first["member"]
    assert same_page(again["member"]) == same_page(drawn_anew(member, game))


def test_a_role_changed_shows_at_once(game, alice, club) -> None:
    """The game's version does not move when a member's role does: the parts follow the role."""
    carol = get_user_model().objects.create_user("carol")
    Membership.objects.create(club=club, user=carol, role=Role.OWNER)
    browser = client_for(carol)
    assert "Abandon this game" in page(browser, game)
    Membership.objects.filter(user=carol).update(role=Role.MEMBER)
    html = assert_as_drawn_anew(browser, game)
    assert "Abandon this game" not in html and 'id="hand-form"' in html


def test_a_club_renamed_shows_at_once(game, alice, club) -> None:
    owner = client_for(alice)
    assert "Regina Kaiser Club" in page(owner, game)
    Club.objects.filter(pk=club.pk).update(name="Regina Card Club")
    html = assert_as_drawn_anew(owner, game)
    assert "Regina Card Club" in html and "Regina Kaiser Club" not in html


def test_a_hand_entered_shows_a_new_form_from_new_parts(game, alice) -> None:
    owner = client_for(alice)
    assert "Hand 2" in page(owner, game)
    hand_record(game=game, hand=MADE)
    html = assert_as_drawn_anew(owner, game)
    assert "Hand 3" in html


def test_each_page_carries_its_own_browsers_token_and_a_new_key(game, alice, bob) -> None:
    """A kept part's forms carry this browser's CSRF token (one for the whole page) and a key
    of this page's own: a form posted from a page drawn from another's parts is accepted."""
    first = Client(enforce_csrf_checks=True)
    first.force_login(alice)
    second = Client(enforce_csrf_checks=True)
    second.force_login(alice)
    pages = [page(first, game), page(second, game), page(second, game)]
    keys = [KEY.search(html)[1] for html in pages]  # type: ignore[index]
    assert len(set(keys)) == 3
    for html in pages:
        tokens = {a or b for a, b in TOKENS.findall(html)}
        assert len(tokens) == 1
    token = TOKENS.search(pages[2])
    assert token is not None
    undo = second.post(
        reverse("hand_undo", args=[game.pk]), {"csrfmiddlewaretoken": token[1] or token[2]}
    )
    assert undo.status_code == 303
    assert Game.objects.get(pk=game.pk).hand_count == 0


def test_an_htmx_sheet_and_a_refused_form_are_drawn_as_before(game, alice) -> None:
    """Only the whole page of a blank form is put together from kept parts."""
    owner = client_for(alice)
    page(owner, game)
    fragment = owner.get(reverse("game_sheet", args=[game.pk]), headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert html.lstrip().startswith('<section id="sheet">') and "<h1" not in html
    refused = owner.post(reverse("hand_submit", args=[game.pk]), {"number": "2"})
    assert refused.status_code == 422
    assert "Not saved: correct what is marked in red" in refused.content.decode()


@override_settings(KEPT_PARTS_CHECK=True)
def test_a_part_that_shows_more_than_its_key_is_caught(game, alice) -> None:
    owner = client_for(alice)
    page(owner, game)  # a kept sheet entry to keep parts in
    [shared] = sheet_cache._kept.values()
    template = Template('{% load sheet_parts %}{% kept "test" %}{{ shown }}{% endkept %}')
    parts = PageParts(shared, [])
    assert template.render(Context({"sheet_parts": parts, "shown": "a"})) == "a"
    with pytest.raises(PartChanged):
        template.render(Context({"sheet_parts": parts, "shown": "b"}))


@override_settings(KEPT_PARTS_CHECK=False)
def test_a_part_is_kept_for_the_values_it_names(game, alice) -> None:
    owner = client_for(alice)
    page(owner, game)
    [shared] = sheet_cache._kept.values()
    template = Template('{% load sheet_parts %}{% kept "test" shown %}{{ shown }}{% endkept %}')
    parts = PageParts(shared, [("secret", "\x00s\x00")])
    assert template.render(Context({"sheet_parts": parts, "shown": "a secret"})) == "a secret"
    assert template.render(Context({"sheet_parts": parts, "shown": "b"})) == "b"
    # Kept: drawn for "a", shown with the next request's own value.
    other = PageParts(shared, [("other", "\x00s\x00")])
    assert template.render(Context({"sheet_parts": other, "shown": "a secret"})) == "a other"
    # A value that is no key draws the part each time.
    assert template.render(Context({"sheet_parts": parts, "shown": ["c"]})) == "[&#x27;c&#x27;]"
