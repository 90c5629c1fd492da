"""Writing derived rows: replace a set of rows by the wanted ones, writing only what changed, and
never letting an older computation overwrite a newer one."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import nullcontext
from typing import Any

from django.db import IntegrityError, connection, models, transaction

from leagues.standings.models import (
    RatingSnapshot,
    StandingsSnapshot,
)


def rows_replace(
    queryset: models.QuerySet,
    key: tuple[str, ...],
    fields: Iterable[str],
    wanted: dict[Any, dict],
    build: Callable[[Any, dict], models.Model],
    *,
    fixed: dict[str, Any] | None = None,
) -> bool:
    """Make the rows of `queryset` exactly `wanted` ({key: figures}), where a row's key is the
    value of its `key` field (or the tuple of them, for several); write nothing when they
    already are. Returns True if anything was written. Rows are read as values, not model
    instances: a club's rating history holds a row per player and game.

    `build(key, figures)` makes a new row; or, when `fixed` is given ({field: value}, what
    every row of `queryset` shares), a new row is `fixed`, its key fields and its figures, and
    nothing else (written with no model built: `_rows_insert`)."""
    fields = tuple(fields)
    width = len(key)
    existing: dict[Any, int] = {}
    current: dict[Any, dict] = {}
    for pk, *values in queryset.values_list("pk", *key, *fields):
        k = values[0] if width == 1 else tuple(values[:width])
        existing[k] = pk
        current[k] = dict(zip(fields, values[width:], strict=True))
    if current == wanted:
        return False
    model = queryset.model
    stale = [pk for k, pk in existing.items() if k not in wanted]
    changed = [
        model(pk=existing[k], **figures)
        for k, figures in wanted.items()
        if k in existing and current[k] != figures
    ]
    if stale:
        model.objects.filter(pk__in=stale).delete()
    if changed:
        model.objects.bulk_update(changed, fields, batch_size=500)
    fresh = [k for k in wanted if k not in existing]
    if fixed is not None and fresh and _rows_insert(model, fixed, key, fields, fresh, wanted):
        return True
    new = [build(k, wanted[k]) for k in fresh]
    if new:
        model.objects.bulk_create(new, batch_size=500)
    return True


# Columns whose values go to the database as Python gives them: nothing to convert.
_PLAIN_TYPES = frozenset(
    (
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "FloatField",
        "ForeignKey",
    )
)


def _to_db(field: models.Field) -> Callable[[Any], Any]:
    """A column's value as the ORM writes it (`get_db_prep_save`); a day (a line's last one,
    a row each) by the database's own adapter alone, which is what that comes to."""
    if field.get_internal_type() == "DateField":
        adapt = connection.ops.adapt_datefield_value

        def day(value: Any) -> Any:
            if value is None or type(value) is datetime.date:
                return adapt(value)
            return field.get_db_prep_save(value, connection)

        return day
    return lambda value: field.get_db_prep_save(value, connection)


def _rows_insert(
    model: type[models.Model],
    fixed: dict[str, Any],
    key: tuple[str, ...],
    fields: tuple[str, ...],
    keys: list[Any],
    wanted: dict[Any, dict],
) -> bool:
    """Insert the rows `keys` of `wanted` (`fixed`, the key, the figures `fields`) as one
    statement run over plain values: a season rebuilt from nothing writes thousands of rows (a
    row per partnership), and building a model and the ORM's statement for each cost more
    than computing them. Returns False, having written nothing, where it does not apply (a
    column left to its default, a row with other figures than `fields`): `bulk_create` writes
    them then."""
    meta = model._meta
    settable = {field.attname: field for field in meta.concrete_fields if not field.primary_key}
    names = (*fixed, *key, *fields)
    if set(names) != settable.keys() or len(names) != len(settable):
        return False  # a column named otherwise, or left to its default: the ORM knows it
    columns = [settable[name] for name in names]
    # Numbers and ids go as Python gives them; any other column as the ORM writes it.
    other = [
        (place, _to_db(field))
        for place, field in enumerate(columns)
        if field.get_internal_type() not in _PLAIN_TYPES
    ]
    shared, figure_names = tuple(fixed.values()), set(fields)
    rows: list[list[Any]] = []
    for k in keys:
        figures = wanted[k]
        if figures.keys() != figure_names:
            return False
        row = [*shared, *((k,) if len(key) == 1 else k), *map(figures.__getitem__, fields)]
        for place, to_db in other:
            row[place] = to_db(row[place])
        rows.append(row)
    rows_write(meta.db_table, [field.column for field in columns], rows)
    return True


# From this many rows on, PostgreSQL is sent them by COPY: a statement run for each row
# costs the server a plan's execution and the client a round of the pipeline per row, which
# for a season's thousands of rows took longer than computing them.
COPY_FROM = 64


def rows_write(
    table: str,
    columns: Sequence[str],
    rows: list[list[Any]],
    *,
    tail: str = "",
    json_columns: Collection[str] = (),
    key: str = "",
) -> None:
    """Insert `rows` (each the values of `columns`, in order, as plain values; those of
    `json_columns` as JSON text) into `table`, `tail` closing the statement (an `ON CONFLICT`
    clause). No model built, no ORM statement: one prepared statement run over them all, or on
    PostgreSQL, for many rows, COPY: into `table` itself, or with a `tail`, into a temporary
    table of the same columns, then one `INSERT ... SELECT` from it. `key`: with a `tail`, the
    column of its conflicts: when no row of `table` holds any of the rows' values of it (a
    season rebuilt from nothing), COPY sends them straight into `table`, in a savepoint (one
    written meanwhile sends them the other way): the temporary table took longer than the
    rest of the write."""
    if not rows:
        return
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or len(rows) < COPY_FROM:
            cast = "::jsonb" if connection.vendor == "postgresql" else ""
            places = ", ".join(
                f"%s{cast}" if column in json_columns else "%s" for column in columns
            )
            cursor.executemany(
                f"INSERT INTO {quote(table)} ({names}) VALUES ({places}) {tail}", rows
            )
            return
        # In the caller's transaction when it has one (a failure rolls the table back with the
        # rest), else in one of its own: ON COMMIT DROP needs one.
        with transaction.atomic() if not connection.in_atomic_block else nullcontext():
            if tail and key and _copied_if_new(cursor, table, columns, rows, key):
                return
            staged = quote(table)
            if tail:
                # A name of this connection's own (temporary tables are a session's), dropped
                # at once: the caller may write another set of rows in the same transaction.
                staged = quote(f"rows_write_{table}")
                cursor.execute(
                    f"CREATE TEMPORARY TABLE {staged} ON COMMIT DROP AS "
                    f"SELECT {names} FROM {quote(table)} WITH NO DATA"
                )
            with cursor.cursor.copy(f"COPY {staged} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            if tail:
                cursor.execute(
                    f"INSERT INTO {quote(table)} ({names}) SELECT {names} FROM {staged} {tail}"
                )
                cursor.execute(f"DROP TABLE {staged}")


def _copied_if_new(
    cursor: Any, table: str, columns: Sequence[str], rows: list[list[Any]], key: str
) -> bool:
    """COPY `rows` straight into `table` when none of their `key` values is in it yet; whether
    they were (False: one was, or came meanwhile; nothing written)."""
    import psycopg

    quote = connection.ops.quote_name
    place = list(columns).index(key)
    keys = [row[place] for row in rows]
    cursor.execute(f"SELECT 1 FROM {quote(table)} WHERE {quote(key)} = ANY(%s) LIMIT 1", [keys])
    if cursor.fetchone() is not None:
        return False
    names = ", ".join(quote(column) for column in columns)
    try:
        with (
            transaction.atomic(),
            cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    except (IntegrityError, psycopg.IntegrityError):  # (COPY's own come from psycopg)
        return False
    return True


def newer_snapshot_exists(
    snapshot: StandingsSnapshot | RatingSnapshot | None, started: datetime.datetime
) -> bool:
    # A rebuild that began reading later has seen everything this one saw and more: never let
    # an older computation overwrite it.
    return snapshot is not None and snapshot.computed_at > started
