"""Reading a season's hands as their stored records, joined per game
(`selectors.games_records_stream`, the rebuild from nothing's read of every hand)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db.models import Count, Max, Min, QuerySet, TextField
from django.db.models.functions import Cast

from scorecards.models import Hand


def records_joined(hands: QuerySet[Hand]) -> Iterator[tuple[int, list[Any] | None]]:
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
        .iterator(chunk_size=500)
    )
    for game_id, count, first, last, text in rows:
        if first != 1 or last != count:
            yield game_id, None
            continue
        yield game_id, records_read([text], count)


def records_read(texts: list[str], count: int | None = None) -> list[Any] | None:
    """The records whose JSON texts are `texts` (each one record, or `count` of them joined by
    commas), decoded together; None where they are not that many JSON values."""
    try:
        records = json.loads(f"[{','.join(texts)}]")
    except ValueError:
        return None
    if type(records) is not list or len(records) != (len(texts) if count is None else count):
        return None  # a record that is not JSON alone: the ORM's reading tells
    return records
