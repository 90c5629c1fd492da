"""The app's own export writes a special card nobody took as null, never leaves it out, so the
record it writes is one the format (and the app's import) accepts."""

from __future__ import annotations

import pytest

from scorecards.importing import game_import
from scorecards.models import Hand
from scorecards.rules import NOBODY, HandError, HandInput, record_score, rules_build
from scorecards.selectors import game_record
from scorecards.services import game_start, hand_record

K40 = HandInput(bidder=0, kind="kaiser40", seat_tricks=(8, 0, 0, 0), three_spades=0)


@pytest.fixture
def k40_game(club, players, alice):
    rules = rules_build({"preset": "standard", "kaiser_40": True})
    return game_start(seats=players, rules=rules, club=club, created_by=alice)


@pytest.mark.django_db
def test_a_kaiser_40_card_left_in_the_partners_hand_is_exported_as_null(k40_game, club) -> None:
    hand_record(game=k40_game, hand=HandInput(**{**K40.__dict__, "five_hearts": NOBODY}))
    record = game_record(k40_game)
    assert record["hands"][0]["five_hearts"] is None
    assert "five_hearts" in record["hands"][0]
    assert record_score(record)["scores"] == [40, 0]
    again = game_import(club=club, record=record)
    assert game_record(again)["hands"] == record["hands"]


@pytest.mark.django_db
def test_neither_card_tapped_is_asked_for(k40_game) -> None:
    with pytest.raises(HandError) as caught:
        hand_record(game=k40_game, hand=HandInput(**{**K40.__dict__, "three_spades": None}))
    assert caught.value.field == "five_hearts"
    assert not Hand.objects.filter(game=k40_game).exists()


@pytest.mark.django_db
def test_a_hand_stored_before_writes_null_too(k40_game) -> None:
    hand_record(game=k40_game, hand=HandInput(**{**K40.__dict__, "five_hearts": NOBODY}))
    stored = Hand.objects.get(game=k40_game)
    stored.record = {key: value for key, value in stored.record.items() if key != "five_hearts"}
    stored.save()  # as the export of old wrote it
    assert game_record(k40_game)["hands"][0]["five_hearts"] is None
    assert stored.as_input().five_hearts is NOBODY


@pytest.mark.parametrize(
    ("posted", "five"),
    [({"five_hearts": "nobody"}, NOBODY), ({"five_hearts": "1"}, 1), ({}, None)],
    ids=["nobody", "a side", "not tapped"],
)
def test_the_hand_form_tells_nobody_from_not_tapped(posted: dict, five) -> None:
    from scorecards.handform import hand_form_parse

    rules = rules_build({"preset": "standard", "kaiser_40": True})
    data = {"bidder": "0", "kind": "kaiser40", "seat_tricks_0": "8", "three_spades": "0"}
    form = hand_form_parse(data | posted, rules, key_required=False)
    assert form.hand is not None and form.hand.five_hearts == five


@pytest.mark.django_db
def test_hand_habits_come_back_from_an_import(club) -> None:
    played = {"bidder": 0, "bid": 8, "tricks": [6, 2], "five_hearts": 0, "three_spades": 1}
    record = {
        "format": "kaiser-game/1",
        "rules": {"preset": "saskatchewan"},
        "seats": ["Ann", "Cat", "Bob", "Dan"],
        "first_dealer": 0,
        "hands": [
            {"thrown_in": True, "misdeal": "no-face"},
            {**played, "passing": "3-2-1", "kitty": "bidder", "announced": "high"},
        ],
    }
    game = game_import(club=club, record=record)
    assert game_record(game)["hands"] == record["hands"]
