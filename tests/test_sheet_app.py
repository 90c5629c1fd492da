"""The sheet as a phone app: the banners name the sides and read right, corrected rows are
marked with their history one tap away, the phone's messages come translated in the page, and
the service worker, manifest and favicon are served."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorecards.presentation import winner_text
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_correct, hand_record

pytestmark = pytest.mark.django_db

SIDES = ["Ann & Cat", "Bob & Dan"]


@pytest.mark.parametrize(
    ("winner", "reason", "scores", "english", "french"),
    [
        (
            0,
            "minus",
            [20, -52],
            "Ann & Cat win: Bob & Dan fell to -52.",
            "Ann & Cat l’emportent\u00a0: l’équipe Bob & Dan est tombée à -52.",
        ),
        (
            1,
            "target",
            [31, 53],
            "Bob & Dan win: they reached 53.",
            "Bob & Dan l’emportent\u00a0: ils ont atteint 53.",
        ),
        (
            0,
            "kaiser",
            [20, 10],
            "Ann & Cat win with a kaiser bid.",
            "Ann & Cat l’emportent sur une demande de kaiser.",
        ),
        (
            1,
            "heart",
            [45, 30],
            "Bob & Dan win: Ann & Cat, at the bid-out, took the five of hearts.",
            "Bob & Dan l’emportent\u00a0: l’équipe Ann & Cat, bloquée, a pris le cinq de cœur.",
        ),
    ],
)
def test_winner_banner_reads_right(winner, reason, scores, english, french) -> None:
    score = SimpleNamespace(winner=winner, reason=reason, scores=scores)
    with translation.override("en"):
        assert winner_text(score, SIDES) == english
    with translation.override("fr"):
        assert winner_text(score, SIDES) == french


def test_no_banner_while_playing() -> None:
    assert winner_text(SimpleNamespace(winner=None, reason=None, scores=[0, 0]), SIDES) == ""


@pytest.fixture
def game(club, players, standard_rules, alice):
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


def test_corrected_row_is_marked_with_its_history_one_tap_away(as_alice, game) -> None:
    for _ in range(2):
        hand_record(
            game=game, hand=HandInput(bidder=0, bid=7, tricks=(4, 4), five_hearts=0, three_spades=1)
        )
    url = reverse("game_sheet", args=[game.pk])
    assert "badge corrected" not in as_alice.get(url).content.decode()
    hand_correct(
        game=game,
        number=1,
        hand=HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=1),
    )
    page = as_alice.get(url).content.decode()
    row = re.search(r'<tr[^>]*id="hand-1".*?</tr>', page, re.S).group(0)
    history = reverse("hand_detail", args=[game.pk, 1])
    # The badge is inside the hand's link to its history (one target of 44 px, not two).
    link = re.search(rf'<a href="{history}" class="hand-link"[^>]*>.*?</a>', row, re.S)
    assert link is not None and "badge corrected" in link.group(0)
    row2 = re.search(r'<tr[^>]*id="hand-2".*?</tr>', page, re.S).group(0)
    assert "badge corrected" not in row2


def test_the_phone_messages_come_translated_in_a_json_tag(as_alice, game) -> None:
    url = reverse("game_sheet", args=[game.pk])
    with translation.override("fr"):  # and back to English after, for the tests that follow
        page = as_alice.get(url, headers={"Accept-Language": "fr"}).content.decode()
    tag = re.search(r'<script id="sheet-texts" type="application/json">(.*?)</script>', page, re.S)
    texts = json.loads(tag.group(1))
    assert texts["waiting_many"].startswith("Mains en attente d’envoi\u00a0: __N__")
    for status in ("csrf", "signed_out", "403", "409", "422", "4xx", "5xx", "conflict"):
        assert texts[status] and "Not" not in texts[status]
    # The action bar: Save, the live preview, the live region for the messages.
    bar = page[page.index('id="action-bar"') :]
    assert 'id="bar-msg"' in bar and 'aria-live="polite"' in bar and 'class="save"' in bar
    # Misdeal is outside the bar and asks first.
    assert "data-confirm=" in page[page.index("misdeal") : page.index('id="action-bar"')]


def test_service_worker_manifest_and_favicon(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    assert "/static/css/kaiser.css" in body and 'request.method !== "GET"' in body
    assert client.get("/favicon.ico").status_code == 302
    page = client.get(reverse("login")).content.decode()
    assert 'rel="manifest"' in page and 'rel="icon"' in page


def test_an_impossible_card_names_the_side_by_its_players(as_alice, game) -> None:
    """Ann & Bob take all 8 tricks but the 3 of spades goes to Cat & Dan: the error names them."""
    data = {
        "bidder": "0",
        "bid": "8",
        "kind": "trump",
        "tricks_bidder": "8",
        "five_hearts": "0",
        "three_spades": "1",
    }
    body = as_alice.post(reverse("hand_preview", args=[game.pk]), data).content.decode()
    assert "the three of spades went to Cat &amp; Dan, who took no trick" in body
    assert "side 1" not in body
    with translation.override("fr"):
        body = as_alice.post(
            reverse("hand_preview", args=[game.pk]), data, headers={"Accept-Language": "fr"}
        ).content.decode()
    assert "le trois de pique est allé à Cat &amp; Dan, qui n’a fait aucune levée" in body


@pytest.mark.parametrize(
    ("rules", "words", "french"),
    [
        ({"preset": "saskatchewan"}, "Saskatchewan", "Règles\u00a0: Saskatchewan"),
        (
            {"preset": "standard", "min_bid": 6, "cover_three": True},
            "Minimum bid: 6",
            "Règles\u00a0: Standard",
        ),
    ],
)
def test_the_sheet_states_the_rules_in_play_in_words(
    club, players, as_bob, rules, words, french
) -> None:
    from scorecards.rules import rules_build

    game = game_start(seats=players, rules=rules_build(rules), club=club)
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert re.search(r'class="rules-in-play">Rules: [^<]*' + re.escape(words), page)
    page = as_bob.get(
        reverse("game_sheet", args=[game.pk]), headers={"Accept-Language": "fr"}
    ).content.decode()
    assert french in page


@pytest.mark.parametrize(("kaiser_40", "offered"), [(True, True), (False, False)])
def test_a_kaiser_40_card_can_be_left_in_the_partners_hand(
    club, players, as_bob, kaiser_40, offered
) -> None:
    from scorecards.rules import rules_build

    rules = rules_build({"preset": "standard", "kaiser_40": kaiser_40})
    game = game_start(seats=players, rules=rules, club=club)
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert ('name="five_hearts" value="nobody"' in page) is offered
    assert ('name="three_spades" value="nobody"' in page) is offered
