"""The access sweep of finality: every write URL of a game, against a finished game, a table of
a closed round, a table of an ended night and a confirmed hand, as owner, director, scorer,
member, ex-member (who started the game), outsider, the table's phone and a phone of another
game. Refused where it must be, with nothing written; each request runs in a savepoint rolled
back afterwards, so every check starts from the same world."""

from __future__ import annotations

import datetime
import uuid
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from leagues.clubs import services as league_services
from leagues.clubs.models import Club, Membership
from leagues.clubs.roles import Role
from leagues.tournaments.services import (
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import Game
from scorecards.rules import HandInput
from scorecards.services import (
    game_start,
    game_token_issue,
    hand_confirm,
    hand_record,
    seat_claim,
)
from tests.conftest import PASSWORD, client_for
from tests.test_url_sweep import database_fingerprint

pytestmark = pytest.mark.django_db

MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
STATES = ("finished", "closed_round", "ended_night", "confirmed")
ACTORS = (
    "owner",
    "director",
    "scorer",
    "member",
    "ex_member",
    "outsider",
    "table_phone",
    "other_phone",
)
POWER = {"owner", "director", "scorer"}
AT_THE_TABLE = POWER | {"member", "table_phone"}
SUCCESS = {200, 201, 204, 302, 303}
REFUSED = {403, 404, 405, 409, 422}
# Answered with the page again (a redirect) and a message, writing nothing: the director's
# console undo, and confirming a hand that is confirmed already.
QUIET = {"director_undo", "hand_confirm"}
JSON_ENDPOINTS = {"hand_submit", "hand_undo", "hand_confirm", "seat_claim"}


def _hand_post(number: int | None = None, **extra: str) -> dict[str, str]:
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
    }
    if number is not None:
        data["number"] = str(number)
    return data | extra


def _night(club, name: str, by) -> Game:
    night = tournament_create(club=club, name=name, date=datetime.date(2026, 11, 20), rounds=2)
    for i in range(4):
        entry_register(tournament=night, player=f"{name}{i}", checked_in=True)
    game = round_draw(tournament=night, by=by).tables[0].game
    return night, game


@pytest.fixture
def world(club, players, standard_rules, alice, bob, charlie):
    users = {"owner": alice, "member": bob, "outsider": charlie}
    for actor, role in (("director", Role.DIRECTOR), ("scorer", Role.SCORER)):
        users[actor] = get_user_model().objects.create_user(actor, password=PASSWORD)
        Membership.objects.create(club=club, user=users[actor], role=role)
    eve = get_user_model().objects.create_user("eve", password=PASSWORD)
    # A director, so she draws the nights' rounds too.
    Membership.objects.create(club=club, user=eve, role=Role.DIRECTOR)
    users["ex_member"] = eve
    # Hands are confirmed at this club: a seat is claimed and a hand confirmed after a game
    # finished, until its night is over.
    Club.objects.filter(pk=club.pk).update(hands_need_confirmation=True)
    club.refresh_from_db()

    finished = game_start(seats=players, rules=standard_rules, club=club, created_by=eve)
    game_token_issue(game=finished)
    while not Game.objects.get(pk=finished.pk).is_finished:
        hand_record(game=finished, hand=MADE)
    night, closed = _night(club, "Fri", eve)
    hand_record(game=closed, hand=MADE)
    round_close(round=closed.tournament_table.round)
    ended_night, ended = _night(club, "Sat", eve)
    hand_record(game=ended, hand=MADE)
    tournament_finish(tournament=ended_night)
    confirmed = game_start(seats=players, rules=standard_rules, club=club, created_by=eve)
    game_token_issue(game=confirmed)
    hand_record(game=confirmed, hand=MADE, entered_seat=0)
    seat_claim(game=confirmed, seat=1, phone="cat")
    hand_confirm(game=confirmed, number=1, phone="cat")
    other = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    game_token_issue(game=other)
    # Eve started every game, then was removed from the club: she keeps no power.
    league_services.membership_remove(
        membership=Membership.objects.get(club=club, user=eve), by=alice
    )
    games = {"finished": finished, "closed_round": closed, "ended_night": ended}
    games["confirmed"] = confirmed
    for game in [*games.values(), other]:
        game.refresh_from_db()
    return {"users": users, "games": games, "other": other, "nights": (night, ended_night)}


def _client(world, actor: str, game: Game) -> Client:
    if actor == "table_phone" or actor == "other_phone":
        target = game if actor == "table_phone" else world["other"]
        client = Client()
        client.get(reverse("game_table_join", args=[target.table_token]))
        return client
    return client_for(world["users"][actor])


def _writes(game: Game) -> list[tuple[str, str, dict, set[str]]]:
    """(name, url, data, actors whose write goes through) for the game in its state."""
    open_game = game.status == "in_progress"
    table = getattr(game, "tournament_table", None) if hasattr(game, "tournament_table") else None
    night_over = table is not None and table.round.tournament.status == "finished"
    next_number = game.hand_count + 1
    writes = [
        (
            "hand_submit",
            reverse("hand_submit", args=[game.pk]),
            _hand_post(next_number),
            AT_THE_TABLE if open_game else set(),
        ),
        ("hand_undo", reverse("hand_undo", args=[game.pk]), {}, set()),
        # Nobody in the sweep is seated; a confirmed hand is confirmed once.
        ("hand_confirm", reverse("hand_confirm", args=[game.pk, 1]), {}, set()),
        (
            "hand_correct",
            reverse("hand_detail", args=[game.pk, 1]),
            _hand_post(),
            POWER if open_game else set(),  # no reason given
        ),
        (
            "hand_correct_with_reason",
            reverse("hand_detail", args=[game.pk, 1]),
            _hand_post(reason="recounted the tricks"),
            POWER,
        ),
        ("table_link", reverse("game_table_link", args=[game.pk]), {}, POWER),
        (
            "game_abandon",
            reverse("game_abandon", args=[game.pk]),
            {"reason": "rain"},
            POWER if open_game else set(),
        ),
        ("game_delete", reverse("game_delete", args=[game.pk]), {}, set()),
        (
            "seat_claim",
            reverse("game_seat_claim", args=[game.pk]),
            {"seat": "2"},
            # Claimed to confirm hands, which goes on after a game or round ended.
            set() if night_over else AT_THE_TABLE,
        ),
    ]
    if table is not None:
        writes.append(
            (
                "director_undo",
                reverse("tournament_table_undo", args=[table.round.tournament_id, table.pk]),
                {},
                set(),
            )
        )
    return writes


def test_every_write_url_against_what_is_final(world):
    outcomes: Counter = Counter()
    for state in STATES:
        game = world["games"][state]
        for actor in ACTORS:
            for name, url, data, allowed in _writes(game):
                formats = [{}, {"Accept": "application/json"}] if name in JSON_ENDPOINTS else [{}]
                for accept in formats:
                    client = _client(world, actor, game)
                    with transaction.atomic():
                        before = database_fingerprint()
                        response = client.post(url, data, headers=accept)
                        changed = database_fingerprint() != before
                        transaction.set_rollback(True)
                    where = (state, actor, name, response.status_code)
                    if actor in allowed:
                        assert response.status_code in SUCCESS, where
                        outcomes["allowed"] += 1
                    else:
                        quiet = {200, 302, 303} if name in QUIET else set()
                        assert response.status_code in REFUSED | quiet, where
                        assert not changed, where
                        if accept and name in JSON_ENDPOINTS and response.status_code in REFUSED:
                            body = response.json()
                            assert body["status"] and body["message"], where
                        outcomes["refused"] += 1
                    outcomes[f"status {response.status_code}"] += 1
    print("finality sweep:", dict(sorted(outcomes.items())))
    assert outcomes["refused"] > 3 * outcomes["allowed"]
