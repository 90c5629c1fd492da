"""The statements of one finished game's update (`delta`, `runs`, `ratings.ratings_append`),
compiled once per process (`kaiser_league.query_memo.compiled_once`) and written without the
ORM building a statement: an update runs a few dozen small statements, and building and
compiling each one cost far more than running it (and the same in a season of a hundred games
or of a hundred thousand).

A statement over a list of ids is compiled for a few list sizes (`_SIZES`), the list padded
with its last id to the next one (an id repeated in `IN (...)` changes nothing); a longer list
is run through the ORM. What decides which games count (`Game.objects.counted()`, with what
the table context adds to a game's query) is part of each statement's key."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model, Q, QuerySet

from kaiser_league.query_memo import compiled_once, update_sql
from leagues.standings.rows import rows_write
from scorecards.hooks import place_annotations, uncounted_games
from scorecards.models import GameStatus

_SIZES = (1, 2, 4, 8, 16, 32, 64, 128)
# Two times to compile a statement with (a time's slot is written as the database takes it).
TIMES = (
    datetime.datetime(2001, 1, 1, 1, 1, 1, 1, tzinfo=datetime.UTC),
    datetime.datetime(2002, 2, 2, 2, 2, 2, 2, tzinfo=datetime.UTC),
)
# Sample ids the statements are compiled with: distinct, and unlike any other sample value.
_FIRST, _OTHER = 1_000_000_001, 2_000_000_001


def change_seen(path: str = "") -> Q:
    """The games whose changes derived data sees (`path`: the way to them, `"games__"` from a
    season or a club): a finished game, or one counted once (it has a summary). Games in play
    change all the time and count for nothing; a confirmation touches its game's updated_at."""
    finished = Q(**{f"{path}status": GameStatus.FINISHED})
    return finished | Q(**{f"{path}standings_summary__isnull": False})


_shapes: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def counted_shape() -> tuple[Any, ...]:
    """What shapes a query of the games that count beside its values: the table context's
    annotations and whether some games never count (both the one registered context's, so
    the second is asked once per set of annotations: building its condition is not free)."""
    place = tuple((name, repr(value)) for name, value in place_annotations().items())
    shape = _shapes.get(place)
    if shape is None:
        shape = _shapes.setdefault(place, (place, uncounted_games() is not None))
    return shape


def ids_rows(
    key: Hashable,
    build: Callable[..., QuerySet[Any]],
    ids: Sequence[int],
    *,
    values: bool = True,
    **given: tuple[Any, tuple[Any, Any]],
) -> list[Any]:
    """The rows of `build(ids, **others)` (tuples of a values list, or model rows when not
    `values`), run as a statement compiled once per size of `ids` (see the module). `given`:
    each other argument as (its value, two sample values). No query for no id."""
    if not ids:
        return []
    others = {name: pair[0] for name, pair in given.items()}
    size = next((size for size in _SIZES if size >= len(ids)), None)
    if size is None:
        return list(build(list(ids), **others))
    names = [f"_id{place}" for place in range(size)]

    def built(**arguments: Any) -> QuerySet[Any]:
        chosen = [arguments[name] for name in names]
        return build(chosen, **{name: arguments[name] for name in given})

    samples = {name: (_FIRST + place, _OTHER + place) for place, name in enumerate(names)}
    samples.update({name: pair[1] for name, pair in given.items()})
    statement = compiled_once((key, size), built, **samples)
    padded = [*ids, *[ids[-1]] * (size - len(ids))]
    arguments = dict(zip(names, padded, strict=True)) | others
    return statement.values(**arguments) if values else statement.rows(**arguments)


def one_rows(
    key: Hashable,
    build: Callable[..., QuerySet[Any]],
    *,
    values: bool = True,
    **given: tuple[Any, tuple[Any, Any]],
) -> list[Any]:
    """`ids_rows` for a statement over no list: `given` as there."""
    statement = compiled_once(key, build, **{name: pair[1] for name, pair in given.items()})
    arguments = {name: pair[0] for name, pair in given.items()}
    return statement.values(**arguments) if values else statement.rows(**arguments)


def commit_unwaited() -> None:
    """Let the current transaction's COMMIT return before PostgreSQL has flushed it to disk
    (`synchronous_commit` off for this transaction alone), for a write of derived data only:
    the flush cost a one-game update more than all its statements. A crash of the server may
    lose such a commit, whole (a later commit that waits for its flush, a hand's, keeps the
    ones before it); derived data lost so is what the reconciliation rebuilds
    (`services.derived_data_stale`: the snapshot is older than its games' changes again).
    Nothing on SQLite."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def rows_set(model: type[Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Write `fields` of the rows `rows` of `model` (each its id, then the values of `fields`,
    as Python holds them), by the one row's UPDATE (`query_memo.update_sql`) run over them all.
    As `QuerySet.update`: no signal is sent."""
    if not rows:
        return
    columns: list[Any] = [model._meta.get_field(name) for name in fields]
    sql = update_sql(model, fields)
    params = [
        [
            *(
                field.get_db_prep_save(value, connection)
                for field, value in zip(columns, row[1:], strict=True)
            ),
            row[0],
        ]
        for row in rows
    ]
    with connection.cursor() as cursor:
        if len(params) == 1:
            cursor.execute(sql, params[0])
        else:
            cursor.executemany(sql, params)


def rows_add(model: type[Model], rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` of `model` ({field attname: value}; a column not named takes its
    default), as `bulk_create` would, with no ORM statement built. Their ids are not read."""
    if not rows:
        return
    columns = [field for field in model._meta.concrete_fields if not field.primary_key]
    values = [
        [
            field.get_db_prep_save(
                row[field.attname] if field.attname in row else field.get_default(), connection
            )
            for field in columns
        ]
        for row in rows
    ]
    rows_write(model._meta.db_table, [field.column for field in columns], values)
