"""Summaries' JSON columns as text, written by orjson: a season rebuilt from nothing writes a
summary a game, five JSON columns each, and json's encoder took ten times as long."""

from __future__ import annotations

import json
from typing import Any

import orjson

# json.dumps's text, for what orjson does not write (a whole number past 64 bits); the values
# are trees, so no check for a circular one.
_encode = json.JSONEncoder(check_circular=False).encode


def json_text(value: Any) -> str:
    """JSON text of `value`, which reads back as `value` (`json.loads`, as the ORM reads it)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # (orjson.JSONEncodeError is one)
        return _encode(value)


# Each JSON column of a summary, and how its text is written.
JSON_TEXT = dict.fromkeys(("players", "scores", "sides", "seat_counts", "side_counts"), json_text)
