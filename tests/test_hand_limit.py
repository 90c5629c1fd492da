"""A game holds at most MAX_HANDS hands, wherever a hand comes in: the importer (its page and
`game_import`), `kaiser_score`, a backup, and the table's hand entry. One hand more is refused
naming the field and the limit (never a 500), and nothing is written."""

from __future__ import annotations

import copy
import json
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from bench.huge_game_bench import huge_record
from leagues.backup import BackupError, club_export, club_import
from leagues.clubs.models import Club
from scorecards.importing import game_import
from scorecards.models import Game, Hand
from scorecards.rules import MAX_HANDS, RecordError, record_score

pytestmark = pytest.mark.django_db

REFUSAL = f"hands: a game holds at most {MAX_HANDS} hands (this record has {MAX_HANDS + 1})"


def test_the_bound_is_the_documented_one() -> None:
    assert MAX_HANDS == 500
    with open("docs/game-record.md", encoding="utf-8") as handle:
        assert f"A game holds at most {MAX_HANDS} hands" in handle.read()


def test_the_largest_game_imports_and_one_hand_more_is_refused(club, alice) -> None:
    game = game_import(club=club, record=huge_record(MAX_HANDS), created_by=alice)
    assert game.hand_count == MAX_HANDS and game.status == "in_progress"
    with pytest.raises(RecordError) as refused:
        game_import(club=club, record=huge_record(MAX_HANDS + 1), created_by=alice)
    assert refused.value.field == "hands" and str(refused.value) == REFUSAL
    assert Game.objects.count() == 1


def test_the_engine_refuses_hand_after_the_limit_when_scoring_a_record() -> None:
    assert len(record_score(huge_record(MAX_HANDS))["hands"]) == MAX_HANDS
    with pytest.raises(RecordError, match="at most 500 hands"):
        record_score(huge_record(MAX_HANDS + 1))


@pytest.mark.parametrize("command", ["game_import", "kaiser_score"])
def test_commands_refuse_one_hand_more(tmp_path, club, command) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(huge_record(MAX_HANDS + 1)))
    args = [str(path), "--club", club.slug] if command == "game_import" else [str(path)]
    with pytest.raises(CommandError) as refused:
        call_command(command, *args)
    assert REFUSAL in str(refused.value)
    assert not Game.objects.exists()


def test_the_import_page_refuses_one_hand_more(club, as_alice) -> None:
    upload = SimpleUploadedFile(
        "long.json", json.dumps(huge_record(MAX_HANDS + 1)).encode(), "application/json"
    )
    answer = as_alice.post(reverse("club_game_import", args=[club.slug]), {"file": upload})
    assert answer.status_code == 422
    assert f"a game holds at most {MAX_HANDS} hands" in answer.content.decode()
    assert not Game.objects.exists()


def test_a_backup_with_a_game_over_the_limit_is_refused_naming_it(club, alice) -> None:
    game_import(club=club, record=huge_record(3), created_by=alice)
    document = club_export(club)
    Game.objects.all().delete()
    Club.objects.all().delete()
    get_user_model().objects.exclude(username__in=["alice", "bob"]).delete()
    tampered = copy.deepcopy(document)
    tampered["games"][0]["record"]["hands"] = huge_record(MAX_HANDS + 1)["hands"]
    tampered["games"][0]["hands"] = []
    tampered.pop("hand_versions", None)
    with pytest.raises(BackupError) as refused:
        club_import(data=tampered)
    assert str(refused.value).startswith("games[0].record: ")
    assert REFUSAL in str(refused.value)
    assert not Club.objects.exists()


def test_the_table_refuses_hand_after_the_limit_naming_the_field(club, alice, as_alice) -> None:
    game = game_import(club=club, record=huge_record(MAX_HANDS), created_by=alice)
    answer = as_alice.post(
        reverse("hand_submit", args=[game.pk]),
        {"idempotency_key": str(uuid.uuid4()), "thrown_in": "1"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 422, answer.content
    body = answer.json()
    assert any(f"at most {MAX_HANDS} hands" in m for m in body["errors"]["number"]), body
    assert Hand.objects.filter(game=game).count() == MAX_HANDS


def test_the_largest_games_sheet_answers(club, alice, as_alice) -> None:
    game = game_import(club=club, record=huge_record(MAX_HANDS), created_by=alice)
    answer = as_alice.get(reverse("game_sheet", args=[game.pk]))
    assert answer.status_code == 200
