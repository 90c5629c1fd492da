"""The engine's errors reach players in their language; the command line stays English."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from scorecards.models import Game, Hand
from scorecards.rules import (
    HandError,
    HandInput,
    RecordError,
    RulesError,
    game_score,
    record_score,
    rules_build,
)
from scorecards.services import game_start, hand_record
from tests.rules.helpers import engine_messages

ROOT = Path(__file__).resolve().parents[1]

TOO_MANY_TRICKS = HandInput(bidder=0, bid=8, tricks=(6, 3), five_hearts=0, three_spades=1)
BAD_RECORD = {
    "format": "kaiser-game/1",
    "seats": ["Ann", "Cat", "Bob", "Dan"],
    "hands": [{"bidder": 0, "bid": 8, "tricks": [6, 3], "five_hearts": 0, "three_spades": 1}],
}


@pytest.fixture
def game(club, players, standard_rules, alice) -> Game:
    return game_start(seats=players, rules=standard_rules, club=club, created_by=alice)


@pytest.mark.django_db
def test_a_bad_hand_is_refused_in_french(game) -> None:
    with translation.override("fr"), pytest.raises(HandError) as caught:
        hand_record(game=game, hand=TOO_MANY_TRICKS)
    error = caught.value
    assert str(error).startswith("main 1\u00a0: ")
    assert str(error) == "main 1\u00a0: les levées doivent totaliser 8 (reçu 9)"
    assert (error.number, error.field, error.message) == (
        1,
        "tricks",
        "les levées doivent totaliser 8 (reçu 9)",
    )
    assert not Hand.objects.filter(game=game).exists()
    # Translated when raised: the error stays French once the request is over.
    assert translation.get_language() == "en"
    assert str(error).startswith("main 1\u00a0: ")


@pytest.mark.django_db
def test_the_same_hand_is_refused_in_english(game) -> None:
    with translation.override("en"), pytest.raises(HandError) as caught:
        hand_record(game=game, hand=TOO_MANY_TRICKS)
    assert str(caught.value) == "hand 1: tricks must add up to 8 (got 9)"


def test_words_inside_a_message_are_french() -> None:
    rules = rules_build({"preset": "standard"})
    hand = HandInput(bidder=0, bid=8, tricks=(8, 0), five_hearts=1, three_spades=0)
    with translation.override("fr"), pytest.raises(HandError) as caught:
        game_score(rules, [hand])
    assert str(caught.value) == (
        "main 1\u00a0: five_hearts\u00a0: le cinq de cœur est allé à l’équipe 1, qui n’a fait "
        "aucune levée"
    )


def test_rules_and_record_errors_keep_their_field_in_french() -> None:
    with translation.override("fr"):
        with pytest.raises(RulesError) as rules:
            rules_build({"seats": 9})
        with pytest.raises(RecordError) as record:
            record_score({"seats": ["Ann"], "hands": []})
    assert str(rules.value) == "rules\u00a0: seats doit être de 2 à 6 (reçu 9)"
    assert str(record.value) == "seats\u00a0: 4 noms attendus (reçu 1)"
    assert (rules.value.field, record.value.field) == ("rules", "seats")


# Names a French table says as they are.
SAME_IN_FRENCH = {"Kaiser 40", "Solo", "Standard", "Pagat", "Yarotsky", "Saskatchewan"}
SAME_IN_FRENCH |= {"Les Rois", "Hétu", "Joffre", "Lost Heir", "kaisergame.com", "dcm454"}


def test_the_compiled_catalogue_has_every_engine_message() -> None:
    messages = engine_messages()
    with translation.override("fr"):
        untranslated = [m for m in messages if translation.gettext(m) == m]
    assert messages and sorted(untranslated) == sorted(SAME_IN_FRENCH)


def test_kaiser_score_stays_english(tmp_path: Path) -> None:
    """Django 5 no longer deactivates translations in management commands (only those marked
    @no_translations do): the command is English because nothing activates another language
    and LANGUAGE_CODE is "en"."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(BAD_RECORD))
    with pytest.raises(CommandError) as caught:
        call_command("kaiser_score", str(path), stdout=io.StringIO())
    assert str(caught.value) == "hand 1: tricks must add up to 8 (got 9)"
    run = subprocess.run(
        [sys.executable, "manage.py", "kaiser_score", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.strip() == "CommandError: hand 1: tricks must add up to 8 (got 9)"


def test_players_are_named_in_french() -> None:
    rules = rules_build({"preset": "standard"})
    hand = HandInput(bidder=0, bid=8, tricks=(8, 0), five_hearts=1, three_spades=0)
    with translation.override("fr"), pytest.raises(HandError) as caught:
        game_score(rules, [hand], seat_names=["Ann", "Cat", "Bob", "Dan"])
    assert str(caught.value) == (
        "main 1\u00a0: five_hearts\u00a0: le cinq de cœur est allé à Cat & Dan, qui n’a fait "
        "aucune levée"
    )
