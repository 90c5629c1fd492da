"""Races on what a club must be able to trust, with real threads (each on its own database
connection, released together by a barrier), repeated: two owners demoting each other, undo
against confirm, the last use of an invitation. They run on SQLite in the first pass and on
PostgreSQL in the second (DATABASE_URL), where row locks, not one database lock, decide."""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from leagues.clubs import services
from leagues.clubs.models import Club, Invitation, Membership
from leagues.clubs.roles import Role
from scorecards.models import Hand, SpentKey
from scorecards.rules import HandInput
from scorecards.services import game_start, game_token_issue, hand_record, seat_claim
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

REPEAT = 20
HAND = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
JSON = {"Accept": "application/json"}


def together(*calls: Callable[[], object]) -> list[object]:
    """Run each call in its own thread at the same instant; each answer or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            connection.ensure_connection()
            barrier.wait()
            results[i] = calls[i]()
        except Exception as exc:  # the loser's refusal is what the test asserts
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


@pytest.mark.parametrize("round_", range(REPEAT))
def test_two_owners_demoting_each_other_leave_one_owner(round_) -> None:
    club = Club.objects.create(name=f"Race {round_}", slug=f"race-{round_}")
    ann, bea = _user(f"ann{round_}"), _user(f"bea{round_}")
    first = Membership.objects.create(club=club, user=ann, role=Role.OWNER)
    second = Membership.objects.create(club=club, user=bea, role=Role.OWNER)
    results = together(
        lambda: services.membership_role_set(membership=second, role=Role.MEMBER, by=ann),
        lambda: services.membership_role_set(membership=first, role=Role.MEMBER, by=bea),
    )
    refused = [r for r in results if isinstance(r, services.LeagueError)]
    assert len(refused) == 1, results
    print("race demotions:", "first won" if results[0] is not refused[0] else "second won")
    assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1


@pytest.mark.parametrize("round_", range(REPEAT))
def test_undo_racing_confirm_answers_409_never_500(club, players, standard_rules, round_):
    club.hands_need_confirmation = True
    club.save()
    game = game_start(seats=players, rules=standard_rules, club=club)
    token = game_token_issue(game=game)
    hand_record(game=game, hand=HAND, entered_seat=0)
    undoer, confirmer = Client(), Client()
    for phone in (undoer, confirmer):
        phone.get(reverse("game_table_join", args=[token]))
    confirmer.post(reverse("game_seat_claim", args=[game.pk]), {"seat": "1"})
    answers = together(
        lambda: undoer.post(reverse("hand_undo", args=[game.pk]), headers=JSON),
        lambda: confirmer.post(reverse("hand_confirm", args=[game.pk, 1]), headers=JSON),
    )
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409], [getattr(a, "content", a) for a in answers]
    words = {a.json()["status"] for a in answers}
    hand = Hand.objects.filter(game=game).first()
    if hand is None:  # the undo won: the confirmation was told the hand is gone
        assert words == {"undone"} and SpentKey.objects.filter(game=game).count() == 1
    else:  # the confirmation won: the undo was told to ask for a correction
        assert words == {"confirmed"} and hand.confirmed_by_name == "Cat"
    assert all(a.json()["message"] for a in answers if a.status_code == 409)
    print("race undo/confirm:", "undo won" if hand is None else "confirm won")


@pytest.mark.parametrize("round_", range(REPEAT // 2))
def test_the_last_use_of_an_invitation_goes_to_one_person(club, alice, round_) -> None:
    invitation = services.invitation_create(club=club, role=Role.DIRECTOR, created_by=alice)
    people = [_user(f"new{round_}-{i}") for i in range(4)]
    results = together(
        *(
            (lambda person=person: services.invitation_accept(invitation=invitation, user=person))
            for person in people
        )
    )
    outcomes = collections.Counter(type(r).__name__ for r in results)
    assert outcomes == {"Membership": 1, "LeagueError": 3}, results
    assert Membership.objects.filter(club=club, role=Role.DIRECTOR).count() == 1
    assert Invitation.objects.get(pk=invitation.pk).uses.count() == 1


def test_two_phones_claiming_one_seat_at_once_one_wins(club, players, standard_rules) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club)
    results = together(
        lambda: seat_claim(game=game, seat=1, phone="one"),
        lambda: seat_claim(game=game, seat=1, phone="two"),
    )
    assert sorted(r is None for r in results) == [False, True], results


@pytest.mark.postgres
def test_postgres_itself_refuses_a_club_without_an_owner(club, alice) -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(club=club, user=alice).update(role=Role.MEMBER)
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert Membership.objects.get(club=club, user=alice).role == Role.OWNER
    club.delete()  # a whole club goes, its memberships with it
    assert not Membership.objects.filter(user=alice).exists()
