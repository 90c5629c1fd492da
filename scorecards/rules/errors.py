"""Errors of the rules engine. Every message is plain English meant for card players, and starts
with what it is about: the hand (`hand 3: ...`) or the top-level field (`rules: ...`, `seats: ...`).
`.field` names the input the web form shows the error next to."""

from __future__ import annotations

from typing import Any


class KaiserError(ValueError):
    """Base of all engine errors; `str(e)` is the full user message, `.message` the part after
    the `hand N:` / `field:` prefix, `.field` the input at fault."""

    def __init__(self, message: str, field: str = "", text: str | None = None) -> None:
        self.field = field
        self.message = message
        super().__init__(message if text is None else text)

    def __reduce__(self) -> tuple[Any, ...]:
        # The arguments differ from `args`, so say how to rebuild (pickle, copy, Celery).
        return (KaiserError, (self.message, self.field, str(self)))


def _without_prefix(field: str, message: str) -> str:
    prefix = f"{field}:"
    return message[len(prefix) :].lstrip() if message.startswith(prefix) else message


class RulesError(KaiserError):
    """A bad rules setting. `str(e)` is `rules: <message>`; `.setting` names the setting (None
    when the rules as a whole are wrong, e.g. not an object)."""

    def __init__(self, message: str, setting: str | None = None, field: str = "rules") -> None:
        self.setting = setting
        message = _without_prefix(field, message)
        super().__init__(message, field, f"{field}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (RulesError, (self.message, self.setting, self.field))


class RecordError(KaiserError):
    """A problem with a top-level field of a record (`seats`, `first_dealer`, `hands`, `format`).
    The message may be given with or without its `field:` prefix; `str(e)` always has it."""

    def __init__(self, field: str, message: str) -> None:
        message = _without_prefix(field, message)
        super().__init__(message, field, f"{field}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (RecordError, (self.field, self.message))


class HandError(KaiserError):
    """A hand that cannot be scored. `str(e) == f"hand {number}: {message}"`; `.number` is the
    1-based hand number and `.field` the hand field at fault (`tricks`, `bid`, `auction`, ...)."""

    def __init__(self, number: int, field: str, message: str) -> None:
        self.number = number
        super().__init__(message, field, f"hand {number}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (HandError, (self.number, self.field, self.message))
