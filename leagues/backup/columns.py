"""A backup's values checked as the columns of our models take them: the integer ranges of both
databases, the field's validators and choices, and the model's own field checks. Each refusal
names the value's path in the document."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from leagues.backup.fields import BackupError, _bool, _date, _moment, _obj, _text
from scorecards.rules import KaiserError, rules_build

# Column ranges of the integer fields (the same on SQLite and PostgreSQL).
_INT_RANGES: dict[str, tuple[int, int]] = {
    "PositiveSmallIntegerField": (0, 32767),
    "SmallIntegerField": (-32768, 32767),
    "PositiveIntegerField": (0, 2147483647),
    "IntegerField": (-2147483648, 2147483647),
    "BigIntegerField": (-(2**63), 2**63 - 1),
    "PositiveBigIntegerField": (0, 2**63 - 1),
}


def _field_check(model_field: models.Field, value: Any, path: str) -> Any:
    """`value` from the document as the column takes it, or BackupError naming `path`."""
    if value is None:
        if model_field.null:
            return None
        raise BackupError(path, "must not be empty")
    kind = model_field.get_internal_type()
    if kind in _INT_RANGES:
        low, high = _INT_RANGES[kind]
        if isinstance(value, bool) or not isinstance(value, int):
            raise BackupError(path, "expected a whole number")
        for validator in model_field.validators:
            try:
                validator(value)
            except ValidationError as exc:
                raise BackupError(path, " ".join(exc.messages)) from exc
        if not low <= value <= high:
            raise BackupError(path, f"expected a number from {low} to {high}")
    elif kind == "BooleanField":
        value = _bool(value, path)
    elif kind == "DateField":
        value = _date(value, path)
    elif kind == "DateTimeField":
        value = _moment(value, path)
    elif kind == "UUIDField":
        try:
            value = uuid.UUID(str(value))
        except ValueError as exc:
            raise BackupError(path, "expected a UUID") from exc
    elif kind == "JSONField":
        if model_field.name == "rules":
            try:
                rules_build(_obj(value, path))
            except KaiserError as exc:
                raise BackupError(path, str(exc)) from exc
    else:
        value = _text(
            value, path, max_length=model_field.max_length or 10_000, required=not model_field.blank
        )
    if (
        model_field.choices
        and not (value == "" and model_field.blank)
        and value not in {choice for choice, _label in model_field.flatchoices}
    ):
        raise BackupError(
            path, f"expected one of {', '.join(str(c) for c, _ in model_field.flatchoices)}"
        )
    return value


def _model_check(model: type[models.Model], values: dict[str, Any], path: str) -> None:
    """The model's own checks of its fields (as a form's full_clean runs them) on `values`."""
    given = set(values)
    try:
        model(**values).clean_fields(
            exclude=[f.name for f in model._meta.concrete_fields if f.name not in given]
        )
    except ValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise BackupError(f"{path}.{name}", " ".join(messages)) from exc
