"""Summaries' JSON columns as the text `json.dumps` writes, written faster for what a summary
holds (lists of whole numbers, rows of named counters): a season rebuilt from nothing writes a
summary a game, and the encoder's calls, five a summary, cost more than writing them."""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

from leagues.standings.derived import COUNTERS

# json.dumps's text; the values are trees, so no check for a circular one.
_encode = json.JSONEncoder(check_circular=False).encode
_counter_values = itemgetter(*COUNTERS)
# A row of named counters as json.dumps writes it (COUNTERS' order, each a whole number).
_COUNTERS_TEXT = "{" + ", ".join(f'"{name}": %d' for name in COUNTERS) + "}"


def ints_text(value: Any) -> str:
    """`json.dumps(value)`: a list of whole numbers is written as Python writes it, the same
    text; anything else (None, a bool: not an int) by the encoder."""
    if type(value) is list and set(map(type, value)) == {int}:
        return str(value)
    return _encode(value)


def sides_text(sides: Any) -> str:
    """`json.dumps(sides)`, lists of whole numbers each (`ints_text`)."""
    if type(sides) is list and all(
        type(side) is list and set(map(type, side)) == {int} for side in sides
    ):
        return str(sides)
    return _encode(sides)


def counter_rows_text(rows: Any) -> str:
    """`json.dumps(rows)` of rows of named counters (COUNTERS, whole numbers), by one format
    filled with all their numbers: a rebuild from nothing writes six rows a game, and the
    encoder's calls cost more than writing them. Anything else by the encoder."""
    values: list[Any] = []
    try:
        for row in rows:
            if len(row) != len(COUNTERS):
                return _encode(rows)
            values += _counter_values(row)
    except (KeyError, TypeError):
        return _encode(rows)
    if type(rows) is not list or set(map(type, values)) != {int}:
        return _encode(rows)
    return f"[{', '.join([_COUNTERS_TEXT] * len(rows))}]" % tuple(values)


# Each JSON column of a summary, and how its text is written.
JSON_TEXT = {
    "players": ints_text,
    "scores": ints_text,
    "sides": sides_text,
    "seat_counts": counter_rows_text,
    "side_counts": counter_rows_text,
}
