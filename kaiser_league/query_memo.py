"""Querysets built once per process and cloned for each request (`built_once`); the hottest
statements compiled once and run with each request's values (`compiled_once`, `row_insert`,
`row_update`, `rows_insert_then_update`; the UPDATE of one row by its id: `update_sql`).

Building a queryset (resolving its annotations and joins through the models) costs as much as
compiling it, on every request. A queryset that is never evaluated itself can be kept and
refined per request: `filter`, `annotate` and `get` work on a clone (as a form field's
queryset is shared between requests). What is kept is the query's shape only, keyed by
everything that shapes it, never a row: no write can make it stale, and every process builds
the same one."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable, Hashable, Sequence
from threading import Lock
from typing import Any, TypeVar

from django.db.models import QuerySet

Q = TypeVar("Q", bound=QuerySet[Any])

_built: dict[Hashable, QuerySet[Any]] = {}
_lock = Lock()


def built_once(key: Hashable, build: Callable[[], Q]) -> Q:
    """The queryset `build()` gives, built the first time `key` is asked for in this process.
    The caller never evaluates it as it is: it refines a clone (`filter`, `annotate`, `get`)."""
    built = _built.get(key)
    if built is None:
        built = build()
        with _lock:
            _built.setdefault(key, built)
    return built  # type: ignore[return-value]


# --- statements compiled once -----------------------------------------------------------------
# Keeping a queryset saves its building; compiling it (its joins, columns and quoted names, on
# every request) costs more still: the hand submit's locked read of the game took three times
# as long to compile as to run. A statement kept here is the SQL Django compiled once per
# process and database, with the slots of its variable values found by compiling it again with
# each value changed; each call fills the slots and turns the rows into what Django would have
# given (model rows, related rows, annotations, each value through its field's converters).


class _Row:
    """The parts of a compiled statement that turn one of its rows into a model row."""

    def __init__(self, compiler: Any) -> None:
        from django.db.models.query import get_related_populators  # type: ignore[attr-defined]

        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [column[0].target.attname for column in select[self.start : self.end]]
        self.related = get_related_populators(klass_info, select, compiler.using)
        self.annotations = tuple(compiler.annotation_col_map.items())


class Statement:
    """A SELECT compiled once: `rows(**values)` runs it with `values` in its slots."""

    def __init__(self, compiler: Any, sql: str, params: list[Any], slots: dict[int, Any]):
        self.sql = sql
        self.params = params
        self.slots = slots  # {index in params: (name, how the value is written)}
        self.using = compiler.using
        fields = [column[0] for column in compiler.select[: compiler.col_count]]
        self.converters = tuple(compiler.get_converters(fields).items())
        # Read when model rows are first asked for: a statement of values whose columns and
        # annotations interleave has none to read.
        self._compiler = compiler if compiler.klass_info is not None else None
        self._row: _Row | None = None

    def values(self, **values: Any) -> list[tuple[Any, ...]]:
        """The rows as tuples of the selected columns, converted as Django converts them."""
        from django.db import connections

        params = list(self.params)
        for index, (name, written) in self.slots.items():
            params[index] = written(values[name])
        connection = connections[self.using]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if not self.converters:
            return [tuple(row) for row in rows]
        converted = []
        for row in rows:
            row = list(row)
            for pos, (convert, expression) in self.converters:
                value = row[pos]
                for converter in convert:
                    value = converter(value, expression, connection)
                row[pos] = value
            converted.append(tuple(row))
        return converted

    def rows(self, **values: Any) -> list[Any]:
        """The model rows, with their related rows (`select_related`) and annotations."""
        if self._row is None:
            assert self._compiler is not None, "a statement of values has no model rows"
            self._row = _Row(self._compiler)
        shape = self._row
        found = []
        for row in self.values(**values):
            obj = shape.model.from_db(self.using, shape.init_list, row[shape.start : shape.end])
            for populator in shape.related:
                populator.populate(row, obj)
            for name, pos in shape.annotations:
                setattr(obj, name, row[pos])
            found.append(obj)
        return found


_statements: dict[Hashable, Statement] = {}


def _written_as(sample: Any, written: Any) -> Callable[[Any], Any]:
    """How a value is written into the statement's parameters, read from `sample`'s."""
    if written == sample:
        return lambda value: value
    if isinstance(sample, uuid.UUID) and written == sample.hex:
        return lambda value: value.hex
    if isinstance(sample, datetime.datetime):
        from django.db import DEFAULT_DB_ALIAS, connections

        # A time as the database's adapter writes it (SQLite: text in UTC).
        adapt = connections[DEFAULT_DB_ALIAS].ops.adapt_datetimefield_value
        if written == adapt(sample):
            return adapt
    raise ValueError(f"a slot written as {written!r} for {sample!r}")


def _compiled(queryset: QuerySet[Any]) -> tuple[Any, str, list[Any]]:
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    return compiler, sql, list(params)


def compiled_once(
    key: Hashable, build: Callable[..., QuerySet[Any]], /, **samples: tuple[Any, Any]
) -> Statement:
    """The statement of `build(**values)`, compiled the first time `key` is asked for in this
    process on this database. `samples` gives two different values of each of `build`'s
    arguments: the statement is compiled with the first ones, then with each one changed to
    its second, and the parameters that change are that argument's slots. `key` names every
    other thing that shapes the query (an argument that is None changes the query's shape,
    not only its values: it belongs in `key`). The statement's SQL must depend on no argument:
    ValueError when it does."""
    from django.db import DEFAULT_DB_ALIAS, connections

    full_key = (key, DEFAULT_DB_ALIAS, connections[DEFAULT_DB_ALIAS].vendor)
    statement = _statements.get(full_key)
    if statement is not None:
        return statement
    first = {name: pair[0] for name, pair in samples.items()}
    compiler, sql, params = _compiled(build(**first))
    slots: dict[int, Any] = {}
    for name, (sample, other) in samples.items():
        _, other_sql, other_params = _compiled(build(**{**first, name: other}))
        if other_sql != sql or len(other_params) != len(params):
            raise ValueError(f"the statement's SQL changes with {name}")
        for index, (one, two) in enumerate(zip(params, other_params, strict=True)):
            if one != two:
                if index in slots:
                    raise ValueError(f"a parameter changes with {slots[index][0]} and {name}")
                slots[index] = (name, _written_as(sample, one))
    missing = set(samples) - {name for name, _ in slots.values()}
    if missing:
        raise ValueError(f"no parameter carries {sorted(missing)}")
    statement = Statement(compiler, sql, params, slots)
    with _lock:
        _statements.setdefault(full_key, statement)
    return statement


# --- rows inserted by a statement written once ---------------------------------------------------
# `Model.objects.create` builds and compiles its INSERT on every call, which costs a hand submit
# more than running it. The INSERT of every concrete column but the id is the same statement for
# every row of a model: it is compiled once per process and database, and each row's values go
# through its fields exactly as `save()` sends them (`pre_save`, then `get_db_prep_save`).

_inserts: dict[Hashable, tuple[str, tuple[Any, ...]]] = {}


def _insert_kept(obj: Any) -> tuple[list[Any], str, tuple[Any, ...]] | None:
    """The fields, the INSERT compiled once and its returning parameters for `obj`, a new
    row; None for a row that plain INSERT cannot write as `save()` does (`row_insert`)."""
    from django.db import DEFAULT_DB_ALIAS, connections
    from django.db.models import signals
    from django.db.models.fields import AutoFieldMixin
    from django.db.models.sql import InsertQuery

    model = type(obj)
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    numbered = isinstance(meta.pk, AutoFieldMixin)
    if (
        obj.pk is not None
        or not numbered
        or any(f.generated or f.has_db_default() for f in fields)
        or signals.pre_save.has_listeners(model)
        or signals.post_save.has_listeners(model)
    ):
        return None
    connection = connections[DEFAULT_DB_ALIAS]
    key = (model, DEFAULT_DB_ALIAS, connection.vendor)
    kept = _inserts.get(key)
    if kept is None:
        query = InsertQuery(model)
        query.insert_values(fields, [obj])
        compiler = query.get_compiler(using=DEFAULT_DB_ALIAS)
        compiler.returning_fields = [meta.pk]
        ((sql, params),) = compiler.as_sql()
        if len(params) != len(fields):
            raise ValueError(f"an INSERT of {meta.label} that is not one value per column")
        kept = (sql, tuple(compiler.returning_params))
        with _lock:
            _inserts.setdefault(key, kept)
    return fields, *kept


def _inserted(obj: Any, pk: Any) -> None:
    from django.db import DEFAULT_DB_ALIAS

    obj.pk = pk
    obj._state.adding = False
    obj._state.db = DEFAULT_DB_ALIAS


def row_insert(obj: Any) -> None:
    """Insert `obj`, a new row, as `obj.save(force_insert=True)` would, and set its id. A row
    this plain INSERT cannot write as `save()` does is saved by `save()` itself: one whose id
    is given or not numbered by the database, a model with a column the database fills
    (`db_default`, generated) or that anything listens to on save (a signal receiver)."""
    from django.db import DEFAULT_DB_ALIAS, connections

    kept = _insert_kept(obj)
    if kept is None:
        obj.save(force_insert=True)
        return
    fields, sql, returning = kept
    connection = connections[DEFAULT_DB_ALIAS]
    meta = type(obj)._meta
    # After the compilation, which takes an `auto_now_add` field's time on `obj` too.
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if connection.features.can_return_columns_from_insert:
            (pk,) = connection.ops.fetch_returned_insert_columns(cursor, returning)
        else:
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    _inserted(obj, pk)


def update_sql(model: Any, fields: Sequence[str]) -> str:
    """The UPDATE of `fields` of one `model` row by its id, written once per process."""
    from django.db import DEFAULT_DB_ALIAS, connections

    connection = connections[DEFAULT_DB_ALIAS]
    key = (model, tuple(fields), DEFAULT_DB_ALIAS, connection.vendor)
    sql = _updates.get(key)
    if sql is None:
        meta = model._meta
        quote = connection.ops.quote_name
        columns = [meta.get_field(name).column for name in fields]
        assigned = ", ".join(f"{quote(column)} = %s" for column in columns)
        sql = f"UPDATE {quote(meta.db_table)} SET {assigned} WHERE {quote(meta.pk.column)} = %s"
        with _lock:
            _updates.setdefault(key, sql)
    return sql


def _update_values(obj: Any, fields: Sequence[str]) -> list[Any]:
    from django.db import DEFAULT_DB_ALIAS, connections

    connection = connections[DEFAULT_DB_ALIAS]
    columns = [type(obj)._meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in columns]
    return [*values, obj.pk]


def _updated(obj: Any, fields: Sequence[str]) -> None:
    """Say that `obj` was saved (`post_save`), as `save(update_fields=fields)` does."""
    from django.db import DEFAULT_DB_ALIAS
    from django.db.models import signals

    model = type(obj)
    if signals.post_save.has_listeners(model):
        signals.post_save.send(
            sender=model,
            instance=obj,
            created=False,
            update_fields=frozenset(fields),
            raw=False,
            using=DEFAULT_DB_ALIAS,
        )


def row_update(obj: Any, fields: Sequence[str]) -> None:
    """Save `fields` of `obj`, a stored row, as `obj.save(update_fields=fields)` does (an
    `auto_now` field among them takes the time now, `post_save` is sent), with an UPDATE
    written once per process for that model and those fields. A model that anything listens to
    before saving is saved by `save()` itself."""
    from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
    from django.db.models import signals

    model = type(obj)
    if signals.pre_save.has_listeners(model):
        obj.save(update_fields=fields)
        return
    sql = update_sql(model, fields)
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, _update_values(obj, fields))
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    _updated(obj, fields)


_updates: dict[Hashable, str] = {}


# --- rows written by one statement ---------------------------------------------------------------
# Each statement is a round trip, and on PostgreSQL a parse, a plan and a send of its own: a
# hand submit's three writes (the hand, its trace, the game's totals) cost more as three
# statements than as one. PostgreSQL runs INSERTs and an UPDATE as the parts of one statement
# (data-modifying WITH queries: each part runs once, whether or not the rest reads it).

_together: dict[Hashable, str] = {}


def rows_insert_then_update(inserts: Sequence[Any], updated: Any, fields: Sequence[str]) -> None:
    """`row_insert` of each of `inserts`, then `row_update(updated, fields)`: the same rows,
    the same ids set, the same `post_save`, the same DatabaseError when `updated` is no row
    (after the inserts: the caller's transaction undoes them). On PostgreSQL in one statement;
    elsewhere, or when a row would be saved by `save()` itself, one statement each."""
    from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
    from django.db.models import signals

    connection = connections[DEFAULT_DB_ALIAS]
    kept = [_insert_kept(obj) for obj in inserts] if connection.vendor == "postgresql" else []
    if (
        connection.vendor != "postgresql"
        or None in kept
        or signals.pre_save.has_listeners(type(updated))
    ):
        for obj in inserts:
            row_insert(obj)
        row_update(updated, fields)
        return
    models = tuple(type(obj) for obj in inserts)
    key = (models, type(updated), tuple(fields), DEFAULT_DB_ALIAS)
    sql = _together.get(key)
    if sql is None:
        parts = [f"i{n} AS ({insert[1]})" for n, insert in enumerate(kept)]  # type: ignore[index]
        parts.append(f"u AS ({update_sql(type(updated), fields)} RETURNING 1)")
        ids = ", ".join(f"(SELECT * FROM i{n})" for n in range(len(kept)))
        sql = f"WITH {', '.join(parts)} SELECT {ids}, (SELECT count(*) FROM u)"
        with _lock:
            _together.setdefault(key, sql)
    values: list[Any] = []
    for obj, insert in zip(inserts, kept, strict=True):
        assert insert is not None
        values += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in insert[0]]
    values += _update_values(updated, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        *ids, count = cursor.fetchone()
    if count != 1:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    for obj, pk in zip(inserts, ids, strict=True):
        _inserted(obj, pk)
    _updated(updated, fields)
