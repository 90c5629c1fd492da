"""Two phones at one table submitting the same hand at the same moment, over HTTP through
gunicorn (several processes), many times: exactly one row each time. With the same idempotency
key (a resend) one gets 201 and the other 200; with keys of their own one gets 201 and the other
409 naming who entered it. Runs on SQLite and on PostgreSQL (whichever the suite runs on)."""

from __future__ import annotations

import json
import threading
import uuid

import pytest

from bench.harness import HttpSession
from bench.load_night import night_plan, night_setup
from scorecards.models import Hand, HandVersion

ROUNDS_GAMES = 6  # games; each plays up to 6 hands, one race per hand


def _join(base: str, token: str, game_id: int) -> HttpSession:
    phone = HttpSession(base)
    assert phone.get(f"/t/{token}/")[0] in (302, 303)
    assert phone.get(f"/games/{game_id}/")[0] == 200
    return phone


def _race(phones: list[HttpSession], game_id: int, forms: list[dict[str, str]]) -> list:
    barrier = threading.Barrier(len(phones))
    answers: list = [None] * len(phones)

    def send(i: int) -> None:
        barrier.wait()
        status, _, body = phones[i].post_form(
            f"/games/{game_id}/hands/", forms[i], {"Accept": "application/json"}
        )
        answers[i] = (status, json.loads(body))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_phones_same_hand_same_moment_gives_one_row_every_time(web_server) -> None:
    plans = night_plan(ROUNDS_GAMES, 6, seed=11)
    _, tables = night_setup(plans)
    races = 0
    for plan, setup in zip(plans, tables, strict=True):
        phones = [_join(web_server.base_url, setup.token, setup.game_id) for _ in range(2)]
        for planned in plan.hands:
            same_key = planned.number % 2 == 1
            rival = dict(planned.fields, idempotency_key=str(uuid.uuid4()))
            forms = [planned.fields, planned.fields if same_key else rival]
            answers = _race(phones, setup.game_id, forms)
            statuses = sorted(status for status, _ in answers)
            where = f"game {setup.game_id} hand {planned.number}: {answers}"
            assert statuses == ([200, 201] if same_key else [201, 409]), where
            if not same_key:
                conflict = next(body for status, body in answers if status == 409)
                assert conflict["hand"]["number"] == planned.number
                assert f"hand {planned.number} was already entered" in conflict["error"]
            rows = Hand.objects.filter(game_id=setup.game_id, number=planned.number)
            assert rows.count() == 1, where
            assert (
                HandVersion.objects.filter(game_id=setup.game_id, number=planned.number).count()
                == 1
            ), where
            races += 1
        for phone in phones:
            phone.close()
    assert races >= 20
    assert Hand.objects.count() == races
