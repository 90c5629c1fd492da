"""A club's existing database upgrades with nothing lost: the test database is taken back to the
schema of the last release, every table of our apps is filled, then the migrations since run
forward, and every row is read back column by column.

Migrating back needs every later migration to be reversible (a data migration gives
`RunPython.noop` as its reverse at least): that is what lets this test build the old schema.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Field, Model

from scorecards.rules import HandInput, game_score, rules_build

# The schema of the last release: the latest migration of each of our apps when it was cut.
# When a release ships, move these to its leaves.
BEFORE = {"leagues": "0007_player_name_key", "scorecards": "0003_game_table_habits_and_pot"}

# Columns a later migration rewrites (or drops) on purpose, each with why: (table, column) -> why.
TRANSFORMED: dict[tuple[str, str], str] = {}
# Tables a later migration renames (a model moved to another app keeps its rows): old -> new.
MOVED_TABLES: dict[str, str] = {}

# Rows per model where one scene needs more than the two every model gets.
ROWS = {
    "Membership": 4,
    "Player": 5,
    "Game": 3,
    "Seat": 12,
    "Hand": 6,
    "HandVersion": 7,
    "TournamentEntry": 5,
}
DEFAULT_ROWS = 2

NIGHT = datetime.datetime(2026, 9, 11, 19, 30, 15, 123456, tzinfo=datetime.UTC)

# Two hands per game, as a table enters them; the engine reads them as the app does.
HANDS = (
    HandInput(bidder=1, bid=8, kind="trump", tricks=(2, 6), five_hearts=1, three_spades=0),
    HandInput(bidder=2, bid=7, kind="no", tricks=(3, 5), five_hearts=1, three_spades=1),
)


def _generic(field: Field, model: str, i: int) -> Any:
    """A value of the field's type for row `i` (text and keys differ from row to row), within
    today's check constraints (small positive numbers: seats below 6, numbers from 1). Every
    other row leaves a nullable column empty, so NULLs are carried forward too."""
    if field.null and i % 2:
        return None
    if field.choices:
        return field.choices[i % len(field.choices)][0]
    kind = field.get_internal_type()
    if kind == "SlugField":
        return f"{model.lower()}-{field.name}-{i}"[: field.max_length]
    if kind in ("CharField", "TextField"):
        # Accents and quotes: text must come back byte for byte, not just ASCII.
        text = f"{i} {model}.{field.name} « Élise's » ♥"
        return text[: field.max_length] if field.max_length else text
    if kind == "BooleanField":
        return i % 2 == 0
    if kind.endswith("IntegerField") and kind not in ("BigAutoField", "AutoField"):
        return i + 1
    if kind == "FloatField":
        return 25.125 + i
    if kind == "DecimalField":
        return Decimal(f"{i}.25")
    if kind == "DateField":
        return NIGHT.date() + datetime.timedelta(days=7 * i)
    if kind == "DateTimeField":
        return NIGHT + datetime.timedelta(days=7 * i)
    if kind == "UUIDField":
        return uuid.uuid5(uuid.NAMESPACE_URL, f"kaiser/{model}/{field.name}/{i}")
    if kind == "JSONField":
        return {"row": i, "field": field.name, "list": [1, 2.5, "é", None, True]}
    raise AssertionError(f"{model}.{field.name}: no test value for a {kind}; add one here")


def _scored(first_dealer: int) -> tuple[Any, Any]:
    """The rules of our games and the engine's score of HANDS under them."""
    rules = rules_build({"preset": "standard"})
    return rules, game_score(rules, list(HANDS), first_dealer)


def _game(i: int, made: dict[str, list[Model]]) -> dict[str, Any]:
    rules, score = _scored(i)
    common = {
        "club": made["Club"][0],
        "season": made["Season"][0],
        "created_by": made["User"][0],
        "table_label": f"Table {i + 1}",
        "rules": rules.as_dict(),
        "first_dealer": i,
        "scores": list(score.scores),
        "target": score.target,
        "next_dealer": score.next_dealer,
        "hand_count": len(score.hands),
        "table_token": f"tok-{i}",
        "kitty": "",
        "passing": "three" if i else "",
        "pot_per_set": 5 if i == 0 else None,
        "abandon_reason": "",
        "finish_reason": "",
        "winner": None,
        "finished_at": None,
    }
    # A league game abandoned, a tournament game its round closed, one still being played.
    if i == 0:
        return common | {"status": "abandoned", "abandon_reason": "Power cut", "finished_at": NIGHT}
    if i == 1:
        return common | {
            "status": "finished",
            "finish_reason": "round",
            "winner": 0,
            "finished_at": NIGHT,
        }
    return common | {"status": "in_progress"}


def _hand(i: int, made: dict[str, list[Model]]) -> dict[str, Any]:
    game, number = divmod(i, len(HANDS))
    # Game `game` was dealt first by seat `game` (see _game).
    scored = _scored(game)[1].hands[number]
    return {
        "game": made["Game"][game],
        "number": number + 1,
        "record": HANDS[number].to_dict(),
        "dealer": scored.dealer,
        "thrown_in": False,
        "bidder": scored.bidder,
        "bid": scored.bid,
        "kind": scored.kind,
        "tricks": list(scored.tricks),
        "five_hearts": scored.five_hearts,
        "three_spades": scored.three_spades,
        "entered_by": made["User"][number],
        "entered_by_name": ["Ann", "Cat"][number],
        "entered_seat": number,
        "confirmed_at": NIGHT if number == 0 else None,
        "confirmed_by_name": "Bob" if number == 0 else "",
    }


def _hand_version(i: int, made: dict[str, list[Model]]) -> dict[str, Any]:
    if i < len(made["Hand"]):
        hand = made["Hand"][i]
        return {"game": hand.game, "number": hand.number, "action": "enter", "before": None}
    # The first hand corrected: before and after are both records.
    hand = made["Hand"][0]
    return {"game": hand.game, "number": 1, "action": "correct", "before": hand.record}


def _seat(i: int, made: dict[str, list[Model]]) -> dict[str, Any]:
    game, seat = divmod(i, 4)
    # The last seat of each game is a guest with no player row.
    player = made["Player"][seat] if seat < 3 else None
    return {
        "game": made["Game"][game],
        "seat": seat,
        "name": ["Ann", "Cat", "Bob", "Guest Dan"][seat],
        "player": player,
    }


def _rebuild_failure(i: int, made: dict[str, list[Model]]) -> dict[str, Any]:
    # Ids of games the rebuild could not read (a plain list: the games may be gone since).
    left_out = [3, 7]
    if i == 0:
        return {"kind": "standings", "season": made["Season"][0], "club": made["Club"][0]} | {
            "games_left_out": left_out
        }
    return {"kind": "ratings", "season": None, "club": made["Club"][0], "games_left_out": []}


# One scene, consistent across tables: the club Regina (club 0) with its members, players and a
# season; three games (one abandoned, one closed by its round, one in play) with four seats and two
# hands each; a tournament night of five entries, two rounds, a table per round and a sit-out per
# round; invitations and their uses; derived standings and ratings; claims, spent keys and
# failures. Each function gives the fields that tie a row into the scene; the rest are generic.
SCENE: dict[str, Callable[[int, dict[str, list[Model]]], dict[str, Any]]] = {
    "Club": lambda i, made: {
        "name": ["Regina Kaiser Club", "Moose Jaw Kaiser"][i],
        "slug": ["regina", "moose-jaw"][i],
        "pot_per_set": 10 if i == 0 else None,
    },
    "Membership": lambda i, made: {
        "club": made["Club"][i // 3],
        "user": made["User"][i % 3],
        "role": ["owner", "director", "member", "owner"][i],
    },
    "Player": lambda i, made: {
        "club": made["Club"][0],
        "name": ["Ann", "Cat", "Bob", "Élise", "Dan"][i],
        "name_key": ["ann", "cat", "bob", "élise", "dan"][i],
        "user": made["User"][i] if i < 2 else None,
    },
    "Season": lambda i, made: {
        "club": made["Club"][i],
        "name": f"Fall {2026 + i}",
        "starts_on": NIGHT.date(),
        "ends_on": NIGHT.date() + datetime.timedelta(days=90) if i == 0 else None,
        "rules": {"preset": "standard"} if i == 0 else {},
    },
    "Game": _game,
    "Seat": _seat,
    "Hand": _hand,
    "HandVersion": lambda i, made: {
        "after": made["Hand"][min(i, len(made["Hand"]) - 1)].record,
        "by": made["User"][0],
        "by_name": "Ann",
        "reason": "wrong bid" if i >= len(made["Hand"]) else "",
        **_hand_version(i, made),
    },
    "SeatClaim": lambda i, made: {"game": made["Game"][2], "seat": i, "user": made["User"][i]},
    "SpentKey": lambda i, made: {"game": made["Game"][2], "number": i + 3},
    # (A model of scorecards 0007: filled once BEFORE is a schema that has it.)
    "SeatRelease": lambda i, made: {"game": made["Game"][2], "seat": i, "holder_name": "Ann"},
    "Tournament": lambda i, made: {
        "club": made["Club"][0],
        "season": made["Season"][0] if i == 0 else None,
        "name": ["Friday night", "Spring open"][i],
        "status": ["running", "registration"][i],
        "minutes_per_round": 25 if i == 0 else None,
    },
    "TournamentEntry": lambda i, made: {
        "tournament": made["Tournament"][0],
        "player": made["Player"][i],
        "pair_number": i // 2 + 1,
        "first_round": 1,
        "last_round": None,
    },
    "TournamentRound": lambda i, made: {
        "tournament": made["Tournament"][0],
        "number": i + 1,
        "status": ["closed", "playing"][i],
        "closed_at": NIGHT if i == 0 else None,
    },
    "TournamentTable": lambda i, made: {
        "round": made["TournamentRound"][i],
        "number": 1,
        "game": made["Game"][i + 1],
    },
    "TournamentSitOut": lambda i, made: {
        "round": made["TournamentRound"][i],
        "entry": made["TournamentEntry"][4],
    },
    "Invitation": lambda i, made: {
        "club": made["Club"][0],
        "token": f"invite-token-{i}",
        "role": ["member", "scorer"][i],
        "max_uses": [1, 10][i],
    },
    "InvitationUse": lambda i, made: {
        "invitation": made["Invitation"][1],
        "user": made["User"][i + 1],
        "username": made["User"][i + 1].username,
    },
    "PlayerStanding": lambda i, made: {"season": made["Season"][0], "player": made["Player"][i]},
    "PartnershipStanding": lambda i, made: {
        "season": made["Season"][0],
        "first": made["Player"][2 * i],
        "second": made["Player"][2 * i + 1],
    },
    "PlayerRating": lambda i, made: {"club": made["Club"][0], "player": made["Player"][i]},
    "RatingPoint": lambda i, made: {"player": made["Player"][i], "game": made["Game"][1]},
    "RebuildFailure": _rebuild_failure,
}


def _in_order(models: list[type[Model]]) -> list[type[Model]]:
    """Models after every model of the list they point at."""
    ordered: list[type[Model]] = []
    pending = list(models)
    while pending:
        ready = [
            model
            for model in pending
            if all(
                field.related_model in ordered or field.related_model not in pending
                for field in model._meta.concrete_fields
                if field.is_relation and field.related_model is not model
            )
        ]
        assert ready, f"a cycle of foreign keys among {pending}"
        ordered.extend(ready)
        pending = [model for model in pending if model not in ready]
    return ordered


def _fill(apps: Any) -> dict[str, list[Model]]:
    """Rows in every model of our apps, through the models as they were at that schema."""
    user_model = apps.get_model("auth", "User")
    made: dict[str, list[Model]] = {
        "User": [
            user_model.objects.create(username=name, email=f"{name}@example.org")
            for name in ("alice", "bob", "charlie")
        ]
    }
    models = [model for label in BEFORE for model in apps.get_app_config(label).get_models()]
    for model in _in_order(models):
        name = model.__name__
        made[name] = []
        for i in range(ROWS.get(name, DEFAULT_ROWS)):
            values = SCENE[name](i, made) if name in SCENE else {}
            for field in model._meta.concrete_fields:
                if field.primary_key or field.name in values:
                    continue
                if field.is_relation:
                    targets = made[field.related_model.__name__]
                    values[field.name] = None if field.null and i % 2 else targets[i % len(targets)]
                else:
                    values[field.name] = _generic(field, name, i)
            made[name].append(model.objects.create(**values))
    return made


def _tables(apps: Any) -> list[str]:
    return [
        model._meta.db_table
        for label in BEFORE
        for model in apps.get_app_config(label).get_models()
    ]


def _content_types(apps: Any) -> dict[str, tuple[int, str]]:
    """The content type of every model of our apps at that schema: model -> (id, app label).
    Read through today's model: the old schema's picture of `contenttypes` is older than its
    table (the release's migrations do not depend on its latest)."""
    names = {
        model._meta.model_name
        for label in BEFORE
        for model in apps.get_app_config(label).get_models()
    }
    rows = ContentType.objects.filter(model__in=names, app_label__in=BEFORE)
    found = {row.model: (row.pk, row.app_label) for row in rows}
    assert set(found) == names, f"no content type for {sorted(names - set(found))}"
    return found


def _rows(table: str) -> dict[Any, dict[str, Any]]:
    """Every row of a table as the database gives it back, by primary key (`id` on all ours)."""
    quoted = connection.ops.quote_name(table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {quoted}")
        columns = [column[0] for column in cursor.description]
        return {row[columns.index("id")]: dict(zip(columns, row, strict=True)) for row in cursor}


def _migrate(targets: list[tuple[str, str]] | None = None) -> MigrationExecutor:
    """Migrate to `targets`, or to the latest migration of every app."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_last_release_migrates_forward_with_every_row_kept() -> None:
    before = list(BEFORE.items())
    try:
        executor = _migrate(before)
        apps = executor.loader.project_state(before).apps
        _fill(apps)
        tables = _tables(apps)
        old = {table: _rows(table) for table in tables}
        kinds = _content_types(apps)
        empty = [table for table in tables if not old[table]]
        assert not empty, f"the test filled no row of {empty}"
    finally:
        _migrate()

    # The models' content types follow them to their apps, ids kept (the admin's history and the
    # permissions given to accounts point at them).
    ContentType.objects.clear_cache()
    for model, (pk, _label) in kinds.items():
        now = ContentType.objects.get(pk=pk)
        assert now.model == model, f"content type {pk} is now {now}"
        assert (now.app_label, now.model) == (now.model_class()._meta.app_label, model)

    existing = set(connection.introspection.table_names())
    for table, rows in old.items():
        now_table = MOVED_TABLES.get(table, table)
        assert now_table in existing, f"{table} is gone after migrating"
        new = _rows(now_table)
        assert set(rows) <= set(new), f"{table}: rows {sorted(set(rows) - set(new))} were lost"
        for key, row in rows.items():
            for column, value in row.items():
                if (table, column) in TRANSFORMED:
                    continue
                assert column in new[key], f"{table}.{column} is gone after migrating"
                assert new[key][column] == value, (
                    f"{table}.{column} of row {key} changed from {value!r} to "
                    f"{new[key][column]!r}: if on purpose, name it in TRANSFORMED"
                )
