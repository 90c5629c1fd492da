"""A confirmation proves a second person at the table: the attacks that went through become
refusals. One person holds one seat of a game (a second browser of the same account is the
same person); an account never holds a seat of the other side from the hands it entered; a
member seated nowhere confirms nothing; nothing is confirmed on an abandoned game."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Membership
from leagues.clubs.roles import Role
from scorecards.models import Game, Hand, SeatClaim
from scorecards.rules import HandInput
from scorecards.services import (
    GameClosed,
    HandRefused,
    NotAllowed,
    game_abandon,
    hand_confirm,
    hand_record,
    seat_claim,
)
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


def _hand(**extra: str) -> dict[str, str]:
    return {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
        **extra,
    }


@pytest.fixture
def game(confirming_game) -> Game:
    return confirming_game


@pytest.fixture
def erin(club):
    user = get_user_model().objects.create_user("erin", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    return user


def test_a_second_browser_of_the_player_who_entered_a_hand_cannot_confirm_it(game, erin):
    first = client_for(erin)
    answer = first.post(reverse("hand_submit", args=[game.pk]), _hand(number="1", entered_as="0"))
    assert answer.status_code == 303
    assert Hand.objects.get(game=game).entered_seat == 0
    # Another browser, signed in as the same account: it holds Ann's seat already.
    second = client_for(erin)
    page = second.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="seat-claim"' not in page and 'class="confirm"' not in page
    claim = second.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"}, headers=JSON)
    assert claim.status_code == 409 and claim.json()["status"] == "claimed"
    assert list(SeatClaim.objects.filter(game=game).values_list("seat", flat=True)) == [0]
    confirm = second.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert confirm.status_code == 403 and confirm.json()["status"] == "forbidden"
    assert Hand.objects.get(game=game).confirmed_at is None


def test_an_account_never_holds_a_seat_of_the_other_side_from_its_hands(game, erin):
    hand_record(game=game, hand=MADE, entered_by=erin, entered_seat=0)
    with pytest.raises(NotAllowed, match="You entered hands for the other side"):
        seat_claim(game=game, seat=1, phone="erin-phone", user=erin)
    # Her partner's seat is her side: she may say she holds it.
    assert seat_claim(game=game, seat=2, phone="erin-phone", user=erin).seat == 2
    with pytest.raises(HandRefused) as refused:
        seat_claim(game=game, seat=3, phone="erin-other-phone", user=erin)
    assert refused.value.status == "claimed"


def test_a_member_seated_nowhere_confirms_nothing(game, erin):
    hand_record(game=game, hand=MADE, entered_seat=0)
    answer = client_for(erin).post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert answer.status_code == 403
    with pytest.raises(NotAllowed):
        hand_confirm(game=game, number=1, by=erin)
    assert Hand.objects.get(game=game).confirmed_at is None


def test_nothing_is_confirmed_on_an_abandoned_game(game, alice):
    phone = Client()
    phone.get(reverse("game_table_join", args=[game.table_token]))
    assert phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"}).status_code == 303
    hand_record(game=game, hand=MADE, entered_seat=0)
    game_abandon(game=game, by=alice, reason="rain")
    answer = phone.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert answer.status_code == 409 and answer.json()["status"] == "closed"
    assert "abandoned" in answer.json()["message"]
    with pytest.raises(GameClosed):
        seat_claim(game=game, seat=3, phone="late")
    assert Hand.objects.get(game=game).confirmed_at is None


def test_the_last_hand_is_confirmed_after_it_finished_the_game(game):
    seat_claim(game=game, seat=1, phone="cat")
    while not Game.objects.get(pk=game.pk).is_finished:
        hand_record(game=game, hand=MADE, entered_seat=0)
    last = Game.objects.get(pk=game.pk).hand_count
    assert hand_confirm(game=game, number=last, phone="cat").confirmed_by_name == "Cat"


def test_a_phone_with_no_account_never_confirms_a_hand_it_entered(game):
    """The phone enters a hand naming no seat, then claims a seat of the other side: the hand
    remembers the phone that entered it, so the ✓ is not offered and the server refuses it;
    another phone of that side confirms it."""
    phone = Client()
    phone.get(reverse("game_table_join", args=[game.table_token]))
    entered = phone.post(reverse("hand_submit", args=[game.pk]), _hand(number="1"))
    assert entered.status_code == 303
    hand = Hand.objects.get(game=game)
    assert hand.entered_seat is None and hand.entered_phone
    claim = phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"})
    assert claim.status_code == 303
    page = phone.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'class="confirm"' not in page
    confirm = phone.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert (
        confirm.status_code == 403 and "This phone entered this hand" in confirm.json()["message"]
    )
    assert Hand.objects.get(game=game).confirmed_at is None

    other = Client()
    other.get(reverse("game_table_join", args=[game.table_token]))
    assert other.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "3"}).status_code == 303
    assert 'class="confirm"' in other.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert other.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON).status_code == 200
    assert Hand.objects.get(game=game).confirmed_at is not None
