"""The pieces of a club backup every part shares: the format name, the refusal, and the checks
of one value (text, slug, date, moment, seat) that name the place they refuse."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, overload

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.utils.dateparse import parse_date, parse_datetime

from scorecards.rules.record import PLAYED_ON_FIRST, PLAYED_ON_LAST

CLUB_FORMAT = "kaiser-club/1"

# Days and moments a backup may name: the years a game record may give (`played_on`), so that
# no page ever shifts a date past the calendar's ends (a +23:59 offset in year 1 or 9999).
FIRST_DAY = PLAYED_ON_FIRST
LAST_DAY = PLAYED_ON_LAST


class BackupError(ValueError):
    """A backup document that cannot be restored. `str(e)` names the place, e.g.
    `games[3].record: hand 2: tricks must ...`; `.path` is that place alone."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


class Accounts:
    """The accounts a document names: the club's members, and every other account a row links
    to (a removed member who started a game, claimed a seat or corrected a hand), gathered as
    the export names them so the document can list them (`former_members`)."""

    def __init__(self, members: set[int]) -> None:
        self.members = members
        self.former: dict[int, Any] = {}

    def name(self, user) -> str | None:
        """The account's username (None for no one); a non-member is remembered as former."""
        if user is None:
            return None
        if user.pk not in self.members:
            self.former[user.pk] = user
        return user.get_username()

    def former_export(self) -> list[dict[str, str]]:
        return [
            {
                "username": user.get_username(),
                "first_name": user.first_name,
                "last_name": user.last_name,
            }
            for user in sorted(self.former.values(), key=lambda u: u.get_username())
        ]


def _obj(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BackupError(path, "expected an object")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise BackupError(path, "expected a list")
    return value


@overload
def _text(
    value: Any, path: str, *, max_length: int, required: bool = True, null: Literal[False] = False
) -> str: ...
@overload
def _text(
    value: Any, path: str, *, max_length: int, required: bool = True, null: bool
) -> str | None: ...
def _text(
    value: Any, path: str, *, max_length: int, required: bool = True, null: bool = False
) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise BackupError(path, "expected text")
    if required and not value.strip():
        raise BackupError(path, "must not be empty")
    if len(value) > max_length:
        raise BackupError(path, f"longer than {max_length} characters")
    if "\x00" in value:
        raise BackupError(path, "contains a NUL character")
    if not _encodable(value):
        raise BackupError(path, "contains a lone surrogate (not valid Unicode text)")
    return value


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_text_check(value: Any, path: str) -> None:
    """Every text (keys too) in a JSON value storable: no NUL, no lone surrogate; the refusal
    names the exact place. Iterative, so a deeply nested value cannot exhaust the stack."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BackupError(where, "contains a NUL character")
            if not _encodable(item):
                raise BackupError(where, "contains a lone surrogate (not valid Unicode text)")
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                inner_path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and (not _encodable(key) or "\x00" in key):
                    raise BackupError(where, "a key contains a NUL character or a lone surrogate")
                stack.append((inner, inner_path))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{i}]") for i, inner in enumerate(item))


def _slug(value: Any, path: str) -> str:
    """A club's short name as its pages' addresses take it: letters, digits, - and _."""
    value = _text(value, path, max_length=60)
    try:
        validate_slug(value)
    except ValidationError as exc:
        raise BackupError(path, "use only letters, digits, hyphens and underscores") from exc
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise BackupError(path, "expected true or false")
    return value


@overload
def _date(value: Any, path: str, *, null: Literal[False] = False) -> datetime.date: ...
@overload
def _date(value: Any, path: str, *, null: bool) -> datetime.date | None: ...
def _date(value: Any, path: str, *, null: bool = False) -> datetime.date | None:
    if value is None and null:
        return None
    try:
        parsed = parse_date(value) if isinstance(value, str) else None
    except ValueError:  # well formed but no such day, e.g. 2026-02-30
        parsed = None
    if parsed is None:
        raise BackupError(path, "expected a date such as 2026-09-01")
    if not FIRST_DAY <= parsed <= LAST_DAY:
        raise BackupError(path, f"expected a day from {FIRST_DAY} to {LAST_DAY}")
    return parsed


def _moment(value: Any, path: str) -> datetime.datetime | None:
    """An ISO date-time with its offset, or None (not given: the import time is kept)."""
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise BackupError(path, "expected a date and time with its offset (ISO 8601)")
    try:
        day = parsed.astimezone(datetime.UTC).date()
    except OverflowError:  # e.g. year 1 at +23:59: before the calendar's first moment in UTC
        day = None
    if day is None or not FIRST_DAY <= day <= LAST_DAY:
        raise BackupError(path, f"expected a moment from {FIRST_DAY} to {LAST_DAY}")
    return parsed


# A game's lifecycle as the table left it (the hands give back the rest).
GAME_STATE = ("status", "finish_reason", "winner", "abandon_reason")


def _seat(value: Any, path: str, parsed) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(parsed.seats):
        raise BackupError(path, f"expected a seat from 0 to {len(parsed.seats) - 1}")
    return value


def _stamp(model, pk: int, **fields: Any) -> None:
    """Put back the document's values that create() cannot take (auto_now_add times) or that a
    later step sets (a finished game's time). A value of None keeps what the write gave."""
    given = {field: value for field, value in fields.items() if value is not None}
    if given:
        model.objects.filter(pk=pk).update(**given)
