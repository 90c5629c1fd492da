"""The load-night client (bench/load_night.py): its plan, its set-up through the services, its
verdict, and whole runs against a live server, with and without a hand endpoint."""

from __future__ import annotations

import uuid

import pytest

from bench.load_night import (
    CONFLICT,
    CREATED,
    DUPLICATE,
    NightRun,
    Outcome,
    night_plan,
    night_report,
    night_run,
    night_setup,
    night_verify,
    stored_hands,
)
from leagues.clubs.models import Player
from scorecards.access import game_for_table_token
from scorecards.models import Game, Hand
from scorecards.rules import HandInput, game_score, rules_build

CONTRACT_FIELDS = {
    "idempotency_key", "number", "bidder", "bid", "kind",
    "tricks_0", "tricks_1", "five_hearts", "three_spades",
}  # fmt: skip


def test_plan_is_deterministic_and_every_hand_is_valid() -> None:
    plans = night_plan(40, 12, seed=3)
    assert plans == night_plan(40, 12, seed=3)
    assert plans != night_plan(40, 12, seed=4)
    assert len(plans) == 40
    rules = rules_build({"preset": "standard"})
    keys = set()
    for plan in plans:
        assert 1 <= len(plan.hands) <= 12
        inputs = []
        for expected_number, planned in enumerate(plan.hands, 1):
            fields = planned.fields
            assert set(fields) == CONTRACT_FIELDS
            assert planned.number == int(fields["number"]) == expected_number
            assert all(isinstance(v, str) for v in fields.values())
            keys.add(uuid.UUID(fields["idempotency_key"]))
            inputs.append(
                HandInput(
                    bidder=int(fields["bidder"]),
                    bid=int(fields["bid"]),
                    kind=fields["kind"],
                    tricks=(int(fields["tricks_0"]), int(fields["tricks_1"])),
                    five_hearts=int(fields["five_hearts"]),
                    three_spades=int(fields["three_spades"]),
                )
            )
        # The engine accepts the whole table's sequence; a game that ended stops the plan.
        score = game_score(rules, inputs, plan.table % 4)
        assert len(plan.hands) == 12 or score.finished
    assert len(keys) == sum(len(p.hands) for p in plans)


@pytest.mark.django_db
def test_setup_gives_each_table_a_game_and_a_table_link() -> None:
    plans = night_plan(40, 2)
    club, tables = night_setup(plans, tag="t")
    assert club.slug == "night-t"
    assert Game.objects.filter(club=club).count() == 40
    assert Player.objects.filter(club=club).count() == 160
    assert len({t.token for t in tables}) == 40
    for setup in tables:
        assert game_for_table_token(setup.token).pk == setup.game_id
    assert stored_hands([t.game_id for t in tables]) == {t.game_id: [] for t in tables}


def _outcome(number: int, key: str, status: int, kind: str = "enter", game: int = 1) -> Outcome:
    return Outcome(0, game, number, key, status, 0.01 * number, kind)


def test_verdict_counts_lost_extra_and_contract_breaks() -> None:
    run = NightRun(
        outcomes=[
            _outcome(1, "k1", CREATED),
            _outcome(1, "k1", DUPLICATE, "resend"),
            _outcome(1, "r1", CONFLICT, "conflict"),
            _outcome(2, "k2", CREATED),
            _outcome(3, "k3", CREATED),
            _outcome(4, "k4", 500),
            _outcome(4, "r4", CREATED, "conflict"),
            _outcome(5, "k5", 0),
        ]
    )
    stored = {1: [(1, "k1"), (2, "k2"), (2, "zz"), (6, "k6")]}
    verdict = night_verify(run, stored)
    assert verdict.statuses == {0: 1, 200: 1, 201: 4, 409: 1, 500: 1}
    assert verdict.server_errors == 1 and verdict.unanswered == 1
    assert verdict.lost == ["game 1 hand 3: acknowledged, not stored"]
    assert "game 1 hand 2: 2 rows" in verdict.extra
    assert "game 1 hand 6: stored but never acknowledged" in verdict.extra
    assert verdict.unexpected == [
        "game 1 hand 4 (conflict): a second key for a taken number was stored"
    ]
    assert not verdict.passed
    report = night_report(verdict, run, tables=1, phones=4)
    assert "lost 1" in report and report.endswith("FAIL")


def test_a_clean_night_passes() -> None:
    run = NightRun(outcomes=[_outcome(1, "a", CREATED), _outcome(1, "a", DUPLICATE, "resend")])
    verdict = night_verify(run, {1: [(1, "a")]})
    assert verdict.passed
    assert night_report(verdict, run, tables=1, phones=4).endswith("PASS")


@pytest.mark.django_db(transaction=True)
def test_a_whole_night_against_the_real_endpoint(live_server) -> None:
    """Six tables through the real table sheet (`hand_submit`): resends answered 200, rival
    phones 409, the burst together, and every row counted."""
    plans = night_plan(6, 4)
    _, tables = night_setup(plans)
    run = night_run(
        live_server.url,
        plans,
        tables,
        speedup=900,
        resend_share=0.5,
        conflict_share=0.5,
        time_limit=60,
    )
    verdict = night_verify(run, stored_hands([t.game_id for t in tables]))
    report = night_report(verdict, run, tables=6, phones=4)
    assert not run.join_failures
    assert verdict.passed, report
    assert {CREATED, DUPLICATE, CONFLICT} <= set(verdict.statuses)
    assert verdict.acknowledged == verdict.stored == sum(len(p.hands) for p in plans)
    assert sum(o.burst for o in run.outcomes) == 6
    assert Hand.objects.count() == verdict.stored
