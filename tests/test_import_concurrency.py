"""A long game import next to the table: phones of another club keep entering hands while it
runs, and imports racing to create the same new players all end in a game or a refusal."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from bench.import_bench import long_record
from leagues.clubs.models import Club, Player
from scorecards.importing import game_import
from scorecards.models import Game, Hand
from scorecards.rules import MAX_HANDS, HandInput, KaiserError
from scorecards.services import game_start, hand_record

pytestmark = pytest.mark.django_db(transaction=True)


def test_phones_of_another_club_enter_hands_during_a_long_import(standard_rules) -> None:
    importing = Club.objects.create(name="Big import", slug="big-import")
    other = Club.objects.create(name="Tuesday", slug="tuesday")
    seats = [Player.objects.create(club=other, name=f"P{i}") for i in range(4)]
    table = game_start(seats=seats, rules=standard_rules, club=other)
    # The longest game a record may hold (scorecards.rules.MAX_HANDS).
    record = long_record(MAX_HANDS)
    done = threading.Event()
    answers: list[tuple[float, float, object]] = []

    def phone() -> None:
        try:
            while not done.is_set():
                sent = time.perf_counter()
                try:
                    answer: object = hand_record(game=table, hand=HandInput(thrown_in=True))
                except Exception as exc:  # what the phone would have seen
                    answer = exc
                answers.append((sent, time.perf_counter(), answer))
                time.sleep(0.01)
        finally:
            connection.close()

    thread = threading.Thread(target=phone)
    thread.start()
    time.sleep(0.05)
    started = time.perf_counter()
    game = game_import(club=importing, record=record)
    finished = time.perf_counter()
    time.sleep(0.05)
    done.set()
    thread.join(timeout=60)

    assert game.hand_count == MAX_HANDS
    assert Hand.objects.filter(game=game).count() == MAX_HANDS
    errors = [answer for _, _, answer in answers if isinstance(answer, Exception)]
    assert errors == []
    during = [(sent, back) for sent, back, _ in answers if sent < finished and back > started]
    # The phone's hands went in while the import ran (the import is not one long lock) ...
    assert any(back < finished for _, back in during), (started, finished, answers[:3])
    # ... and no phone waited anywhere near the database's busy timeout.
    assert max(back - sent for sent, back, _ in answers) < 5
    assert Hand.objects.filter(game=table).count() == len(answers)


def test_ten_imports_racing_to_create_the_same_new_players_never_fail_badly() -> None:
    club = Club.objects.create(name="Race", slug="race")
    record = long_record(8)
    barrier = threading.Barrier(10)
    results: list[object] = [None] * 10

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = game_import(club=club, record=record)
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    games = [r for r in results if isinstance(r, Game)]
    refusals = [r for r in results if isinstance(r, KaiserError)]
    assert len(games) + len(refusals) == 10, results
    assert all("seats" in str(r) for r in refusals)
    assert games
    assert Player.objects.filter(club=club).count() == 4
    assert Game.objects.filter(club=club).count() == len(games)
    assert all(g.hand_count == 8 for g in games)
