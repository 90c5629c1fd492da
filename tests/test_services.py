"""Services own every write of games and hands: one transaction, validated by the engine."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction

from scorecards.importing import game_import
from scorecards.models import Game, GameStatus, Hand, HandVersion, Seat
from scorecards.rules import HandError, HandInput, RecordError, rules_build
from scorecards.selectors import game_record
from scorecards.services import (
    GameClosed,
    HandConflict,
    game_rescore,
    game_start,
    hand_correct,
    hand_record,
    hand_undo,
)
from tests.examples import valid_examples

pytestmark = pytest.mark.django_db


def trump(bidder: int, bid: int, taken: int, heart: int = 0, spade: int = 0) -> HandInput:
    side = bidder % 2
    tricks = [0, 0]
    tricks[side], tricks[1 - side] = taken, 8 - taken
    return HandInput(
        bidder=bidder, bid=bid, tricks=tuple(tricks), five_hearts=heart, three_spades=spade
    )


@pytest.fixture
def game(club, players, standard_rules, alice) -> Game:
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


def test_game_start_seats_players_and_freezes_rules(game, players) -> None:
    assert [s.player for s in game.seats.order_by("seat")] == players
    assert game.rules == rules_build({"preset": "standard"}).as_dict()
    assert (game.scores, game.target, game.next_dealer) == ([0, 0], 52, 0)


@pytest.mark.parametrize(
    ("seat_count", "first_dealer", "field"),
    [(3, 0, "seats"), (4, 4, "first_dealer")],
)
def test_game_start_refuses_a_bad_table(
    club, players, standard_rules, seat_count, first_dealer, field
) -> None:
    seats = (players * 2)[:seat_count]
    with pytest.raises(RecordError) as err:
        game_start(seats=seats, rules=standard_rules, club=club, first_dealer=first_dealer)
    assert err.value.field == field
    assert Game.objects.count() == 0


def test_game_start_refuses_the_same_player_twice(club, players, standard_rules) -> None:
    with pytest.raises(RecordError, match="seats"):
        game_start(
            seats=[players[0], players[1], players[0], players[3]], rules=standard_rules, club=club
        )
    assert Game.objects.count() == 0


def test_quick_game_takes_names(standard_rules, alice) -> None:
    game = game_start(seats=["Mom", "Dad", "Zoé", "Léo"], rules=standard_rules, created_by=alice)
    assert [s.name for s in game.seats.all()] == ["Mom", "Dad", "Zoé", "Léo"]
    assert game.club is None


def test_hand_record_scores_and_caches_totals(game) -> None:
    recorded = hand_record(game=game, hand=trump(0, 8, 6, heart=0, spade=1))
    game.refresh_from_db()
    assert recorded.created
    assert game.scores == [11, -1]
    assert game.next_dealer == 1
    assert recorded.hand.number == 1 and recorded.hand.dealer == 0
    assert HandVersion.objects.filter(game=game, action="enter").count() == 1


def test_same_idempotency_key_twice_stores_one_hand(game) -> None:
    key = uuid.uuid4()
    first = hand_record(game=game, hand=trump(0, 8, 6), idempotency_key=key)
    again = hand_record(game=game, hand=trump(0, 8, 6), idempotency_key=key)
    assert again.created is False
    assert again.hand.pk == first.hand.pk
    assert game.hands.count() == 1


def test_second_phone_with_same_number_gets_a_conflict(game) -> None:
    hand_record(game=game, hand=trump(0, 8, 6), number=1, entered_by_name="Ann")
    with pytest.raises(HandConflict) as err:
        hand_record(game=game, hand=trump(1, 9, 6), number=1, entered_by_name="Dan")
    assert "hand 1 was already entered by Ann" in str(err.value)
    assert err.value.existing.bid == 8
    assert game.hands.count() == 1


def test_refused_hand_changes_nothing(game) -> None:
    hand_record(game=game, hand=trump(0, 8, 6))
    game.refresh_from_db()
    before = (game.scores, game.hand_count, game.next_dealer)
    bad = HandInput(bidder=1, bid=9, tricks=(5, 4), five_hearts=0, three_spades=1)
    with pytest.raises(HandError) as err:
        hand_record(game=game, hand=bad)
    assert err.value.number == 2 and err.value.field == "tricks"
    game.refresh_from_db()
    assert (game.scores, game.hand_count, game.next_dealer) == before
    assert game.hands.count() == 1
    assert HandVersion.objects.count() == 1


def test_thrown_in_hand_keeps_the_dealer(game) -> None:
    hand_record(game=game, hand=HandInput(thrown_in=True))
    game.refresh_from_db()
    assert game.next_dealer == 0
    assert game.scores == [0, 0]


def test_correction_rescores_and_keeps_a_version(game, alice) -> None:
    hand_record(game=game, hand=trump(0, 8, 6))
    hand_record(game=game, hand=trump(1, 7, 7, heart=1, spade=0))
    hand_correct(game=game, number=1, hand=trump(0, 8, 4), by=alice)
    game.refresh_from_db()
    # Hand 1 is now set (4 tricks +5 -3 = 6 < 8): -8 and +4; hand 2: side 1 makes 7 + 5 = 12,
    # side 0 takes 1 trick and the three of spades: -2.
    assert game.scores == [-8 - 2, 4 + 12]
    version = HandVersion.objects.get(game=game, action="correct")
    assert version.before["tricks"] == [6, 2]
    assert version.after["tricks"] == [4, 4]
    assert version.by == alice


def test_correction_that_breaks_a_later_hand_is_refused(game) -> None:
    twelve_no = HandInput(bidder=0, bid=12, kind="no", tricks=(7, 1), five_hearts=0, three_spades=1)
    hand_record(game=game, hand=twelve_no)  # +24, target now 62
    hand_record(game=game, hand=twelve_no)  # 48
    hand_record(game=game, hand=trump(2, 7, 4))  # set: 41
    hand_record(game=game, hand=trump(3, 7, 7, heart=1, spade=0))
    game.refresh_from_db()
    before = game.scores
    # Making hand 3 a third 12 no would end the game there (72 >= 62): hand 4 becomes impossible.
    with pytest.raises(HandError) as err:
        hand_correct(game=game, number=3, hand=twelve_no)
    assert err.value.number == 4
    assert "over" in str(err.value)
    game.refresh_from_db()
    assert game.scores == before
    assert game.hands.get(number=3).bid == 7
    assert not HandVersion.objects.filter(action="correct").exists()


def test_undo_removes_the_last_hand_and_keeps_its_trace(game) -> None:
    hand_record(game=game, hand=trump(0, 8, 6))
    hand_record(game=game, hand=trump(1, 9, 7))
    hand_undo(game=game)
    game.refresh_from_db()
    assert game.hand_count == 1
    assert game.scores == [8, 2]
    assert HandVersion.objects.get(action="undo").before["bid"] == 9


def test_nothing_is_accepted_after_the_game_ends(game) -> None:
    while not game.is_finished:
        hand_record(game=game, hand=trump(0, 10, 8, heart=0, spade=0))
        game.refresh_from_db()
    assert game.winner == 0 and game.finish_reason == "target"
    assert game.finished_at is not None
    with pytest.raises(GameClosed, match=r"This game is over: ask a scorer to correct it\."):
        hand_record(game=game, hand=trump(1, 7, 7))
    with pytest.raises(GameClosed):
        hand_undo(game=game)  # no back door around the correction power
    assert game.hands.count() == Game.objects.get(pk=game.pk).hand_count


def test_rescore_rebuilds_the_cached_totals(game) -> None:
    hand_record(game=game, hand=trump(0, 8, 6))
    Game.objects.filter(pk=game.pk).update(scores=[99, 99], hand_count=40)
    game_rescore(game=game)
    game.refresh_from_db()
    assert game.scores == [8, 2] and game.hand_count == 1


@pytest.mark.parametrize(
    ("name", "case"), valid_examples(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_import_then_export_gives_the_same_record(club, name, case) -> None:
    record = case["record"]
    game = game_import(club=club, record=record)
    exported = game_record(game)
    assert exported["seats"] == record["seats"]
    assert exported["first_dealer"] == record.get("first_dealer", 0)
    assert rules_build(exported["rules"]) == rules_build(record.get("rules"))
    # Hands come back exactly as they were written (normalised: only the spec's fields).
    assert exported["hands"] == [
        HandInput.from_dict(h, n).to_dict() for n, h in enumerate(record["hands"], 1)
    ]
    game.refresh_from_db()
    assert game.scores == case["expect"]["scores"]
    assert game.is_finished == case["expect"]["finished"]
    # And a second round trip is a fixed point.
    again = game_import(club=club, record=exported)
    assert game_record(again) | {"hands": None} == exported | {"hands": None}


def test_import_matches_players_by_name_ignoring_case(club, players) -> None:
    record = {"seats": ["ann", "CAT", "Bob", "Zed"], "hands": []}
    game = game_import(club=club, record=record)
    seated = [s.player for s in game.seats.order_by("seat")]
    assert seated[:3] == players[:3]
    assert seated[3].name == "Zed" and seated[3].club == club


def test_refused_import_leaves_nothing_behind(club) -> None:
    record = {
        "seats": ["Ann", "Cat", "Bob", "New Person"],
        "hands": [
            {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
            {"bidder": 1, "bid": 15, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1},
        ],
    }
    with pytest.raises(HandError, match="hand 2"):
        game_import(club=club, record=record)
    assert Game.objects.count() == 0
    assert not club.players.filter(name="New Person").exists()


class TestDatabaseConstraints:
    """The database refuses what the services would never write."""

    def test_hand_number_unique_per_game(self, game) -> None:
        hand_record(game=game, hand=trump(0, 8, 6))
        stored = game.hands.get()
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.create(
                game=game,
                number=1,
                record={},
                dealer=0,
                thrown_in=True,
                idempotency_key=uuid.uuid4(),
            )
        assert stored.number == 1

    def test_idempotency_key_unique(self, game) -> None:
        stored = hand_record(game=game, hand=trump(0, 8, 6)).hand
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.create(
                game=game,
                number=2,
                record={},
                dealer=1,
                thrown_in=True,
                idempotency_key=stored.idempotency_key,
            )

    def test_seat_unique_per_game(self, game) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.create(game=game, seat=0, name="Extra")

    def test_player_once_per_game(self, game, players) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Seat.objects.create(game=game, seat=5, name="Ann again", player=players[0])

    def test_kind_must_be_a_bid_kind(self, game) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Hand.objects.create(
                game=game,
                number=1,
                record={},
                dealer=0,
                bidder=0,
                bid=8,
                kind="grand",
                idempotency_key=uuid.uuid4(),
            )

    def test_status_must_be_known(self, game) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(status="paused")
        assert Game.objects.get(pk=game.pk).status == GameStatus.IN_PROGRESS
