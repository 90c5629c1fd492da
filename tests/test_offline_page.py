"""The offline page (what the service worker shows for any page asked with no signal) and what
the sheet hands to pending.js: its words and the order of the deal."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorecards.rules import rules_build
from scorecards.services import game_start

pytestmark = pytest.mark.django_db


def test_the_offline_page_is_the_same_frame_for_everyone_and_names_no_club(
    client, as_alice, as_bob, as_charlie, club, players, django_assert_max_num_queries
) -> None:
    game_start(seats=players, rules=rules_build({"preset": "standard"}), club=club)
    for who in (client, as_alice, as_bob, as_charlie):
        with django_assert_max_num_queries(3):
            response = who.get(reverse("offline"))
        assert response.status_code == 200
        page = response.content.decode()
        assert "<h1>No signal</h1>" in page
        assert 'id="offline-games"' in page and "/static/js/offline.js" in page
        # Nothing of a club: the list is the phone's own, read from its cache.
        assert club.name not in page and "/games/" not in page


def test_the_offline_page_takes_only_get(as_alice) -> None:
    assert as_alice.post(reverse("offline")).status_code == 405


def test_the_service_worker_keeps_the_offline_page_and_its_script(client: Client) -> None:
    worker = client.get("/sw.js").content.decode()
    assert 'var OFFLINE = "/offline/";' in worker
    assert "/static/js/offline.js" in worker and "/static/js/pending.js" in worker
    # A page other than a sheet is never kept: with no signal it is the offline page.
    assert 'request.mode === "navigate"' in worker and "caches.match(OFFLINE)" in worker


def _pending_script(client: Client, game) -> str:
    page = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
    found = re.search(r'<script src="/static/js/pending\.js"[^>]*>', page)
    assert found, "the sheet loads pending.js"
    return found.group(0)


@pytest.mark.parametrize("preset", ["standard", "lost-heir"])
def test_the_sheet_hands_pending_js_its_words_and_the_deals_order(
    as_alice, club, players, preset
) -> None:
    """Whatever the rules (Lost Heir lets every seat pass: such a hand is recorded as thrown
    in), the deal rotates plainly; the page says the seats from the dealer's left to the dealer,
    which is all the phone needs to say who deals the hands it keeps."""
    rules = rules_build({"preset": preset})
    game = game_start(seats=players, rules=rules, club=club, first_dealer=2)
    script = _pending_script(as_alice, game)
    assert 'data-offline="/offline/"' in script
    assert 'data-pending="pending — not yet scored"' in script
    assert "__DEALER__ deals, __BIDDER__ bids first." in script
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert re.search(r'id="entry-head"[^>]*data-auction="3 0 1 2"', page)
