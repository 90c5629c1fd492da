"""Reading JSON someone sent (an imported game record, a backup, a file given to a command),
bounded before it is parsed.

    value = json_read(text)                         # or bytes; raises JsonRefused
    value = json_read(raw, max_depth=32, max_number_chars=25)

Python's own reader fails on hostile input with errors no one can act on: nesting a few
thousand levels deep raises RecursionError, and a number of more than 4,300 digits raises
ValueError ("Exceeds the limit ... for integer string conversion"); a number of fewer digits is
built in full (slow, and far beyond any column). So before parsing, one linear pass over the
text, outside its strings, checks the nesting depth and the length of every number; NaN and
Infinity (not JSON, though Python reads them) and a number too large for a float are refused
too. Every refusal is a JsonRefused naming the place (`hands[3].tricks`) and the bound.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.utils.translation import gettext as _

# A game record nests five deep (hands[i].tricks[j]), a backup about eight: room to spare.
MAX_DEPTH = 32
# Longer than any number a game or a database column takes (a 64-bit integer has 19 digits).
MAX_NUMBER_CHARS = 25

# A string, terminated or not (an unterminated one runs to the end, so the scan stays linear
# whatever the text), a bracket, a colon or comma, or a number.
_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}:,]|-?[0-9.][0-9.eE+\-]*', re.DOTALL)
_STRING = re.compile(r'"(?:[^"\\]+|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NUMBER = re.compile(r"[0-9.eE+\-]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SHOWN_KEY = 40


class JsonRefused(ValueError):
    """JSON refused before or while parsing. `path` names the place (`hands[3].tricks`, "" for
    the whole text), `message` (translated) says why; str() gives both."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


def json_read(
    raw: str | bytes, *, max_depth: int = MAX_DEPTH, max_number_chars: int = MAX_NUMBER_CHARS
) -> Any:
    """The JSON value in `raw` (bytes are read as UTF-8, a leading byte order mark allowed), or
    JsonRefused: not UTF-8, nested deeper than `max_depth`, a number written with more than
    `max_number_chars` characters or too large for a float, NaN or Infinity, or not JSON (with
    its line and column). Time and memory are linear in the length; nothing recurses."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            message = _("not UTF-8 text (byte %(byte)s)") % {"byte": exc.start}
            raise JsonRefused("", message) from None
    else:
        text = raw
    _bounds_check(text, max_depth, max_number_chars)
    try:
        return json.loads(
            text, parse_float=_float, parse_constant=_constant, parse_int=_int(max_number_chars)
        )
    except json.JSONDecodeError as exc:
        raise JsonRefused(
            "",
            _("not valid JSON (line %(line)s, column %(column)s: %(error)s)")
            % {"line": exc.lineno, "column": exc.colno, "error": exc.msg},
        ) from None
    except RecursionError:  # cannot happen after the depth check; kept as a last guard
        raise JsonRefused("", _depth_message(max_depth)) from None


def _bounds_check(text: str, max_depth: int, max_number_chars: int) -> None:
    """Quick checks at C speed; only when one fails does the slower scan find the place."""
    outside = _STRING.sub('""', text)
    brackets = _NOT_BRACKET.sub("", outside)
    deepest = max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    longest = max(map(len, _NUMBER.findall(outside)), default=0)
    if deepest > max_depth or longest > max_number_chars:
        _place_refuse(text, max_depth, max_number_chars)


def _place_refuse(text: str, max_depth: int, max_number_chars: int) -> None:
    """Scan the tokens, keeping the path to where we are, and refuse at the first place over a
    bound; return when there is none."""
    # One entry per open container: [is_object, key or index].
    stack: list[list[Any]] = []
    last_string = ""
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "[{":
            if len(stack) >= max_depth:
                raise JsonRefused(_path(stack), _depth_message(max_depth))
            stack.append([first == "{", None if first == "{" else 0])
        elif first in "]}":
            if stack:
                stack.pop()
        elif first == ",":
            if stack:
                stack[-1][1] = None if stack[-1][0] else stack[-1][1] + 1
        elif first == ":":
            if stack and stack[-1][0]:
                stack[-1][1] = last_string
        elif first == '"':
            last_string = _key_text(token)
        elif len(token) > max_number_chars:
            raise JsonRefused(_path(stack), _number_message(max_number_chars))
    # Nothing over a bound where JSON could hold a value (the quick check saw a run of letters
    # such as "eeee…", which is not JSON): the parser says what is wrong.


def _key_text(token: str) -> str:
    try:
        key = json.loads(token)
    except ValueError:
        key = token.strip('"')
    text = str(key)
    return text if len(text) <= _SHOWN_KEY else text[: _SHOWN_KEY - 1] + "…"


def _path(stack: list[list[Any]]) -> str:
    parts: list[str] = []
    for is_object, place in stack:
        if is_object:
            if place is not None:
                parts.append(("." if parts else "") + place)
        else:
            parts.append(f"[{place}]")
    return "".join(parts)


def _depth_message(max_depth: int) -> str:
    return _("nested deeper than %(limit)s levels") % {"limit": max_depth}


def _number_message(max_number_chars: int) -> str:
    return _("a number longer than %(limit)s characters") % {"limit": max_number_chars}


def _int(max_number_chars: int) -> Any:
    def read(text: str) -> int:
        if len(text) > max_number_chars:  # the scan refused it already; a last guard
            raise JsonRefused("", _number_message(max_number_chars))
        return int(text)

    return read


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonRefused("", _("the number %(number)s is too large") % {"number": text})
    return value


def _constant(text: str) -> Any:
    raise JsonRefused("", _("%(value)s is not a number JSON allows") % {"value": text})
