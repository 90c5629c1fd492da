"""Errors of the rules engine. Every message is meant for card players, and starts with what it
is about: the hand (`hand 3: ...`) or the top-level field (`rules: ...`, `seats: ...`).
`.field` names the input the web form shows the error next to.

Messages are English, translated when the error is raised by the translator installed in
`scorecards.rules.i18n` (the web app's: `main 3 : ...` in French); the prefix is translated
here, the rest by whoever raises the error."""

from __future__ import annotations

from typing import Any

from scorecards.rules.i18n import _


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

    def _text_state(self) -> dict[str, Any]:
        # Rebuilding translates the prefix again, in the language active then: keep the text
        # as it was raised instead (BaseException.__setstate__ sets `args` back).
        return {"args": self.args}


_SHOWN_LENGTH = 60


def shown(value: Any) -> str:
    """`value` as a message quotes it: its repr, cut short, and never the digits of a huge number
    (Python refuses to print more than 4300 of them, and no one wants to read them)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return _("a number too large")
    try:
        text = repr(value)
    except ValueError:  # a huge number inside a list
        return _("a value too large")
    return text if len(text) <= _SHOWN_LENGTH else text[: _SHOWN_LENGTH - 1] + "…"


def _without_prefix(field: str, message: str) -> str:
    prefix = f"{field}:"
    return message[len(prefix) :].lstrip() if message.startswith(prefix) else message


def _field_text(field: str, message: str) -> str:
    # Translators: the prefix of an error about a field of a game record; the field is the
    # record's key and stays as it is ("rules", "seats", "first_dealer", "hands", "format").
    return _("%(field)s: %(message)s") % {"field": field, "message": message}


def field_named(field: str, message: str) -> str:
    """`message` led by the hand field it is about (`five_hearts: the five of hearts went to ...`),
    for a message whose words describe the field without naming it: a reader (or a test, or a
    form placing the error) finds the field in the text as well as in `.field`."""
    return _field_text(field, message)


class RulesError(KaiserError):
    """A bad rules setting. `str(e)` is `rules: <message>`; `.setting` names the setting (None
    when the rules as a whole are wrong, e.g. not an object)."""

    def __init__(self, message: str, setting: str | None = None, field: str = "rules") -> None:
        self.setting = setting
        message = _without_prefix(field, message)
        super().__init__(message, field, _field_text(field, message))

    def __reduce__(self) -> tuple[Any, ...]:
        return (RulesError, (self.message, self.setting, self.field), self._text_state())


class RecordError(KaiserError):
    """A problem with a top-level field of a record (`seats`, `first_dealer`, `hands`, `format`).
    The message may be given with or without its `field:` prefix; `str(e)` always has it."""

    def __init__(self, field: str, message: str) -> None:
        message = _without_prefix(field, message)
        super().__init__(message, field, _field_text(field, message))

    def __reduce__(self) -> tuple[Any, ...]:
        return (RecordError, (self.field, self.message), self._text_state())


class HandError(KaiserError):
    """A hand that cannot be scored. `str(e) == f"hand {number}: {message}"` (in English);
    `.number` is the 1-based hand number and `.field` the hand field at fault (`tricks`, `bid`,
    `auction`, ...)."""

    def __init__(self, number: int, field: str, message: str) -> None:
        self.number = number
        # Translators: the prefix of every error about a hand ("hand 3: tricks must add up to
        # 8 (got 9)"); the message after it is translated on its own.
        text = _("hand %(number)s: %(message)s") % {"number": number, "message": message}
        super().__init__(message, field, text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (HandError, (self.number, self.field, self.message), self._text_state())
