"""Seat claims that no longer trap anyone: the claim form preselects no seat; a phone gives its
seat back (a SeatRelease trace, the claim gone) and a replacement phone takes it; a scorer or
director (and the owner) releases any claim while the game is played; a member, an outsider, an
ex-member and a table phone release nobody else's; nothing moves once the game is over. The
sheet shows which seats are claimed and since when; a hand's history shows the claim behind its
confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from leagues.clubs.models import Membership
from leagues.clubs.roles import Role
from leagues.clubs.services import membership_remove
from scorecards.models import Game, Hand, SeatClaim, SeatRelease
from scorecards.rules import HandInput
from scorecards.services import (
    GameClosed,
    NotAllowed,
    SeatRefused,
    game_abandon,
    hand_record,
    seat_claim,
    seat_release,
)
from tests.conftest import PASSWORD, client_for, table_phone

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


@pytest.fixture
def game(confirming_game) -> Game:
    return confirming_game


def _member(club, name: str, role: str):
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=role)
    return user


def _claim(phone: Client, game: Game, seat: int) -> None:
    answer = phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": str(seat)})
    assert answer.status_code == 303, answer.content[:300]


def _release(client: Client, game: Game, seat: int):
    return client.post(reverse("game_seat_release", args=[game.pk]), {"seat": seat}, headers=JSON)


def _seats(game: Game) -> dict[int, str]:
    return dict(SeatClaim.objects.filter(game=game).values_list("seat", "phone"))


def test_the_claim_form_preselects_no_seat_and_an_empty_choice_claims_nothing(game):
    phone = table_phone(game)
    page = phone.get(reverse("game_sheet", args=[game.pk])).content.decode()
    form = page[page.index('id="seat-claim"') :]
    form = form[: form.index("</form>")]
    assert "selected" not in form and '<option value="">' in form and "required" in form
    answer = phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": ""})
    assert answer.status_code == 409
    assert "Choose who holds this phone" in answer.content.decode()
    told = phone.post(reverse("game_seat_claim", args=[game.pk]), {"seat": ""}, headers=JSON)
    assert told.status_code == 422 and told.json()["status"] == "invalid"
    assert not SeatClaim.objects.filter(game=game).exists()


def test_a_phone_gives_its_seat_back_and_a_replacement_phone_takes_it(game):
    first = table_phone(game)
    _claim(first, game, 1)
    page = first.get(reverse("game_sheet", args=[game.pk])).content.decode()
    # The sheet says which seat this phone holds and since when, and offers to give it back.
    assert 'id="seat-board"' in page and "Cat: claimed by a phone since" in page
    assert "Give my seat back" in page
    # Another phone that tries Cat's seat is told who may help.
    replacement = table_phone(game)
    taken = replacement.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"})
    assert taken.status_code == 409 and "ask a scorer to release it" in taken.content.decode()

    answer = _release(first, game, 1)
    assert answer.status_code == 200 and answer.json() == {"status": "released", "seat": 1}
    assert _seats(game) == {}
    [trace] = SeatRelease.objects.filter(game=game)
    assert (trace.seat, trace.holder_name, trace.by_name, trace.by) == (1, "Cat", "Cat", None)
    # The phone that gave its seat back holds none now: the sheet asks it again.
    again = first.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert 'id="seat-claim"' in again and "This phone is held by</label>" not in again

    _claim(replacement, game, 1)
    assert list(_seats(game)) == [1]
    # The replacement phone confirms the other side's hand from Cat's seat.
    hand_record(game=game, hand=MADE, entered_seat=0)
    confirm = replacement.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON)
    assert confirm.status_code == 200
    hand = Hand.objects.get(game=game, number=1)
    assert hand.confirmed_seat == 1 and hand.confirmed_by_name == "Cat"
    # The first phone no longer confirms from Cat's seat (its old claim is gone).
    hand_record(game=game, hand=MADE, entered_seat=0)
    stale = first.post(reverse("hand_confirm", args=[game.pk, 2]), headers=JSON)
    assert stale.status_code == 403
    assert Hand.objects.get(game=game, number=2).confirmed_at is None


@pytest.mark.parametrize(
    ("who", "released"),
    [
        ("owner", True),
        ("director", True),
        ("scorer", True),
        ("member", False),
        ("outsider", False),
        ("ex-member", False),
        ("table phone", False),
    ],
)
def test_who_releases_another_phones_claim(game, club, alice, bob, charlie, who, released):
    holder = table_phone(game)
    _claim(holder, game, 2)
    if who == "owner":
        client = client_for(alice)
    elif who in ("director", "scorer"):
        client = client_for(_member(club, who, Role.DIRECTOR if who == "director" else Role.SCORER))
    elif who == "member":
        client = client_for(bob)
    elif who == "outsider":
        client = client_for(charlie)
    elif who == "ex-member":
        dora = _member(club, "dora", Role.SCORER)
        client = client_for(dora)
        client.get(reverse("game_table_join", args=[game.table_token]))
        membership_remove(membership=Membership.objects.get(user=dora), by=alice)
    else:
        client = table_phone(game)
        _claim(client, game, 3)
    page = client.get(reverse("game_sheet", args=[game.pk]))
    answer = _release(client, game, 2)
    if released:
        assert answer.status_code == 200 and answer.json()["status"] == "released"
        assert 2 not in _seats(game)
        assert 'class="inline seat-release"' in page.content.decode()
        trace = SeatRelease.objects.get(game=game)
        assert trace.by is not None and trace.by_name
    else:
        assert answer.status_code in (403, 404)
        assert 2 in _seats(game) and not SeatRelease.objects.exists()
        if page.status_code == 200:
            # Not offered: the only release on the page is the viewer's own seat, if any.
            assert page.content.decode().count('class="inline seat-release"') <= 1
            assert 'name="seat" value="2"><button' not in page.content.decode().replace("\n", "")


def test_a_member_gives_back_the_seat_their_account_claimed(game, bob):
    bob_phone = client_for(bob)
    _claim(bob_phone, game, 3)
    assert _release(bob_phone, game, 3).json()["status"] == "released"
    assert SeatRelease.objects.get(game=game).by == bob


@pytest.mark.parametrize("end", ["finished", "abandoned"])
def test_nothing_is_released_once_the_game_is_over(game, alice, end):
    holder = table_phone(game)
    _claim(holder, game, 1)
    if end == "abandoned":
        game_abandon(game=game, by=alice, reason="rain")
    else:
        while not Game.objects.get(pk=game.pk).is_finished:
            hand_record(game=game, hand=MADE)
    for client in (holder, client_for(alice)):
        answer = _release(client, game, 1)
        assert answer.status_code == 409 and answer.json()["status"] == "closed"
        page = client.get(reverse("game_sheet", args=[game.pk])).content.decode()
        assert "seat-release" not in page
    with pytest.raises(GameClosed):
        seat_release(game=game, seat=1, by=alice, by_name="Alice")
    assert list(_seats(game)) == [1] and not SeatRelease.objects.exists()


def test_the_service_refuses_a_seat_nobody_holds_and_a_phone_that_is_not_its_holder(game, alice):
    with pytest.raises(SeatRefused):
        seat_release(game=game, seat=0, by=alice, by_name="Alice")
    seat_claim(game=game, seat=0, phone="ann-phone")
    with pytest.raises(NotAllowed):
        seat_release(game=game, seat=0, by=None, by_name="x", phone="someone-else")
    seat_release(game=game, seat=0, by=None, by_name="Ann", phone="ann-phone")
    assert not SeatClaim.objects.exists() and SeatRelease.objects.count() == 1


def test_a_seat_released_by_a_scorer_is_forgotten_by_the_phone_that_held_it(game, alice):
    impostor = table_phone(game)
    _claim(impostor, game, 1)
    assert _release(client_for(alice), game, 1).json()["status"] == "released"
    # The impostor's next hand is signed by no seat (its session's claim was checked).
    answer = impostor.post(
        reverse("hand_submit", args=[game.pk]),
        {
            "idempotency_key": "8c4e0e9e-0d2a-4c38-9a4e-2b2f0f1e0a01",
            "number": "1",
            "bidder": "0",
            "bid": "7",
            "kind": "trump",
            "tricks_bidder": "7",
            "five_hearts": "0",
            "three_spades": "0",
        },
        headers=JSON,
    )
    assert answer.status_code == 201
    hand = Hand.objects.get(game=game)
    assert hand.entered_seat is None and hand.entered_by_name != "Cat"


def test_the_history_shows_the_claim_behind_a_confirmation(game, as_alice):
    phone = table_phone(game)
    _claim(phone, game, 1)
    hand_record(game=game, hand=MADE, entered_seat=0)
    assert phone.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON).status_code == 200
    assert _release(phone, game, 1).status_code == 200
    page = as_alice.get(reverse("hand_detail", args=[game.pk, 1])).content.decode()
    assert "Confirmed by Cat." in page
    assert "Confirmed from the seat Cat, claimed by a phone at" in page and "let go at" in page
    assert 'id="seat-releases"' in page and "let go by Cat" in page
