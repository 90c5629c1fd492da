"""Results a club can trust: a game that is over changes only through a correction (with a
reason, by someone with the power), confirmations come from a seat the server knows, an undone
hand never comes back, and every refusal of the hand endpoints says what happened in JSON."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Membership
from leagues.clubs.roles import Role
from scorecards.models import Game, GameStatus, Hand, HandAction, HandVersion, SeatClaim, SpentKey
from scorecards.rules import HandInput
from scorecards.services import (
    GameClosed,
    HandUndone,
    NotAllowed,
    ReasonMissing,
    game_abandon,
    game_delete,
    game_start,
    game_token_issue,
    game_token_revoke,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
    seat_claim,
)
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
WIN = HandInput(bidder=0, bid=8, tricks=(8, 0), five_hearts=0, three_spades=0)


def hand_data(**changes) -> dict[str, str]:
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "8",
        "kind": "trump",
        "tricks_bidder": "6",
        "five_hearts": "0",
        "three_spades": "1",
    }
    return data | {key: str(value) for key, value in changes.items()}


def finish(game: Game) -> Game:
    for _ in range(30):
        game.refresh_from_db()
        if game.is_finished:
            return game
        hand_record(game=game, hand=WIN)
    raise AssertionError("the game did not finish")


@pytest.fixture
def game(club, players, standard_rules, alice):
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


def phone(game: Game) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game.table_token or game_token_issue(game=game)]))
    return client


@pytest.fixture
def scorer(club):
    user = get_user_model().objects.create_user("sam", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    return user


def _written(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.status,
        game.hand_count,
        list(game.hands.values_list("number", "record", "confirmed_at")),
        HandVersion.objects.filter(game=game).count(),
    )


# --- a finished game ------------------------------------------------------------------------


def test_a_finished_game_refuses_undo_and_new_hands_from_member_and_phone(game, as_bob):
    game_token_issue(game=game)
    finish(game)
    table = phone(game)
    before = _written(game)
    for client in (as_bob, table):
        undo = client.post(reverse("hand_undo", args=[game.pk]), headers=JSON)
        assert undo.status_code == 409
        assert undo.json() == {
            "status": "closed",
            "message": "This game is over: ask a scorer to correct it.",
        }
        new = client.post(reverse("hand_submit", args=[game.pk]), hand_data(), headers=JSON)
        assert new.status_code == 409 and new.json()["status"] == "closed"
        plain = client.post(reverse("hand_undo", args=[game.pk]))
        assert plain.status_code == 409
        assert "This game is over: ask a scorer to correct it." in plain.content.decode()
    assert _written(game) == before
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED


def test_a_finished_game_is_corrected_only_by_a_scorer_with_a_reason(game, as_bob, scorer):
    finish(game)
    url = reverse("hand_detail", args=[game.pk, 1])
    correction = hand_data(bid=7, tricks_bidder=8, three_spades=0)
    assert as_bob.post(url, correction).status_code == 403  # the member who started nothing
    as_sam = client_for(scorer)
    refused = as_sam.post(url, correction)
    assert refused.status_code == 422 and "Say why" in refused.content.decode()
    assert as_sam.get(url).content.decode().count('name="reason"') == 1
    assert as_sam.post(url, correction | {"reason": "Cat misread the tricks"}).status_code == 303
    version = HandVersion.objects.get(game=game, number=1, action=HandAction.CORRECT)
    assert version.reason == "Cat misread the tricks" and version.by == scorer
    assert "Reason: Cat misread the tricks" in as_sam.get(url).content.decode()
    with pytest.raises(NotAllowed):
        hand_correct(game=game, number=1, hand=WIN, reason="no identity")
    with pytest.raises(ReasonMissing):
        hand_correct(game=game, number=1, hand=WIN, by=scorer)


def test_the_starter_of_a_club_game_who_is_a_member_corrects_only_while_it_is_on(
    club, players, standard_rules, bob
):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=bob)
    hand_record(game=game, hand=WIN)
    hand_correct(game=game, number=1, hand=WIN, by=bob)  # in progress: the starter may
    finish(game)
    with pytest.raises(NotAllowed):
        hand_correct(game=game, number=1, hand=WIN, by=bob, reason="I want to")


def test_the_table_link_hint_says_what_the_link_does(game, as_alice):
    game_token_issue(game=game)
    page = as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    # Exactly what the policy gives a table link, and what it does not.
    assert "while it is played, enter its hands and take back the last one" in page
    assert "confirm from that seat the hands the other side entered" in page
    assert "not once it is abandoned or its night or season is over" in page
    assert "Nothing else: no correction, no abandoning, no new link." in page
    finish(game)
    table = phone(game)
    page = table.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="hand-form"' not in page and "Undo the last hand" not in page
    assert table.post(reverse("game_table_link", args=[game.pk])).status_code == 403


# --- abandon and delete ---------------------------------------------------------------------


def test_a_scorer_abandons_a_game_with_a_reason_and_it_never_counts(game, as_bob, scorer):
    hand_record(game=game, hand=WIN)
    url = reverse("game_abandon", args=[game.pk])
    assert as_bob.get(url).status_code == 403
    assert as_bob.post(url, {"reason": "rain"}).status_code == 403
    as_sam = client_for(scorer)
    assert 'name="reason"' in as_sam.get(url).content.decode()
    assert as_sam.post(url, {"reason": "  "}).status_code == 422
    assert as_sam.post(url, {"reason": "Dan had to leave"}).status_code == 303
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED and game.abandon_reason == "Dan had to leave"
    page = as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Game abandoned: Dan had to leave" in page and 'id="hand-form"' not in page
    assert "Abandoned" in as_bob.get(reverse("club_detail", args=[game.club.slug])).content.decode()
    from leagues.standings.derived import counted_games_qs

    assert list(counted_games_qs(game.club, None)) == []
    with pytest.raises(GameClosed):
        hand_record(game=game, hand=WIN)
    with pytest.raises(GameClosed):
        game_abandon(game=game, by=scorer, reason="again")


def test_a_game_with_no_hand_can_be_deleted_and_one_with_hands_cannot(game, alice, bob):
    as_alice = client_for(alice)
    assert (
        "Abandon or delete this game"
        in as_alice.get(reverse("game_sheet", args=[game.pk])).content.decode()
    )
    assert client_for(bob).post(reverse("game_delete", args=[game.pk])).status_code == 403
    other = game_start(seats=["A", "B", "C", "D"], rules=game.rules_value, club=game.club)
    hand_record(game=other, hand=WIN)
    with pytest.raises(GameClosed):
        game_delete(game=other, by=alice)
    response = as_alice.post(reverse("game_delete", args=[game.pk]))
    assert response.status_code == 303 and response.url == reverse("club_detail", args=["regina"])
    assert not Game.objects.filter(pk=game.pk).exists()


# --- tombstones -----------------------------------------------------------------------------


def test_an_undone_hand_never_comes_back_from_a_late_resend(game, as_bob):
    a, b = phone(game), phone(game)
    data = hand_data()
    assert a.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON).status_code == 201
    b.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "3"})
    assert b.post(reverse("hand_undo", args=[game.pk]), headers=JSON).status_code == 200
    late = a.post(reverse("hand_submit", args=[game.pk]), data, headers=JSON)
    assert late.status_code == 409
    body = late.json()
    assert body["status"] == "undone" and body["number"] == 1
    assert body["undone_by"] == "Dan" and body["undone_at"]
    assert body["message"].startswith("Hand 1 was taken back by Dan at ")
    assert not Hand.objects.filter(game=game).exists()
    assert SpentKey.objects.filter(key=data["idempotency_key"]).exists()
    with pytest.raises(HandUndone):
        hand_record(game=game, hand=WIN, idempotency_key=uuid.UUID(data["idempotency_key"]))


# --- confirmations ---------------------------------------------------------------------------


@pytest.fixture
def confirming(game):
    game.club.hands_need_confirmation = True
    game.club.save()
    game_token_issue(game=game)
    return game


def test_a_phone_cannot_confirm_its_own_hand_by_naming_a_seat(confirming):
    game = confirming
    entering = phone(game)
    submit = reverse("hand_submit", args=[game.pk])
    assert entering.post(submit, hand_data(entered_as=0), headers=JSON).status_code == 201
    assert Hand.objects.get(game=game).entered_seat == 0
    confirm = reverse("hand_confirm", args=[game.pk, 1])
    forged = entering.post(confirm, {"seat": "1"}, headers=JSON)
    assert forged.status_code == 403 and forged.json()["status"] == "forbidden"
    # Nor by moving to the other side: the phone keeps the seat it claimed.
    moved = entering.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"}, headers=JSON)
    assert moved.status_code == 409 and moved.json()["status"] == "claimed"
    assert entering.post(confirm, {"seat": "1"}).status_code == 403
    assert Hand.objects.get(game=game).confirmed_at is None
    # A player at the partner's seat is of the entering side too, whatever the bidder.
    partner = phone(game)
    partner.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "2"})
    assert partner.post(confirm, headers=JSON).status_code == 403
    other = phone(game)
    taken = other.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "0"}, headers=JSON)
    assert taken.status_code == 409 and taken.json()["status"] == "taken"
    other.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "3"})
    answer = other.post(confirm, headers=JSON)
    assert answer.status_code == 200 and answer.json() == {
        "status": "confirmed",
        "number": 1,
        "by": "Dan",
    }
    assert Hand.objects.get(game=game).confirmed_by_name == "Dan"
    history = other.get(reverse("hand_detail", args=[game.pk, 1])).content.decode()
    assert "A phone said Ann holds it" in history and "A phone said Dan holds it" in history
    assert SeatClaim.objects.filter(game=game).count() == 3


def test_a_signed_in_member_seated_on_the_other_side_confirms(confirming, players, bob, alice):
    game = confirming
    players[1].user = bob  # Cat's player is bob's account
    players[1].save()
    hand_record(game=game, hand=WIN, entered_by=alice, entered_seat=0)
    as_bob = client_for(bob)
    assert "✓ Cat" in as_bob.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert as_bob.post(reverse("hand_confirm", args=[game.pk, 1])).status_code == 303
    assert Hand.objects.get(game=game).confirmed_by_name == "Cat"
    # An owner who is not seated confirms nothing.
    hand_record(game=game, hand=WIN, entered_seat=1)
    with pytest.raises(NotAllowed):
        hand_confirm(game=game, number=2, by=alice)


def test_undo_of_a_confirmed_hand_is_refused_and_confirm_of_an_undone_hand_is_409(confirming):
    game = confirming
    hand_record(game=game, hand=WIN, entered_seat=0)
    seat_claim(game=game, seat=1, phone="cat")
    hand_confirm(game=game, number=1, phone="cat")
    table = phone(game)
    refused = table.post(reverse("hand_undo", args=[game.pk]), headers=JSON)
    assert refused.status_code == 409 and refused.json()["status"] == "confirmed"
    hand_record(game=game, hand=WIN, entered_seat=0)
    hand_undo(game=game, by_name="Ann")
    late = table.post(reverse("hand_confirm", args=[game.pk, 2]), headers=JSON)
    assert late.status_code == 409 and late.json()["status"] == "undone"


# --- JSON refusals ----------------------------------------------------------------------------


def test_every_refusal_of_the_hand_endpoints_is_json_with_a_message(game, as_charlie):
    table = phone(game)
    submit = reverse("hand_submit", args=[game.pk])
    invalid = table.post(submit, hand_data(bid="99"), headers=JSON)
    assert invalid.status_code == 422
    assert invalid.json()["status"] == "invalid" and invalid.json()["message"]
    assert "bid" in invalid.json()["errors"]
    nothing = table.post(reverse("hand_undo", args=[game.pk]), headers=JSON)
    assert nothing.status_code == 409 and nothing.json()["status"] == "nothing"
    game_token_revoke(game=game)
    for url in (
        submit,
        reverse("hand_undo", args=[game.pk]),
        reverse("hand_preview", args=[game.pk]),
        reverse("hand_confirm", args=[game.pk, 1]),
    ):
        revoked = table.post(url, hand_data(), headers=JSON)
        assert revoked.status_code == 403, url
        assert revoked.json()["status"] == "revoked" and "QR code" in revoked.json()["message"]
        outsider = as_charlie.post(url, hand_data(), headers=JSON)
        assert outsider.status_code == 404 and outsider.json()["status"] == "not_found"
    csrf = Client(enforce_csrf_checks=True).post(submit, hand_data(), headers=JSON)
    assert csrf.status_code == 403 and csrf.json()["message"]


def test_the_preview_of_a_game_that_is_over_says_so(game, as_bob):
    finish(game)
    url = reverse("hand_preview", args=[game.pk])
    answer = as_bob.post(url, hand_data(), headers=JSON)
    assert answer.status_code == 409 and answer.json()["status"] == "closed"
    assert "ask a scorer" in as_bob.post(url, hand_data()).content.decode()
