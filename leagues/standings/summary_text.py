"""Summaries' JSON columns as the text `json.dumps` writes, written faster for what a summary
holds (lists of whole numbers, and lists of them): a season rebuilt from nothing writes a
summary a game, and the encoder's calls, five a summary, cost more than writing them."""

from __future__ import annotations

import json
from typing import Any

# json.dumps's text; the values are trees, so no check for a circular one.
_encode = json.JSONEncoder(check_circular=False).encode


def ints_text(value: Any) -> str:
    """`json.dumps(value)`: a list of whole numbers is written as Python writes it, the same
    text; anything else (None, a bool: not an int) by the encoder."""
    if type(value) is list and set(map(type, value)) == {int}:
        return str(value)
    return _encode(value)


def int_rows_text(rows: Any) -> str:
    """`json.dumps(rows)`, lists of whole numbers each (`ints_text`): the sides' seats, and
    the rows of counters."""
    if type(rows) is list and all(
        type(row) is list and set(map(type, row)) == {int} for row in rows
    ):
        return str(rows)
    return _encode(rows)


# Each JSON column of a summary, and how its text is written.
JSON_TEXT = {
    "players": ints_text,
    "scores": ints_text,
    "sides": int_rows_text,
    "seat_counts": int_rows_text,
    "side_counts": int_rows_text,
}
