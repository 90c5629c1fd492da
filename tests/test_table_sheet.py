"""The table score sheet: entering hands (JSON, htmx, plain post), preview, undo, correction,
confirmation, polling, print view and table link, for owner / member / outsider / anonymous /
a phone holding the table link."""

from __future__ import annotations

import re
import uuid
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.clubs.models import Club
from scorecards.models import Hand, HandAction, HandVersion
from scorecards.rules import HandInput
from scorecards.services import (
    game_start,
    game_token_issue,
    hand_confirm,
    hand_record,
    seat_claim,
)

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
HTMX = {"HX-Request": "true"}


def hand_data(**changes) -> dict[str, str]:
    """Ann (seat 0) bids 8 and her side takes 6 tricks, the 5 of hearts, not the 3 of spades."""
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "8",
        "kind": "trump",
        "tricks_bidder": "6",
        "five_hearts": "0",
        "three_spades": "1",
    }
    data.update({key: str(value) for key, value in changes.items() if value is not None})
    return {key: value for key, value in data.items() if value != "<drop>"}


@pytest.fixture
def game(club, players, standard_rules, alice):
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


@pytest.fixture
def as_table(game) -> Client:
    """A phone at the table with no account: it opened the table link."""
    client = Client()
    client.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    return client


WHO = ["as_alice", "as_bob", "as_table", "as_charlie", "client"]
ALLOWED = {"as_alice": True, "as_bob": True, "as_table": True, "as_charlie": False, "client": False}


def submit(client: Client, game, headers=None, **changes):
    return client.post(
        reverse("hand_submit", args=[game.pk]), hand_data(**changes), headers=headers
    )


# --- access ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_sheet_access(request, game, who) -> None:
    client = request.getfixturevalue(who)
    response = client.get(reverse("game_sheet", args=[game.pk]))
    assert response.status_code == (200 if ALLOWED[who] else 404)
    if ALLOWED[who]:
        page = response.content.decode()
        assert 'id="hand-form"' in page and "Ann deals" in page


@pytest.mark.parametrize("who", WHO)
def test_hand_submit_access(request, game, who) -> None:
    client = request.getfixturevalue(who)
    response = submit(client, game, headers=JSON)
    if ALLOWED[who]:
        assert response.status_code == 201
        assert Hand.objects.filter(game=game).count() == 1
    else:
        assert response.status_code == 404
        assert not Hand.objects.filter(game=game).exists()
        assert not HandVersion.objects.filter(game=game).exists()


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(
    "view", ["game_poll", "game_print", "hand_detail", "hand_preview", "hand_undo", "hand_confirm"]
)
def test_every_game_view_hides_the_game_from_outsiders(request, game, who, view) -> None:
    hand_record(
        game=game, hand=HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1)
    )
    client = request.getfixturevalue(who)
    args = [game.pk, 1] if view in ("hand_detail", "hand_confirm") else [game.pk]
    url = reverse(view, args=args)
    method = client.get if view in ("game_poll", "game_print", "hand_detail") else client.post
    response = method(url, {"seat": "1"} if view == "hand_confirm" else hand_data())
    if ALLOWED[who]:
        # Nobody here claimed a seat: a confirmation needs a seat of the other side (403).
        assert response.status_code in ((403,) if view == "hand_confirm" else (200, 204, 303))
    else:
        assert response.status_code == 404
    if view == "hand_confirm" or not ALLOWED[who]:
        assert Hand.objects.get(game=game).confirmed_at is None
        assert Hand.objects.filter(game=game).count() == 1


# --- the JSON contract (the offline outbox) -------------------------------------------------


def test_json_created_duplicate_conflict(as_bob, game) -> None:
    data = hand_data(number=1)
    url = reverse("hand_submit", args=[game.pk])
    first = as_bob.post(url, data, headers=JSON)
    assert first.status_code == 201
    assert first.json() == {"status": "created", "number": 1, "scores": [11, -1], "finished": False}
    again = as_bob.post(url, data, headers=JSON)
    assert again.status_code == 200 and again.json()["status"] == "duplicate"
    other = as_bob.post(url, hand_data(number=1), headers=JSON)
    assert other.status_code == 409
    body = other.json()
    assert body["status"] == "conflict"
    assert body["error"] == "hand 1 was already entered by bob"
    assert body["hand"]["number"] == 1 and body["hand"]["record"]["bid"] == 8
    assert Hand.objects.filter(game=game).count() == 1


def test_conflict_names_the_player_holding_the_phone(as_table, as_bob, game) -> None:
    as_table.post(reverse("hand_submit", args=[game.pk]), hand_data(number=1, entered_as=0))
    response = submit(as_bob, game, headers=JSON, number=1)
    assert response.json()["error"] == "hand 1 was already entered by Ann"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"idempotency_key": "<drop>"}, "idempotency_key"),
        ({"idempotency_key": "not-a-uuid"}, "idempotency_key"),
        ({"bidder": "x"}, "bidder"),
        ({"bidder": "7"}, "bidder"),
        ({"bidder": "<drop>"}, "bidder"),
        ({"bid": "99999999999999999999999"}, "bid"),
        ({"bid": "3"}, "bid"),
        ({"bid": "8.5"}, "bid"),
        ({"kind": "bogus"}, "kind"),
        ({"kind": "kaiser40"}, "kind"),
        ({"tricks_bidder": "9"}, "tricks"),
        ({"tricks_bidder": "-1"}, "tricks"),
        ({"tricks_bidder": "<drop>"}, "tricks"),
        ({"five_hearts": "5"}, "five_hearts"),
        ({"five_hearts": "<drop>"}, "five_hearts"),
        ({"three_spades": "abc"}, "three_spades"),
        ({"tricks_bidder": "8", "three_spades": "1"}, "three_spades"),
        ({"insult": "0"}, "insult"),
        ({"auction": "pass, 8, pass, banana"}, "auction"),
        ({"auction": "x" * 5000}, "auction"),
        ({"number": "-3"}, "number"),
        ({"number": "7"}, "number"),
        ({"bidder": "١"}, "bidder"),
    ],
)
def test_bad_input_is_422_naming_the_field_and_writes_nothing(as_bob, game, changes, field):
    response = submit(as_bob, game, headers=JSON, **changes)
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["status"] == "invalid"
    assert field in body["errors"], body
    assert all(isinstance(m, str) and m for m in body["errors"][field])
    assert not Hand.objects.filter(game=game).exists()
    assert not HandVersion.objects.filter(game=game).exists()


def test_three_sides_take_tricks_per_side(club, players, alice, as_alice) -> None:
    from scorecards.rules import rules_build

    rules = rules_build({"preset": "three-player"})
    game = game_start(seats=["Ann", "Cat", "Bob"], rules=rules, created_by=alice)
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "1",
        "bid": str(rules.min_bid),
        "tricks_0": "2",
        "tricks_1": "5",
        "tricks_2": "1",
        "five_hearts": "1",
        "three_spades": "0",
    }
    response = as_alice.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON)
    assert response.status_code == 201, response.content
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'name="tricks_2"' in page


def test_misdeal_keeps_the_dealer(as_bob, game) -> None:
    response = as_bob.post(
        reverse("hand_submit", args=[game.pk]),
        {"idempotency_key": str(uuid.uuid4()), "thrown_in": "1"},
        headers=JSON,
    )
    assert response.status_code == 201
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "thrown in" in page and "Hand 2" in page and "Ann deals" in page


# --- htmx and plain posts -------------------------------------------------------------------


def test_plain_post_redirects_and_errors_rerender_with_422(as_bob, game) -> None:
    response = submit(as_bob, game)
    assert response.status_code == 303
    assert response["Location"] == reverse("game_sheet", args=[game.pk])
    bad = submit(as_bob, game, tricks_bidder=8, three_spades=1)
    assert bad.status_code == 422
    page = bad.content.decode()
    assert "took no trick" in page and 'id="hand-form"' in page
    assert Hand.objects.filter(game=game).count() == 1


def test_htmx_post_answers_the_sheet_and_a_fresh_form(as_bob, game) -> None:
    """A phone that says nothing of its sheet gets the whole sheet and a fresh form (the small
    answers, with the row alone, are tests/test_sheet_answers.py's)."""
    response = submit(as_bob, game, headers=HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and response["HX-Reswap"] == "outerHTML"
    assert 'id="sheet"' in body and 'id="hand-1"' in body
    assert 'id="entry" hx-swap-oob="true"' in body and "Hand 2" in body and "Cat deals" in body


def test_htmx_post_from_the_sheet_answers_its_row(as_bob, game) -> None:
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    response = as_bob.post(
        reverse("hand_submit", args=[game.pk]), hand_data(number=1) | seen_of(page), headers=HTMX
    )
    body = response.content.decode()
    assert 'id="hand-1"' in body and 'id="sheet"' not in body and "Cat deals" in body


def test_htmx_refused_hand_shows_the_form_with_its_error(as_bob, game) -> None:
    response = submit(as_bob, game, headers=HTMX, bid=5)
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#entry"
    assert "bid must be between 7 and 12" in response.content.decode()
    assert not Hand.objects.exists()


def test_htmx_conflict_says_who_entered_it(as_bob, as_alice, game) -> None:
    submit(as_alice, game, number=1)
    response = submit(as_bob, game, headers=HTMX, number=1)
    assert "Your hand 1 was not saved: alice entered hand 1 first" in response.content.decode()
    assert Hand.objects.count() == 1


# --- the live preview -----------------------------------------------------------------------


def test_preview_shows_points_totals_and_notices(as_bob, game) -> None:
    url = reverse("hand_preview", args=[game.pk])
    body = as_bob.post(url, hand_data()).content.decode()
    assert "Made" in body and "+11" in body and "-1" in body
    assert 'id="err-bid" class="field-error live" hx-swap-oob="true"></p>' in body
    set_body = as_bob.post(url, hand_data(tricks_bidder=3, five_hearts=1)).content.decode()
    assert "Set" in set_body and "-8" in set_body


def test_preview_field_errors_come_from_the_engine(as_bob, game) -> None:
    url = reverse("hand_preview", args=[game.pk])
    body = as_bob.post(url, hand_data(tricks_bidder=8, three_spades=1)).content.decode()
    assert 'id="err-three_spades"' in body and "took no trick" in body
    partial = as_bob.post(url, {"bidder": "0", "bid": "8"}).content.decode()
    assert "Still to enter" in partial and "tricks" in partial
    assert not Hand.objects.exists()


def test_preview_target_raised_and_bid_out_notices(as_bob, game) -> None:
    for _ in range(4):
        hand_record(
            game=game, hand=HandInput(bidder=1, bid=8, tricks=(0, 8), five_hearts=1, three_spades=1)
        )
    hand_record(
        game=game, hand=HandInput(bidder=1, bid=8, tricks=(0, 8), five_hearts=1, three_spades=1)
    )
    # Cat & Dan are at 50, past the bid-out (45); after this hand (-1 for the 3 of spades)
    # they are at 49 and still score only by bidding.
    url = reverse("hand_preview", args=[game.pk])
    body = as_bob.post(url, hand_data(bidder=0, bid=7)).content.decode()
    assert "Cat &amp; Dan: at 49, can&#x27;t score without bidding" in body
    # A no-trump bid made raises the target (and the bid-out, to 55).
    body = as_bob.post(
        url, hand_data(bidder=0, bid=7, kind="no", tricks_bidder=8, three_spades=0)
    ).content.decode()
    assert "target now 62" in body and "score without bidding" not in body


# --- undo, correction, history --------------------------------------------------------------


def test_undo_last_hand(as_bob, game) -> None:
    submit(as_bob, game)
    response = as_bob.post(reverse("hand_undo", args=[game.pk]))
    assert response.status_code == 303
    assert not Hand.objects.exists()
    assert HandVersion.objects.filter(action=HandAction.UNDO).count() == 1


@pytest.mark.parametrize(
    ("who", "status"),
    [("as_alice", 303), ("as_bob", 403), ("as_table", 403), ("as_charlie", 404), ("client", 404)],
)
def test_correct_a_hand_access(request, game, who, status) -> None:
    hand_record(
        game=game, hand=HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1)
    )
    client = request.getfixturevalue(who)
    url = reverse("hand_detail", args=[game.pk, 1])
    response = client.post(url, hand_data(tricks_bidder=7))
    assert response.status_code == status
    hand = Hand.objects.get(game=game)
    assert hand.tricks == ([7, 1] if status == 303 else [6, 2])


def test_correction_rescores_and_keeps_history(as_alice, game) -> None:
    submit(as_alice, game)
    submit(as_alice, game, bidder=1, tricks_bidder=2, five_hearts=0, three_spades=0)
    url = reverse("hand_detail", args=[game.pk, 1])
    assert as_alice.post(url, hand_data(bid=9, tricks_bidder=7)).status_code == 303
    game.refresh_from_db()
    assert game.scores[0] == 12 + 8
    page = as_alice.get(url).content.decode()
    assert "corrected" in page and "before:" in page and "Ann 8" in page and "Ann 9" in page


def test_correction_that_breaks_a_later_hand_is_refused(as_alice, game) -> None:
    # Cat's side is set five times at 12 and falls to -60 in hand 5 (the game ends there).
    set_12 = dict(bidder=1, bid=12, tricks_bidder=4, five_hearts=0, three_spades=1)
    for _ in range(5):
        submit(as_alice, game, **set_12)
    game.refresh_from_db()
    assert game.is_finished and game.finish_reason == "minus"
    # Hand 1 as "12 no" doubles that set: the game would end in hand 4, so hand 5 cannot be.
    url = reverse("hand_detail", args=[game.pk, 1])
    response = as_alice.post(url, {**hand_data(**set_12, kind="no"), "reason": "misread"})
    assert response.status_code == 422
    assert "hand 5" in response.content.decode()
    assert "the game is already over" in response.content.decode()
    assert Hand.objects.get(game=game, number=1).kind == "trump"
    assert not HandVersion.objects.filter(action=HandAction.CORRECT).exists()


# --- confirmation ---------------------------------------------------------------------------


def test_confirm_by_the_other_side(as_table, game, club) -> None:
    club.hands_need_confirmation = True
    club.save()
    hand_record(
        game=game,
        hand=HandInput(bidder=0, bid=8, tricks=(6, 2), five_hearts=0, three_spades=1),
        entered_seat=0,  # Ann's phone entered it: her side does not confirm it
    )
    page = as_table.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="seat-claim"' in page and "not confirmed" in page
    url = reverse("hand_confirm", args=[game.pk, 1])
    # Naming a seat in the request proves nothing: a phone with no seat cannot confirm.
    assert as_table.post(url, {"seat": "1"}).status_code == 403
    # A phone of the bidder's side claims its seat, and still cannot confirm.
    own_side = Client()
    own_side.get(reverse("game_table_join", args=[game.table_token]))
    claim = reverse("game_seat_claim", args=[game.pk])
    assert own_side.post(claim, {"seat": "2"}).status_code == 303
    refused = own_side.post(url, {"seat": "1"}, headers=JSON)
    assert refused.status_code == 403 and refused.json()["status"] == "forbidden"
    assert "other side" in refused.json()["message"]
    assert game.hands.filter(confirmed_at__isnull=True).exists()
    # Cat's phone claims seat 1 (once: it cannot take seat 2 later), then confirms.
    assert as_table.post(claim, {"seat": "1"}).status_code == 303
    page = as_table.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "✓ Cat" in page and "✓ Dan" not in page and 'id="seat-claim"' not in page
    assert as_table.post(claim, {"seat": "2"}, headers=JSON).status_code == 409
    assert as_table.post(url).status_code == 303
    hand = Hand.objects.get(game=game)
    assert hand.confirmed_by_name == "Cat" and hand.confirmed_at is not None
    assert HandVersion.objects.filter(action=HandAction.CONFIRM, by_name="Cat").count() == 1
    assert not game.hands.filter(confirmed_at__isnull=True).exists()


def test_hand_confirm_service_is_idempotent(game) -> None:
    Club.objects.filter(pk=game.club_id).update(hands_need_confirmation=True)
    hand_record(game=game, hand=HandInput(thrown_in=True), entered_seat=0)
    seat_claim(game=game, seat=1, phone="cat")
    seat_claim(game=game, seat=3, phone="dan")
    first = hand_confirm(game=game, number=1, phone="cat")
    again = hand_confirm(game=game, number=1, phone="dan")
    assert again.confirmed_by_name == "Cat" and first.confirmed_at == again.confirmed_at
    assert HandVersion.objects.filter(action=HandAction.CONFIRM).count() == 1


# --- other phones: polling ------------------------------------------------------------------


def seen_of(page: str) -> dict[str, str]:
    """What the sheet's phone says it shows: the inputs of #sheet-seen (version, rows, and the
    fingerprint of those rows), sent with its polls and hands."""
    seen = re.search(r'<span id="sheet-seen".*?</span>', page, re.S)
    assert seen, "no #sheet-seen"
    return dict(re.findall(r'name="(\w)" value="([^"]*)"', seen[0]))


def poll_query(page: str) -> str:
    return urlencode(seen_of(page))


def test_poll_answers_204_until_something_changes(as_bob, as_table, game) -> None:
    page = as_table.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    url = reverse("game_poll", args=[game.pk]) + "?" + poll_query(page)
    nothing = as_table.get(url, headers=HTMX)
    assert nothing.status_code == 204 and nothing.content == b""
    submit(as_bob, game)
    changed = as_table.get(url, headers=HTMX)
    assert changed.status_code == 200
    body = changed.content.decode()
    assert 'id="hand-1"' in body and 'id="entry" hx-swap-oob="true"' in body


def test_poll_is_cheap(as_table, game, django_assert_max_num_queries) -> None:
    page = as_table.get(reverse("game_sheet", args=[game.pk]), headers=HTMX).content.decode()
    with django_assert_max_num_queries(2):
        response = as_table.get(reverse("game_poll", args=[game.pk]) + "?" + poll_query(page))
    assert response.status_code == 204


# --- print view, table link -----------------------------------------------------------------


def test_print_view_is_a_paper_sheet(as_bob, game) -> None:
    submit(as_bob, game)
    page = as_bob.get(reverse("game_print", args=[game.pk])).content.decode()
    assert 'class="paper-sheet"' in page and "Ann 8" in page


@pytest.mark.parametrize(
    ("who", "status"),
    [("as_alice", 303), ("as_bob", 403), ("as_table", 403), ("as_charlie", 404), ("client", 404)],
)
def test_table_link_revoke_access(request, game, who, status) -> None:
    client = request.getfixturevalue(who)
    if game.table_token is None:
        game_token_issue(game=game)
    response = client.post(reverse("game_table_link", args=[game.pk]), {"action": "revoke"})
    assert response.status_code == status
    game.refresh_from_db()
    assert (game.table_token is None) == (status == 303)


def test_sheet_shows_table_link_and_qr_to_the_starter(as_alice, game) -> None:
    game_token_issue(game=game)
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "/t/" in page and 'class="qr"' in page


# --- a whole game, French, query counts -----------------------------------------------------


def test_whole_game_to_the_end(as_bob, game) -> None:
    for _ in range(20):
        response = submit(as_bob, game, headers=JSON, tricks_bidder=8, three_spades=0)
        if response.json()["finished"]:
            break
    game.refresh_from_db()
    assert game.is_finished and game.winner == 0
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Game over" in page and 'id="hand-form"' not in page
    refused = submit(as_bob, game, headers=JSON)
    assert refused.status_code == 409 and refused.json()["status"] == "closed"
    assert "ask a scorer to correct it" in refused.json()["message"]


def test_french_sheet(as_bob, game) -> None:
    page = as_bob.get(
        reverse("game_sheet", args=[game.pk]), headers={"Accept-Language": "fr"}
    ).content.decode()
    assert 'lang="fr"' in page
    assert "Donneur" in page and "Enregistrer la main" in page and "Ann donne" in page


def test_sheet_queries_constant_as_hands_grow(as_bob, game, django_assert_max_num_queries):
    url = reverse("game_sheet", args=[game.pk])
    hand_record(
        game=game, hand=HandInput(bidder=0, bid=7, tricks=(4, 4), five_hearts=0, three_spades=1)
    )
    with CaptureQueriesContext(connection) as one:
        assert as_bob.get(url).status_code == 200
    for _ in range(8):
        hand_record(game=game, hand=HandInput(thrown_in=True))
    with django_assert_max_num_queries(6), CaptureQueriesContext(connection) as nine:
        assert as_bob.get(url).status_code == 200
    assert len(nine) == len(one)


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("headers", [JSON, HTMX])
@pytest.mark.parametrize("who", ["member", "table"])
def test_hand_submit_queries(club, players, standard_rules, alice, bob, headers, who) -> None:
    """At most 9 SQL statements per hand submit (session, user, game, membership with the
    member's seat, locked game, hands, insert hand, insert version, update game).
    transaction=True: no test-wrapping transaction; SQLite's IMMEDIATE mode also sends
    BEGIN/COMMIT as statements, which PostgreSQL does not, so those are not counted."""
    from tests.conftest import client_for

    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    if who == "member":
        client = client_for(bob)
    else:
        client = Client()
        client.get(reverse("game_table_join", args=[game_token_issue(game=game)]))
    for _ in range(3):
        submit(client, game, headers=headers)
    with CaptureQueriesContext(connection) as queries:
        response = submit(client, game, headers=headers)
    assert response.status_code in (200, 201)
    statements = [
        q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
    ]
    # Answered with the sheet (htmx): two more, the seat names and the corrected marks, read from
    # the database rather than from a per-process cache another worker's write leaves stale.
    sheet = 2 if headers is HTMX else 0
    assert len(statements) <= (9 if who == "member" else 7) + sheet, statements
    # With BEGIN/COMMIT and the savepoint that keeps a seat claim and its hand together.
    assert len(queries) <= 13 + sheet
    assert Hand.objects.filter(game=game).count() == 4


def test_french_engine_errors_and_preview(as_bob, game) -> None:
    url = reverse("hand_preview", args=[game.pk])
    fr = {"Accept-Language": "fr"}
    body = as_bob.post(url, hand_data(tricks_bidder=8, three_spades=1), headers=fr)
    assert (
        "le trois de pique est allé à Cat &amp; Dan, qui n’a fait aucune levée"
        in body.content.decode()
    )
    todo = as_bob.post(url, {"bidder": "0", "bid": "8"}, headers=fr).content.decode()
    assert "Reste à saisir\u00a0: les levées" in todo
    made = as_bob.post(url, hand_data(), headers=fr).content.decode()
    assert "Réussie" in made and "Ann &amp; Bob" in made


def test_solo_kaiser_with_tricks_per_seat(club, players, alice, as_alice) -> None:
    from scorecards.rules import rules_build

    rules = rules_build({"preset": "yarotsky"})
    game = game_start(seats=players, rules=rules, club=club, created_by=alice)
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'value="kaiser"' in page and 'name="seat_tricks_3"' in page
    url = reverse("hand_submit", args=[game.pk])
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "kind": "kaiser",
        "seat_tricks_0": "8",
        "five_hearts": "0",
        "three_spades": "0",
    }
    missing = as_alice.post(url, {**data, "seat_tricks_0": ""}, headers=JSON)
    assert missing.status_code == 422 and "seat_tricks" in missing.json()["errors"]
    response = as_alice.post(url, data, headers=JSON)
    assert response.status_code == 201 and response.json()["finished"] is True
    game.refresh_from_db()
    assert game.finish_reason == "kaiser" and game.winner == 1  # 8 + 5 - 3 < 12: lost


def test_joffre_insult_and_an_auction(club, players, alice, as_alice) -> None:
    from scorecards.rules import rules_build

    game = game_start(
        seats=players, rules=rules_build({"preset": "joffre"}), club=club, created_by=alice
    )
    url = reverse("hand_submit", args=[game.pk])
    # Ann deals; from her left: Cat passes, Bob bids 6, Dan passes, Ann passes.
    data = hand_data(bidder=2, bid=6, tricks_bidder=6, insult=1, three_spades=0)
    data["auction"] = ["pass", "6", "pass", "pass"]
    response = as_alice.post(url, data, headers=JSON)
    assert response.status_code == 201, response.content
    hand = Hand.objects.get(game=game)
    assert hand.record["auction"] == ["pass", "6", "pass", "pass"] and hand.record["insult"] == 1
    wrong = hand_data(bidder=1, bid=7, tricks_bidder=6, three_spades=0)
    wrong["auction"] = "pass, 7, 7, pass"
    refused = as_alice.post(url, wrong, headers=JSON)
    assert refused.status_code == 422 and "auction" in refused.json()["errors"]


@pytest.mark.parametrize(
    ("view", "method", "most"),
    [
        ("game_print", "get", 6),
        ("hand_detail", "get", 9),  # the seats claimed and let go, shown in the history
        ("hand_preview", "post", 6),
        ("game_poll", "get", 6),  # the seat names read, not kept per process
    ],
)
def test_page_queries_do_not_grow_with_hands(
    as_bob, game, view, method, most, django_assert_max_num_queries
) -> None:
    args = [game.pk, 1] if view == "hand_detail" else [game.pk]
    url = reverse(view, args=args)
    data = hand_data() if method == "post" else {}
    as_bob.get(reverse("game_sheet", args=[game.pk]))  # the phone has the sheet open
    counts = []
    for hands in (1, 12):
        while Hand.objects.filter(game=game).count() < hands:
            hand_record(game=game, hand=HandInput(thrown_in=True))
        with django_assert_max_num_queries(most), CaptureQueriesContext(connection) as queries:
            response = getattr(as_bob, method)(url, data)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_key_of_another_game_is_refused(as_bob, game, club, players, standard_rules) -> None:
    other = game_start(seats=players, rules=standard_rules, club=club)
    data = hand_data()
    assert (
        as_bob.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON).status_code == 201
    )
    response = as_bob.post(reverse("hand_submit", args=[other.pk]), data, headers=JSON)
    assert response.status_code == 422 and "idempotency_key" in response.json()["errors"]
    assert not Hand.objects.filter(game=other).exists()


def test_members_and_table_phones_see_the_link_only_staff_revoke(as_bob, as_table, game):
    for client in (as_bob, as_table):
        page = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
        assert 'class="qr"' in page and "/t/" in page and 'value="revoke"' not in page
