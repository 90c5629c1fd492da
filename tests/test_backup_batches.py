"""A restore is written in short transactions: another club's phone keeps saving hands while a
big backup is restored (on SQLite, whose one write lock a single long transaction would hold),
and a file over the size limit is refused at once, unread."""

from __future__ import annotations

import copy
import json
import threading
import time
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from leagues.backup import club_export, club_import
from leagues.backup.limits import MAX_BYTES
from leagues.clubs.models import Club
from scorecards.models import Game
from scorecards.rules import HandInput, rules_build
from scorecards.services import GameClosed, game_start, hand_record
from tests.backup_club import full_club_build


def _big_document(copies: int) -> dict:
    """The full club's backup with its ordinary games copied `copies` times (their versions
    too), under another short name."""
    document = club_export(full_club_build())
    document["club"]["slug"] = "restored"
    tables = {table["game"] for table in document["tournament_tables"]}
    plain = [i for i in range(len(document["games"])) if i not in tables]
    versions = list(document["hand_versions"])
    for _ in range(copies):
        for i in plain:
            game = copy.deepcopy(document["games"][i])
            for hand in game["hands"]:
                hand["idempotency_key"] = str(uuid.uuid4())
            position = len(document["games"])
            document["games"].append(game)
            document["hand_versions"].extend(
                {**version, "game": position} for version in versions if version["game"] == i
            )
    return document


def _phone_game(club: Club) -> Game:
    return game_start(seats=["Ann", "Bob", "Cat", "Dan"], rules=rules_build({}), club=club)


@pytest.mark.django_db(transaction=True)
def test_another_clubs_phone_saves_hands_while_a_big_backup_is_restored(monkeypatch) -> None:
    # The standings and ratings rebuilds the restore queues at its end run on a Celery worker,
    # as tasks of their own (eager in tests): what is measured here is the restore's writes.
    import leagues.standings.services as standings_services

    monkeypatch.setattr(standings_services, "derived_data_send", lambda **kwargs: True)
    document = json.loads(json.dumps(_big_document(copies=300)))
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    game = _phone_game(other)
    hand = HandInput(bidder=0, bid=7, tricks=(7, 1), five_hearts=0, three_spades=1)
    done = threading.Event()
    failures: list[BaseException] = []

    def restore() -> None:
        try:
            club_import(data=document)
        except BaseException as exc:  # reported by the test below
            failures.append(exc)
        finally:
            done.set()
            connection.close()

    worker = threading.Thread(target=restore)
    started = time.monotonic()
    worker.start()
    waits = []
    while not done.is_set():
        before = time.monotonic()
        try:
            hand_record(game=game, hand=hand, entered_by_name="phone")
        except GameClosed:
            game = _phone_game(other)
        waits.append(time.monotonic() - before)
        time.sleep(0.02)
    worker.join()
    took = time.monotonic() - started

    assert failures == []
    assert Game.objects.filter(club__slug="restored").count() == len(document["games"])
    print(f"restore {took:.1f} s; {len(waits)} saves meanwhile, longest {max(waits):.2f} s")
    assert took > 2  # long enough to matter
    assert len(waits) > 10
    assert max(waits) < 1.0


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_refused_at_once(tmp_path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.write(b'{"format": "kaiser-club/1", "pad": "')
        handle.write(b"x" * (MAX_BYTES + 10))
        handle.write(b'"}')
    started = time.monotonic()
    with pytest.raises(CommandError, match="nothing imported: the file is larger than"):
        call_command("club_import", str(path))
    assert time.monotonic() - started < 5
    assert not Club.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_restore_in_many_transactions_queues_one_rebuild_at_its_end(monkeypatch) -> None:
    import leagues.backup.batches as batches
    import leagues.standings.services as standings_services

    monkeypatch.setattr(batches, "BATCH_SECONDS", 0)  # every step its own transaction
    monkeypatch.setattr(batches, "SQLITE_PAUSE_SECONDS", 0)
    sent: list[dict] = []
    real = standings_services.derived_data_send

    def counted(**kwargs):
        sent.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(standings_services, "derived_data_send", counted)
    document = json.loads(json.dumps(_big_document(copies=2)))
    sent.clear()

    club = club_import(data=document)

    assert len(sent) == 1
    assert sent[0]["club_ids"] == [club.pk]
    # Every restored season, with the games it received (updated by them, or rebuilt whole
    # when the season has no standings yet, as here).
    assert sorted(sent[0]["season_games"]) == sorted(club.seasons.values_list("pk", flat=True))
    assert club.seasons.get().standings.computed_at is not None
