"""Phones submitting at the same instant: one thread per submit, each on its own database
connection, all released together by a barrier."""

from __future__ import annotations

import threading
import uuid

from django.db import connection

from scorecards.models import Game
from scorecards.rules import HandInput
from scorecards.services import hand_record


def hand_race(
    game: Game, hand: HandInput, keys: list[uuid.UUID], number: int = 1
) -> tuple[list[object], set[int]]:
    """Submit `hand` once per key at the same moment. Returns each thread's answer
    (HandRecorded, or the exception it raised) and the ids of the connections used."""
    barrier = threading.Barrier(len(keys))
    results: list[object] = [None] * len(keys)
    connection_ids: set[int] = set()

    def submit(i: int) -> None:
        try:
            connection.ensure_connection()
            connection_ids.add(id(connection.connection))
            barrier.wait()
            results[i] = hand_record(game=game, hand=hand, idempotency_key=keys[i], number=number)
        except Exception as exc:  # the losing phone's answer is part of what tests assert
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, connection_ids
