"""Tournament tables know where they are in their round, take no hand beyond it, and a night
that ended is final: its games are closed and its table links stop writing."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from leagues.tournaments.models import RoundStatus
from leagues.tournaments.selectors import tournament_standings
from leagues.tournaments.services import (
    entry_register,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.models import FinishReason, Game, GameStatus, HandVersion
from scorecards.rules import HandInput
from scorecards.services import GameClosed, RoundOver, hand_correct, hand_record, hand_undo

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}
MADE = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=0)
OTHER = HandInput(bidder=1, bid=7, tricks=(1, 7), five_hearts=1, three_spades=1)


def _night(club, *, hands: int = 4, tie: bool = True):
    night = tournament_create(
        club=club,
        name="Friday",
        date=datetime.date(2026, 11, 20),
        rounds=2,
        hands_per_round=hands,
        extra_hand_on_tie=tie,
    )
    for i in range(8):
        entry_register(tournament=night, player=f"P{i}", checked_in=True)
    return night, round_draw(tournament=night)


def _phone(game) -> Client:
    client = Client()
    client.get(reverse("game_table_join", args=[game.table_token]))
    return client


def _data(**changes) -> dict[str, str]:
    data = {
        "idempotency_key": str(uuid.uuid4()),
        "bidder": "0",
        "bid": "7",
        "kind": "trump",
        "tricks_bidder": "7",
        "five_hearts": "0",
        "three_spades": "0",
    }
    return data | {key: str(value) for key, value in changes.items()}


def _sheet(client, game) -> str:
    return client.get(reverse("game_sheet", args=[game.pk])).content.decode()


def test_the_sheet_says_round_and_hand_and_refuses_a_hand_beyond_the_round(club):
    _, made = _night(club, hands=4)
    game = made.tables[0].game
    table = _phone(game)
    assert "Round 1 · hand 1 of 4" in _sheet(table, game)
    submit = reverse("hand_submit", args=[game.pk])
    for number in (1, 2):
        assert table.post(submit, _data(number=number), headers=JSON).status_code == 201
    assert "Round 1 · hand 3 of 4" in _sheet(table, game)
    for number in (3, 4):
        assert table.post(submit, _data(number=number), headers=JSON).status_code == 201
    page = _sheet(table, game)
    assert "Round 1 · round over" in page and 'id="hand-form"' not in page
    fifth = table.post(submit, _data(number=5), headers=JSON)
    assert fifth.status_code == 409
    assert fifth.json()["status"] == "round_over" and "Round over" in fifth.json()["message"]
    assert game.hands.count() == 4
    # The last hand of the round can still be taken back while the round is open.
    assert table.post(reverse("hand_undo", args=[game.pk]), headers=JSON).status_code == 200


def test_a_tie_after_the_last_hand_asks_for_the_tie_break_hand(club):
    _, made = _night(club, hands=2)
    game = made.tables[0].game
    hand_record(game=game, hand=MADE)
    hand_record(game=game, hand=OTHER)
    table = _phone(game)
    page = _sheet(table, game)
    assert "Round 1 · tie-break hand" in page and 'id="hand-form"' in page
    hand_record(game=game, hand=MADE)
    assert "round over" in _sheet(table, game)
    with pytest.raises(RoundOver):
        hand_record(game=game, hand=MADE)


def test_a_closed_round_is_final_and_its_games_are_closed(club, alice):
    night, made = _night(club, hands=4)
    playing, empty = made.tables[0].game, made.tables[1].game
    hand_record(game=playing, hand=MADE)
    round_close(round=made.round)
    playing.refresh_from_db()
    empty.refresh_from_db()
    assert playing.status == GameStatus.FINISHED and playing.finish_reason == FinishReason.ROUND
    assert playing.winner == 0
    assert empty.status == GameStatus.ABANDONED and empty.abandon_reason
    table = _phone(playing)
    refused = table.post(reverse("hand_submit", args=[playing.pk]), _data(), headers=JSON)
    assert refused.status_code == 409 and refused.json()["status"] == "closed"
    assert "round is over" in refused.json()["message"]
    assert table.post(reverse("hand_undo", args=[playing.pk]), headers=JSON).status_code == 409
    with pytest.raises(GameClosed):
        hand_undo(game=playing)
    # The director corrects, with a reason; the game stays finished by its round.
    hand_correct(game=playing, number=1, hand=OTHER, by=alice, reason="wrong bidder")
    playing.refresh_from_db()
    assert playing.status == GameStatus.FINISHED and playing.winner == 1
    assert HandVersion.objects.filter(game=playing, reason="wrong bidder").exists()
    assert night.round_set.get().status == RoundStatus.CLOSED


def test_an_ended_night_changes_no_more_and_its_games_are_not_in_progress(club, as_bob, bob):
    night, made = _night(club, hands=4)
    first, second = (table.game for table in made.tables)
    for _ in range(2):
        hand_record(game=first, hand=MADE)
    hand_record(game=second, hand=OTHER)
    table = _phone(first)
    before = tournament_standings(night).rows
    tournament_finish(tournament=night)
    assert set(Game.objects.values_list("status", flat=True)) == {GameStatus.FINISHED}
    submit = table.post(reverse("hand_submit", args=[first.pk]), _data(), headers=JSON)
    assert submit.status_code == 409 and "night is over" in submit.json()["message"]
    undo = table.post(reverse("hand_undo", args=[first.pk]), headers=JSON)
    assert undo.status_code == 409 and undo.json()["status"] == "closed"
    assert first.hands.count() == 2 and second.hands.count() == 1
    assert [r.key for r in tournament_standings(night).rows] == [r.key for r in before]
    assert "night is over" in _sheet(table, first)
    club_page = as_bob.get(reverse("club_detail", args=[club.slug])).content.decode()
    assert "In progress" not in club_page and "Finished" in club_page
    player = first.seats.get(seat=0).player
    player_page = as_bob.get(reverse("player_detail", args=[club.slug, player.pk]))
    assert "In progress" not in player_page.content.decode()
    assert re.search(r'class="outcome">(won|lost|drawn)<', player_page.content.decode())
    # The director's console undo is refused too, with the sentence.
    assert first.hands.count() == 2
