"""Reading a season's hands as their stored records, joined per game by the database
(`selectors.games_records_stream`, the rebuild from nothing's read of every hand): a row a
game, where a row a hand cost the client more than decoding the records."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from contextlib import closing
from functools import cache
from typing import Any

import orjson
from django.db import connections
from django.db.models import Aggregate, Count, Max, Min, QuerySet, TextField
from django.db.models.functions import Cast

from scorecards.models import Hand


def records_joined(hands: QuerySet[Hand]) -> Generator[tuple[int, list[Any] | None]]:
    """`selectors.games_records_stream` on PostgreSQL: each game's records joined in hand
    order by the database, with the count and the first and last numbers of its hands
    (numbered 1..n when they are 1 and the count: a game's numbers are unique)."""
    from django.contrib.postgres.aggregates import StringAgg

    rows = (
        hands.order_by()
        .values("game_id")
        .annotate(
            _count=Count("pk"),
            _first=Min("number"),
            _last=Max("number"),
            _records=StringAgg(Cast("record", TextField()), ",", order_by="number"),
        )
        .order_by("game_id")
        .values_list("game_id", "_count", "_first", "_last", "_records")
    )
    with closing(rows_streamed(rows)) as streamed:
        for game_id, count, first, last, text in streamed:
            if first != 1 or last != count:
                yield game_id, None
                continue
            yield game_id, records_read([text], count)


class StreamBusy(RuntimeError):
    """A statement sent on a connection whose rows `rows_streamed` is still reading."""


def rows_streamed(rows: QuerySet[Any], size: int = 10) -> Generator[tuple[Any, ...]]:
    """The tuples of `rows` (a PostgreSQL values_list query; ValueError for any other kind),
    each value as the ORM reads it, as they arrive, `size` at a time, while the server is
    still making the next ones: a season's records joined per game take the server about as
    long as the client takes to score them, and a cursor's fetch waited for all of them.

    It is one statement (logged and counted as any other). Until the rows are all read or the
    iterator is closed, the connection is the stream's: another statement on it raises
    StreamBusy (in psycopg it would wait forever for the stream's lock), so a caller reads the
    rows through before anything else, and closes the iterator (`contextlib.closing`) if it
    stops early or raises. Closing it early cancels the rest of the statement, which in a
    transaction fails that transaction, as any failed statement does."""
    import psycopg
    from django.db.models.query import ValuesListIterable

    if rows._iterable_class is not ValuesListIterable:
        raise ValueError("rows_streamed reads a values_list query (neither flat nor named)")
    db = connections[rows.db]
    compiler = rows.query.get_compiler(using=rows.db)
    sql, params = compiler.as_sql()
    converters = compiler.get_converters(
        [column[0] for column in compiler.select[: compiler.col_count]]
    )
    # Rows `size` at a time need a libpq of 17 or newer; one at a time, any.
    size = size if psycopg.pq.version() >= 170000 else 1
    started: list[tuple[tuple[Any, ...] | None, Generator[tuple[Any, ...]]]] = []

    def start(_execute: Any, sql: str, params: Any, _many: bool, context: dict) -> None:
        # In place of the cursor's execute, behind every other wrapper and Django's logging.
        db.validate_no_broken_transaction()
        with db.wrap_database_errors:
            stream = context["cursor"].cursor.stream(sql, params, size=size)
            started.append((next(stream, None), stream))  # sent, and its first rows come

    def busy(*_args: Any) -> None:
        raise StreamBusy("this connection is still reading a stream of rows")

    with db.cursor() as cursor:
        with db.execute_wrapper(start):
            cursor.execute(sql, params)
        first, stream = started[0]
        with closing(stream), db.execute_wrapper(busy), db.wrap_database_errors:
            if first is None:
                return
            rows_read = _chained(first, stream)
            if not converters:
                yield from rows_read
                return
            for row in compiler.apply_converters(rows_read, converters):
                yield tuple(row)


def _chained(first: tuple[Any, ...], rest: Iterator[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """`first`, then the rows of `rest` (which its caller closes)."""
    yield first
    yield from rest


def records_read(texts: list[str], count: int | None = None) -> list[Any] | None:
    """The records whose JSON texts are `texts` (each one record, or `count` of them joined by
    commas), decoded together (`_decoded`); None where they are not that many JSON values."""
    try:
        records = _decoded(f"[{','.join(texts)}]")
    except ValueError:
        return None
    if type(records) is not list or len(records) != (len(texts) if count is None else count):
        return None  # a record that is not JSON alone: the ORM's reading tells
    return records


# Every digit as 0, and a run of them long enough for a whole number past 64 bits, which
# orjson reads as a float: looked for in the text with every digit made 0 (`bytes.translate`
# and a plain search cost a tenth of a pattern's search).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_NUMBER = b"0" * 19


def _decoded(text: str) -> Any:
    """`json.loads(text)`, the value the ORM reads, by orjson where it reads the same: a
    season rebuilt from nothing decodes every hand's record, and json took three times as
    long. orjson reads strict JSON alone (no NaN, no lone surrogate) and whole numbers of 64
    bits: anything else is json's."""
    encoded = text.encode()
    if _LONG_NUMBER not in encoded.translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(encoded)
        except ValueError:  # (orjson.JSONDecodeError is one) not strict JSON: json tells
            pass
    return json.loads(text)


class _Concat(Aggregate):
    """SQLite's `group_concat`: a group's values joined by commas, in the order its rows are
    read (which SQLite does not promise: the caller puts them in order)."""

    function = "GROUP_CONCAT"
    output_field = TextField()


def records_concatenated(hands: QuerySet[Hand]) -> Generator[tuple[int, list[Any] | None]]:
    """`selectors.games_records_stream` on SQLite: each game's records and numbers joined by
    the database in the same order (every row of a group goes to both aggregates at once),
    the records then put in the numbers' order."""
    rows = (
        hands.order_by()
        .values("game_id")
        .annotate(_numbers=_Concat("number"), _records=_Concat(Cast("record", TextField())))
        .order_by("game_id")
        .values_list("game_id", "_numbers", "_records")
        .iterator(chunk_size=500)
    )
    for game_id, numbers, text in rows:
        count = numbers.count(",") + 1
        records = records_read([text], count)
        if records is None or numbers == _numbered(count):
            yield game_id, records
            continue
        order = [int(number) for number in numbers.split(",")]
        if sorted(order) != list(range(1, count + 1)):
            yield game_id, None  # not numbered 1..n
            continue
        yield game_id, [record for _number, record in sorted(zip(order, records, strict=True))]


@cache
def _numbered(count: int) -> str:
    """The numbers of `count` hands in order, as `_Concat` joins them."""
    return ",".join(map(str, range(1, count + 1)))
