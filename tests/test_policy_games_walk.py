"""The pages offer exactly what the server accepts: every game action x identity x state walked
through the real views. For each, the page the action lives on (the sheet, the hand page, the
abandon page) is read as that person, and the action is posted as a browser without
JavaScript would, in a savepoint rolled back afterwards; the form is shown exactly when the
post goes through (and changes the database), and a refused post writes nothing.

The club asks every hand to be confirmed. Each game has hand 1 entered from the phone seated
on side 0 (Ann); a phone holds Cat's seat (side 1). Bob, a member, started the club games."""

from __future__ import annotations

import datetime
import uuid
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.clubs import services as league_services
from leagues.clubs.models import Club, Membership, Season
from leagues.clubs.roles import Role
from leagues.tournaments.services import (
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import Game, Hand, HandVersion, SeatClaim, SeatRelease, SpentKey
from scorecards.rules import HandInput
from scorecards.services import game_abandon, game_start, game_token_issue, hand_record
from tests.conftest import PASSWORD, client_for

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
STATES = (
    "new",
    "in progress",
    "finished",
    "abandoned",
    "round closed",
    "night over",
    "season closed",
)
IDENTITIES = (
    "owner",
    "scorer",
    "member-starter",
    "member",
    "ex-member",
    "outsider",
    "table-link phone",
    "phone seated on side 0",
    "phone seated on side 1",
)
ACTIONS = (
    "enter",
    "undo",
    "confirm",
    "seat claim",
    "seat release",
    "correct",
    "abandon",
    "delete",
    "table link",
)


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


def _night(club, name: str, by) -> tuple:
    night = tournament_create(club=club, name=name, date=datetime.date(2026, 11, 20), rounds=2)
    for i in range(4):
        entry_register(tournament=night, player=f"{name}{i}", checked_in=True)
    game = round_draw(tournament=night, by=by).tables[0].game
    return night, game


def _phone(game: Game, seat: int | None) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game.table_token]))
    if seat is not None:
        answer = client.post(reverse("game_seat_claim", args=[game.pk]), {"seat": str(seat)})
        assert answer.status_code == 303
    return client


@pytest.fixture
def world(club, players, standard_rules, alice, bob, charlie):
    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    club.refresh_from_db()
    users = {"owner": alice, "member-starter": bob, "outsider": charlie}
    for name, role in (("scorer", Role.SCORER), ("member", Role.MEMBER), ("ex-member", None)):
        user = get_user_model().objects.create_user(name.replace("-", ""), password=PASSWORD)
        Membership.objects.create(club=club, user=user, role=role or Role.MEMBER)
        users[name] = user
    season = Season.objects.create(club=club, name="2026", starts_on=datetime.date(2026, 1, 1))

    def club_game(**kwargs) -> Game:
        game = game_start(seats=players, rules=standard_rules, club=club, created_by=bob, **kwargs)
        game_token_issue(game=game)
        return game

    games = {state: club_game() for state in ("new", "in progress", "finished", "abandoned")}
    games["season closed"] = club_game(season=season)
    _, games["round closed"] = _night(club, "Fri", alice)
    ended, games["night over"] = _night(club, "Sat", alice)
    phones: dict[str, dict[str, Client]] = {}
    for state, game in games.items():
        game.refresh_from_db()
        phones[state] = {
            "table-link phone": _phone(game, None),
            "phone seated on side 0": _phone(game, 0),
            "phone seated on side 1": _phone(game, 1),
        }
        if state == "new":
            continue
        # Hand 1 from Ann's phone (side 0).
        entered = phones[state]["phone seated on side 0"].post(
            reverse("hand_submit", args=[game.pk]), _hand(number="1")
        )
        assert entered.status_code == 303, state
    while not Game.objects.get(pk=games["finished"].pk).is_finished:
        hand_record(game=games["finished"], hand=MADE, entered_seat=0)
    game_abandon(game=games["abandoned"], by=alice, reason="rain")
    round_close(round=games["round closed"].tournament_table.round, by=alice)
    tournament_finish(tournament=ended, by=alice)
    Season.objects.filter(pk=season.pk).update(closed_at=timezone.now())
    league_services.membership_remove(
        membership=Membership.objects.get(club=club, user=users["ex-member"]), by=alice
    )
    for game in games.values():
        game.refresh_from_db()
    return {"users": users, "games": games, "phones": phones}


def database_fingerprint() -> list:
    """Every row a game action can write (games, hands, their history, claims, spent keys)."""
    return [
        list(model.objects.order_by("pk").values_list())
        for model in (Game, Hand, HandVersion, SeatClaim, SeatRelease, SpentKey)
    ]


def _client(world, identity: str, state: str) -> Client:
    if identity in world["phones"][state]:
        return world["phones"][state][identity]
    return client_for(world["users"][identity])


def _offers(client: Client, game: Game) -> dict[str, bool]:
    """What the pages offer this person: each action's form, where it lives."""
    sheet = client.get(reverse("game_sheet", args=[game.pk]))
    page = sheet.content.decode() if sheet.status_code == 200 else ""
    hand = client.get(reverse("hand_detail", args=[game.pk, 1]))
    hand_page = hand.content.decode() if hand.status_code == 200 else ""
    stop = client.get(reverse("game_abandon", args=[game.pk]))
    stop_page = stop.content.decode() if stop.status_code == 200 else ""

    def form(html: str, name: str, *args: int) -> bool:
        return f'action="{reverse(name, args=[game.pk, *args])}"' in html

    offers = {
        "enter": 'id="hand-form"' in page,
        "undo": form(page, "hand_undo"),
        "confirm": form(page, "hand_confirm", 1),
        "seat claim": 'id="seat-claim"' in page,
        "seat release": 'id="seat-release-1"' in page,  # Cat's seat, a phone's claim
        "correct": 'id="correct-form"' in hand_page,
        "abandon": form(stop_page, "game_abandon"),
        "delete": form(stop_page, "game_delete"),
        "table link": form(page, "game_table_link"),
    }
    # The sheet's way to the abandon page shows exactly when that page offers something.
    assert ('class="sheet-stop"' in page) == (offers["abandon"] or offers["delete"])
    return offers


def _post(action: str, game: Game) -> tuple[str, dict[str, str]]:
    return {
        "enter": (reverse("hand_submit", args=[game.pk]), _hand(number=str(game.hand_count + 1))),
        "undo": (reverse("hand_undo", args=[game.pk]), {}),
        "confirm": (reverse("hand_confirm", args=[game.pk, 1]), {}),
        "seat claim": (reverse("game_seat_claim", args=[game.pk]), {"seat": "3"}),
        "seat release": (reverse("game_seat_release", args=[game.pk]), {"seat": "1"}),
        "correct": (
            reverse("hand_detail", args=[game.pk, 1]),
            _hand(bid="8", tricks_bidder="8", reason="recounted"),
        ),
        "abandon": (reverse("game_abandon", args=[game.pk]), {"reason": "the hall closed"}),
        "delete": (reverse("game_delete", args=[game.pk]), {}),
        "table link": (reverse("game_table_link", args=[game.pk]), {"action": "issue"}),
    }[action]


def _accepted(client: Client, action: str, game: Game) -> bool:
    """Whether the server takes this post (it answers with a redirect and writes), rolled back
    afterwards so every person meets the same game."""
    url, data = _post(action, game)
    with transaction.atomic():
        before = database_fingerprint()
        response = client.post(url, data)
        changed = database_fingerprint() != before
        transaction.set_rollback(True)
    if response.status_code in (302, 303) and changed:
        return True
    assert not changed, (action, response.status_code)
    # A refusal answers with a page saying why (or 403/404 to whom the game offers nothing).
    assert response.status_code in (303, 403, 404, 409, 422), (action, response.status_code)
    return False


def test_every_page_offers_exactly_what_the_server_accepts(world) -> None:
    outcomes: Counter = Counter()
    mismatches = []
    offered_to: dict[tuple[str, str], set[str]] = {}
    for state in STATES:
        game = world["games"][state]
        for identity in IDENTITIES:
            client = _client(world, identity, state)
            offers = _offers(client, game)
            for action in ACTIONS:
                accepted = _accepted(client, action, game)
                outcomes["accepted" if accepted else "refused"] += 1
                if offers[action] != accepted:
                    mismatches.append((state, identity, action, offers[action], accepted))
                if accepted:
                    offered_to.setdefault((state, action), set()).add(identity)
    assert mismatches == [], mismatches
    print("offered == accepted:", dict(outcomes))
    # What the walk found, for the cases the policy is about.
    assert offered_to[("in progress", "correct")] == {"owner", "scorer", "member-starter"}
    assert offered_to[("finished", "correct")] == {"owner", "scorer"}
    assert offered_to[("in progress", "confirm")] == {"phone seated on side 1"}
    assert offered_to[("finished", "confirm")] == {"phone seated on side 1"}
    assert ("abandoned", "confirm") not in offered_to
    assert ("night over", "confirm") not in offered_to
    assert ("season closed", "correct") not in offered_to
    assert offered_to[("new", "delete")] == {"owner", "scorer"}
    # A claim is let go by its own phone, or by a scorer or the owner, while the game is played.
    assert offered_to[("in progress", "seat release")] == {
        "owner",
        "scorer",
        "phone seated on side 1",
    }
    assert ("finished", "seat release") not in offered_to
    assert "ex-member" not in set().union(*offered_to.values())
    assert outcomes["refused"] > outcomes["accepted"] > 40


def test_a_member_who_started_a_finished_game_sees_no_correction_form(world) -> None:
    game = world["games"]["finished"]
    bob = client_for(world["users"]["member-starter"])
    page = bob.get(reverse("hand_detail", args=[game.pk, 1]))
    assert page.status_code == 200 and b'id="correct-form"' not in page.content
    # Posted anyway (a page kept open from before the game ended): the page says why, and
    # nothing changes.
    before = database_fingerprint()
    answer = bob.post(reverse("hand_detail", args=[game.pk, 1]), _hand(reason="I want to"))
    assert answer.status_code == 403 and database_fingerprint() == before
    assert b'id="refusal"' in answer.content
    assert b"This game is over: ask a scorer to correct it." in answer.content
    # While a game is played, its starter corrects it.
    playing = world["games"]["in progress"]
    page = bob.get(reverse("hand_detail", args=[playing.pk, 1]))
    assert b'id="correct-form"' in page.content and b'name="reason"' not in page.content
