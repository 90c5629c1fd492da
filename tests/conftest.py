"""Shared fixtures: alice owns the club, bob is a member, charlie is an outsider."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from leagues.clubs.models import Club, Membership, Player
from leagues.clubs.roles import Role
from scorecards.rules import rules_build

PASSWORD = "correct-horse-battery"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Skipped in CI means failed: in a run that must prove the real servers, a test marked for a
    # server is never silently skipped, and the database really is PostgreSQL.
    if os.environ.get("KAISER_REQUIRE_REAL_SERVICES") and not os.environ.get(
        "DATABASE_URL", ""
    ).startswith("postgres"):
        raise pytest.UsageError("KAISER_REQUIRE_REAL_SERVICES needs DATABASE_URL=postgres://...")


@pytest.fixture(autouse=True)
def _real_server_markers(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and not os.environ.get(
        "DATABASE_URL", ""
    ).startswith("postgres"):
        pytest.fail("marked postgres but DATABASE_URL is not a PostgreSQL URL")
    if request.node.get_closest_marker("sqlite") and os.environ.get("DATABASE_URL"):
        pytest.fail("marked sqlite but DATABASE_URL is set")
    if request.node.get_closest_marker("redis") and not os.environ.get("CELERY_BROKER_URL"):
        pytest.fail("marked redis but CELERY_BROKER_URL is not set")


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A French request leaves its language active in the thread (LocaleMiddleware); the next
    test must start in the default language whatever ran before it."""
    yield
    translation.deactivate()


def _user(username: str):
    return get_user_model().objects.create_user(username, password=PASSWORD)


@pytest.fixture
def alice(db):
    return _user("alice")


@pytest.fixture
def bob(db):
    return _user("bob")


@pytest.fixture
def charlie(db):
    return _user("charlie")


@pytest.fixture
def club(alice, bob) -> Club:
    club = Club.objects.create(name="Regina Kaiser Club", slug="regina")
    Membership.objects.create(club=club, user=alice, role=Role.OWNER)
    Membership.objects.create(club=club, user=bob, role=Role.MEMBER)
    return club


@pytest.fixture
def ex_member(club, charlie):
    """charlie was a member of the club and was removed."""
    Membership.objects.create(club=club, user=charlie, role=Role.MEMBER).delete()
    return charlie


@pytest.fixture
def users(alice, bob, charlie, ex_member) -> dict:
    """Each identity a club page is tried with, by name (None: signed out)."""
    return {"alice": alice, "bob": bob, "charlie": charlie, "ex_member": ex_member, None: None}


@pytest.fixture
def players(club) -> list[Player]:
    return [Player.objects.create(club=club, name=n) for n in ["Ann", "Cat", "Bob", "Dan"]]


@pytest.fixture
def standard_rules():
    return rules_build({"preset": "standard"})


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def as_alice(alice) -> Client:
    return client_for(alice)


@pytest.fixture
def as_bob(bob) -> Client:
    return client_for(bob)


@pytest.fixture
def as_charlie(charlie) -> Client:
    return client_for(charlie)


@pytest.fixture
def confirming_game(club, players, standard_rules, alice):
    """A game of a club whose hands need confirming, with its table link issued: the game the
    seat and confirmation tests play at a table of phones."""
    from scorecards.services import game_start, game_token_issue

    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    club.refresh_from_db()
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    game_token_issue(game=game)
    return game


def table_phone(game) -> Client:
    """A phone (a client with no account) that opened the game's table link."""
    from django.urls import reverse

    phone = Client()
    assert phone.get(reverse("game_table_join", args=[game.table_token])).status_code in (200, 302)
    return phone
