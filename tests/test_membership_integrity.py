"""Who holds power in a club: at least one owner always, members removed with a confirmation
page and every power over the club's games gone with the membership, invitations that are used
once (or as often as their maker said), expire and list who used them, and login throttling
that protects rather than harms."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from leagues.clubs import services
from leagues.clubs.models import Invitation, InvitationUse, Membership, Player
from leagues.clubs.roles import Role
from scorecards.models import Hand
from scorecards.rules import HandInput
from scorecards.services import game_start, hand_record
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

HAND = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)


def _user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


# --- owners -----------------------------------------------------------------------------------


def test_the_last_owner_cannot_be_demoted_or_removed(club, alice):
    owner = Membership.objects.get(club=club, user=alice)
    with pytest.raises(services.LeagueError):
        services.membership_role_set(membership=owner, role=Role.MEMBER, by=alice)
    with pytest.raises(services.LeagueError):
        services.membership_remove(membership=owner, by=alice)
    olga = Membership.objects.create(club=club, user=_user("olga"), role=Role.OWNER)
    services.membership_remove(membership=olga, by=alice)  # two owners: one may go
    assert list(Membership.objects.filter(club=club, role=Role.OWNER)) == [owner]


def test_a_member_cannot_change_roles_through_the_service(club, bob):
    mine = Membership.objects.get(club=club, user=bob)
    with pytest.raises(services.LeagueError):
        services.membership_role_set(membership=mine, role=Role.OWNER, by=bob)
    assert Membership.objects.get(pk=mine.pk).role == Role.MEMBER


# --- removing a member --------------------------------------------------------------------------


def test_a_director_removes_a_member_after_a_confirmation_page(club, alice, bob):
    director = _user("dora")
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    bob_membership = Membership.objects.get(club=club, user=bob)
    url = reverse("membership_remove", args=[club.slug, bob_membership.pk])
    as_dora = client_for(director)
    page = as_dora.get(url)
    assert page.status_code == 200 and "Remove bob from the club?" in page.content.decode()
    assert Membership.objects.filter(pk=bob_membership.pk).exists()  # GET changes nothing
    assert client_for(bob).post(url).status_code == 403  # a member removes nobody
    assert as_dora.post(url).status_code == 302
    assert not Membership.objects.filter(pk=bob_membership.pk).exists()
    # A director does not remove an owner.
    owner = Membership.objects.get(club=club, user=alice)
    as_dora.post(reverse("membership_remove", args=[club.slug, owner.pk]))
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_an_ex_member_keeps_no_power_over_the_games_they_started(
    club, players, bob, alice, standard_rules
):
    players[0].user = bob
    players[0].save()
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=bob)
    hand_record(game=game, hand=HAND)
    services.membership_remove(membership=Membership.objects.get(club=club, user=bob), by=alice)
    assert Player.objects.get(pk=players[0].pk).user is None
    as_bob = client_for(bob)
    data = {
        "idempotency_key": "7a4c1d43-5a8e-4bd4-9a31-6a4c2e1c0d11",
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
    }
    assert as_bob.get(reverse("game_sheet", args=[game.pk])).status_code == 404
    assert as_bob.post(reverse("hand_submit", args=[game.pk]), data).status_code == 404
    assert as_bob.post(reverse("hand_detail", args=[game.pk, 1]), data).status_code == 404
    assert as_bob.post(reverse("game_table_link", args=[game.pk])).status_code == 404
    assert as_bob.post(reverse("hand_undo", args=[game.pk])).status_code == 404
    assert Hand.objects.filter(game=game).count() == 1


# --- invitations ----------------------------------------------------------------------------------


def test_an_invitation_is_single_use_by_default_and_lists_who_used_it(club, as_alice):
    as_alice.post(reverse("invitation_create", args=[club.slug]), {"role": "director"})
    invitation = Invitation.objects.get(club=club)
    assert invitation.max_uses == 1
    link = reverse("invitation_accept", args=[invitation.token])
    first, second = _user("dora"), _user("dave")
    assert client_for(first).post(link).status_code == 302
    assert client_for(second).post(link).status_code == 404  # used up
    directors = Membership.objects.filter(club=club, role=Role.DIRECTOR)
    assert list(directors.values_list("user__username", flat=True)) == ["dora"]
    page = as_alice.get(reverse("club_members", args=[club.slug])).content.decode()
    assert "used 1 of 1" in page and "dora" in page


def test_an_invitation_with_a_use_limit_and_one_that_expired(club, alice, as_alice):
    as_alice.post(
        reverse("invitation_create", args=[club.slug]),
        {"role": "member", "max_uses": "2", "days": "3"},
    )
    invitation = Invitation.objects.get(club=club)
    assert invitation.max_uses == 2
    assert invitation.expires_at - timezone.now() < datetime.timedelta(days=3, minutes=1)
    link = reverse("invitation_accept", args=[invitation.token])
    for name in ("ann2", "cat2"):
        assert client_for(_user(name)).post(link).status_code == 302
    assert client_for(_user("dan2")).post(link).status_code == 404
    assert InvitationUse.objects.filter(invitation=invitation).count() == 2
    old = services.invitation_create(club=club, max_uses=5, created_by=alice)
    Invitation.objects.filter(pk=old.pk).update(expires_at=timezone.now())
    assert (
        client_for(_user("late")).post(reverse("invitation_accept", args=[old.token])).status_code
        == 404
    )
    with pytest.raises(services.LeagueError):
        services.invitation_accept(invitation=old, user=_user("raced"))


# --- login throttling -------------------------------------------------------------------------


def _login(client: Client, username: str, password: str = "wrong", **headers):
    return client.post(
        reverse("login"), {"username": username, "password": password}, headers=headers
    )


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True
    cache.clear()
    from axes.models import AccessAttempt

    AccessAttempt.objects.all().delete()
    return settings


@override_settings(AXES_FAILURE_LIMIT=5, KAISER_LOGIN_ADDRESS_LIMIT=8)
def test_one_address_guessing_across_usernames_is_throttled(alice, axes_on):
    client = Client(REMOTE_ADDR="203.0.113.9")
    for i in range(7):
        assert _login(client, f"user{i}").status_code == 200  # below both limits
    _login(client, "user7")
    locked = _login(client, "alice", PASSWORD)
    assert locked.status_code == 429
    assert "try again in 15 minutes" in locked.content.decode()
    assert locked["Retry-After"] == "900"
    # Another address is not punished for it.
    assert _login(Client(REMOTE_ADDR="198.51.100.7"), "alice", PASSWORD).status_code == 302


def test_behind_the_proxy_the_client_address_counts_not_the_proxy(alice, axes_on):
    axes_on.AXES_IPWARE_PROXY_COUNT = 1
    axes_on.AXES_IPWARE_PROXY_ORDER = "right-most"
    axes_on.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
    attacker = Client(REMOTE_ADDR="127.0.0.1")
    for _ in range(6):
        # A forged left-most address changes nothing: the proxy appended the real one.
        attacker.post(
            reverse("login"),
            {"username": "alice", "password": "wrong"},
            HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.66",
        )
    locked = attacker.post(
        reverse("login"),
        {"username": "alice", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="10.1.1.1, 203.0.113.66",
    )
    assert locked.status_code == 429
    # The real user, behind the same proxy from another address, still logs in.
    real = Client(REMOTE_ADDR="127.0.0.1").post(
        reverse("login"),
        {"username": "alice", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="198.51.100.20",
    )
    assert real.status_code == 302


def test_new_pages_cost_a_fixed_number_of_queries(
    club, players, standard_rules, alice, as_alice, django_assert_max_num_queries
):
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    for i in range(3):
        services.invitation_accept(
            invitation=services.invitation_create(club=club, max_uses=2), user=_user(f"u{i}")
        )
    bob = Membership.objects.get(club=club, user__username="bob")
    pages = [
        (reverse("game_abandon", args=[game.pk]), 6),  # and the hands taken back
        (reverse("membership_remove", args=[club.slug, bob.pk]), 5),
        (reverse("club_members", args=[club.slug]), 7),
    ]
    for url, most in pages:
        with django_assert_max_num_queries(most):
            assert as_alice.get(url).status_code == 200
