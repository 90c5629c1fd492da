"""The plan of a club night for the load test and the submit benchmark: which hands each table
enters (pure, no Django models), the tables set up through the services, a phone joining its
table, and the rows stored. The hand endpoint's answers are named here too."""

from __future__ import annotations

import random
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import HttpSession

CREATED, DUPLICATE, CONFLICT, INVALID = 201, 200, 409, 422
MISSING = {404, 405}


@dataclass(frozen=True)
class PlannedHand:
    number: int
    fields: dict[str, str]  # the form fields, idempotency_key included


@dataclass(frozen=True)
class TablePlan:
    table: int
    hands: tuple[PlannedHand, ...]


def hand_fields(hand, number: int, key: uuid.UUID) -> dict[str, str]:
    """The form of one hand as the hand endpoint takes it (a standard four-seat game)."""
    return {
        "idempotency_key": str(key),
        "number": str(number),
        "bidder": str(hand.bidder),
        "bid": str(hand.bid),
        "kind": hand.kind,
        "tricks_0": str(hand.tricks[0]),
        "tricks_1": str(hand.tricks[1]),
        "five_hearts": str(hand.five_hearts),
        "three_spades": str(hand.three_spades),
    }


def night_plan(tables: int, hands: int, seed: int = 6) -> list[TablePlan]:
    """For each table, up to `hands` plausible hands that the rules engine accepts in order (a
    table whose game ends sooner stops there). Deterministic for a seed; every key unique."""
    from leagues.demo import plausible_hand
    from scorecards.rules import game_score, rules_build

    rules = rules_build({"preset": "standard"})
    rng = random.Random(seed)
    plans = []
    for table in range(tables):
        inputs = []
        planned = []
        for number in range(1, hands + 1):
            hand = plausible_hand(rng, rules)
            inputs.append(hand)
            score = game_score(rules, inputs, table % 4)
            key = uuid.UUID(int=rng.getrandbits(128), version=4)
            planned.append(PlannedHand(number, hand_fields(hand, number, key)))
            if score.finished:
                break
        plans.append(TablePlan(table, tuple(planned)))
    return plans


# --- Set-up through the services (needs Django) ----------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    table: int
    game_id: int
    token: str


def night_setup(plans: list[TablePlan], tag: str | None = None) -> tuple[Any, list[TableSetup]]:
    """A club with four players per table and one game per table, each with its table link.
    Returns (club, tables)."""
    from leagues.clubs.models import Club, Player
    from scorecards.rules import rules_build
    from scorecards.services import game_start, game_token_issue

    tag = tag or uuid.uuid4().hex[:8]
    club = Club.objects.create(name=f"Load night {tag}", slug=f"night-{tag}")
    rules = rules_build({"preset": "standard"})
    tables = []
    for plan in plans:
        seats = [
            Player.objects.create(club=club, name=f"T{plan.table + 1} P{seat + 1}")
            for seat in range(4)
        ]
        game = game_start(
            seats=seats,
            rules=rules,
            club=club,
            first_dealer=plan.table % 4,
            table_label=f"Table {plan.table + 1}",
        )
        tables.append(TableSetup(plan.table, game.pk, game_token_issue(game=game)))
    return club, tables


def stored_hands(game_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    """(number, idempotency key) of every stored hand, per game."""
    from scorecards.models import Hand

    stored: dict[int, list[tuple[int, str]]] = {gid: [] for gid in game_ids}
    rows = Hand.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "number", "idempotency_key"
    )
    for game_id, number, key in rows:
        stored[game_id].append((number, str(key)))
    return stored


def table_join(base_url: str, setup: TableSetup) -> HttpSession:
    """A phone that followed the table link of `setup` and opened its sheet (so it holds the
    session and the CSRF cookie)."""
    phone = HttpSession(base_url)
    status, _, _ = phone.get(f"/t/{setup.token}/")
    if status not in (301, 302, 303):
        raise RuntimeError(f"table link of table {setup.table + 1}: HTTP {status}")
    status, _, _ = phone.get(f"/games/{setup.game_id}/")
    if status != 200:
        raise RuntimeError(f"sheet of table {setup.table + 1}: HTTP {status}")
    return phone
