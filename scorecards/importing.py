"""Reading a `kaiser-game/1` record that a person uploads or pastes: the form of the import page,
and the checks that turn any bytes into either a JSON object or one clear message.

The record's content is judged by the rules engine (through `scorecards.services.game_import`);
this module only makes sure that what reaches the engine is a JSON object of sane size that the
database can store (no NUL characters, which PostgreSQL refuses in text and JSON).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from leagues.models import Club, Season

# A real record of a long game is about 20 kB; anything much larger is not a game.
MAX_RECORD_BYTES = 256 * 1024
# The engine shows the value at fault in its message; a hostile value must not flood the page.
MAX_MESSAGE_CHARS = 300


def message_shorten(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def _has_nul(value: Any) -> bool:
    """True if any text in the JSON value (keys included) holds a NUL character. Iterative: a
    deeply nested value must not exhaust the stack here."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def record_from_text(text: str) -> dict[str, Any]:
    """The JSON object in `text`, or ValidationError with a message for the person importing."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidationError(
            _("This is not valid JSON (line %(line)s, column %(column)s: %(error)s)."),
            code="json",
            params={"line": exc.lineno, "column": exc.colno, "error": exc.msg},
        ) from exc
    except RecursionError as exc:
        raise ValidationError(
            _("This JSON is nested too deeply to be a game."), code="deep"
        ) from exc
    except ValueError as exc:  # e.g. a number with more digits than Python reads
        raise ValidationError(
            _("This is not a JSON record we can read: %(error)s"),
            code="json",
            params={"error": message_shorten(str(exc))},
        ) from exc
    if not isinstance(value, dict):
        raise ValidationError(
            _("A game record is a JSON object ({…}) with its rules, seats and hands."),
            code="not_object",
        )
    if _has_nul(value):
        raise ValidationError(_("The record contains a NUL character."), code="nul")
    return value


class GameImportForm(forms.Form):
    """A record file or pasted record (exactly one), and optionally a season of the club."""

    file = forms.FileField(label=_("Record file"), required=False)
    text = forms.CharField(
        label=_("or paste the record"),
        required=False,
        strip=False,
        max_length=MAX_RECORD_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    season = forms.ModelChoiceField(
        label=_("Season"), queryset=Season.objects.none(), required=False
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Only this club's seasons: another club's season id is "not one of the choices".
        self.fields["season"].queryset = Season.objects.filter(club=club)
        self.fields["season"].empty_label = _("no season")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        text = cleaned.get("text") or ""
        if self.errors:
            return cleaned
        if upload and text.strip():
            raise ValidationError(_("Upload a file or paste a record, not both."), code="both")
        if not upload and not text.strip():
            raise ValidationError(_("Upload a record file or paste a record."), code="empty")
        if upload:
            if upload.size > MAX_RECORD_BYTES:
                raise ValidationError(
                    _("The file is too large for a game record (at most %(kb)s kB)."),
                    code="too_large",
                    params={"kb": MAX_RECORD_BYTES // 1024},
                )
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise ValidationError(
                    _("The file is not UTF-8 text: a record is a JSON text file."), code="utf8"
                ) from exc
        cleaned["record"] = record_from_text(text)
        return cleaned
