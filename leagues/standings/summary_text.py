"""Summaries' JSON columns as the text `json.dumps` writes, written faster for what a summary
holds (lists of whole numbers, and lists of them): a season rebuilt from nothing writes a
summary a game, and the encoder's calls, five a summary, cost more than writing them."""

from __future__ import annotations

import json
import re
from typing import Any

# json.dumps's text; the values are trees, so no check for a circular one.
_encode = json.JSONEncoder(check_circular=False).encode
# What Python writes for lists (at any depth) of whole numbers and nothing else: a bool (True),
# None, a float, a text or a tuple each writes some other character.
_INT_LISTS = re.compile(r"\[[\[\]0-9, -]*\]")


def lists_text(value: Any) -> str:
    """`json.dumps(value)`: a list of whole numbers, or of lists of them, is written as Python
    writes it, the same text; anything else (None, a bool: not an int) by the encoder."""
    if type(value) is list:
        text = str(value)
        if _INT_LISTS.fullmatch(text):
            return text
    return _encode(value)


# Each JSON column of a summary, and how its text is written.
JSON_TEXT = dict.fromkeys(("players", "scores", "sides", "seat_counts", "side_counts"), lists_text)
