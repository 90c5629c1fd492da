"""The rooms clubs, standings and tournaments are Django apps of their own (labels `clubs`,
`standings`, `tournaments`) on the tables they had as packages of the `leagues` app, and their
migrations depend one way, along the rooms' arrows (CONTRIBUTING.md, "Map")."""

from __future__ import annotations

from django.apps import apps
from django.db.migrations.loader import MigrationLoader

# The project's apps by layer, lowest first; `leagues` is the assembly above them all.
LAYER = {"clubs": 1, "scorecards": 2, "standings": 3, "tournaments": 3, "leagues": 4}

# Edges from before the rooms were apps, kept so that a fresh database is built as every existing
# one was (replaying them is what makes the tables): scorecards' first migrations needed tables
# of the then `leagues` app (clubs, seasons, players, invitations, a club's pot) before they
# could point at them. No new migration may add one.
HISTORIC_UPWARD = {
    (("scorecards", "0001_initial"), ("leagues", "0001_initial")),
    (("scorecards", "0002_finality_claims_tombstones"), ("leagues", "0003_invitation_uses")),
    (("scorecards", "0003_game_table_habits_and_pot"), ("leagues", "0005_club_pot_per_set")),
}


def test_each_room_is_an_app_on_its_old_tables() -> None:
    for label in ("clubs", "standings", "tournaments"):
        config = apps.get_app_config(label)
        assert config.name == f"leagues.{label}"
        models = list(config.get_models())
        assert models, f"the {label} app holds no model"
        for model in models:
            assert model.__module__.startswith(f"leagues.{label}."), model
            # The table's name from when the model belonged to the `leagues` app.
            assert model._meta.db_table == f"leagues_{model._meta.model_name}", model
    assert not list(apps.get_app_config("leagues").get_models())


def _named() -> set[tuple[tuple[str, str], tuple[str, str]]]:
    """(migration, migration it names) for every migration of the project's apps, in its
    `dependencies` or its `run_before` (the app above declares that a lower one runs after it,
    so the lower app's files name nothing above them)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return {
        ((label, name), other)
        for (label, name), migration in loader.disk_migrations.items()
        if label in LAYER
        for other in [*migration.dependencies, *migration.run_before]
        if other[0] in LAYER and other[0] != label
    }


def test_migrations_name_only_apps_below_them() -> None:
    named = _named()
    # The walk sees the files (or this test would pass on nothing).
    assert (("scorecards", "0005_rooms_are_apps"), ("clubs", "0001_initial")) in named
    wrong = [
        f"{a[0]}.{a[1]} names {b[0]}.{b[1]}, an app on its layer or above"
        for a, b in sorted(named)
        if LAYER[b[0]] >= LAYER[a[0]] and (a, b) not in HISTORIC_UPWARD
    ]
    assert not wrong, "\n".join(wrong)


def test_the_historic_exceptions_still_exist() -> None:
    # An exception that no longer matches a file is stale: remove it from the list.
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for (label, name), (other, other_name) in HISTORIC_UPWARD:
        assert (other, other_name) in loader.disk_migrations[(label, name)].dependencies
