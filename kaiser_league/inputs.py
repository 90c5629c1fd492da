"""Reading what a user sends: whole numbers and names, the same way in every view and form.

Numbers: ASCII digits only (Python's `int()` also reads "٣" and `str.isdigit()` is true for
"²", which `int()` then refuses), an optional leading minus where the range allows it, and a
bound on both sides checked before anything is stored (a database integer is far smaller than
what `int()` can make). Names: no control, format (zero-width, bidi override), surrogate or
private-use characters, and a length limit that refuses rather than cuts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MAX_FORM_DIGITS = 18  # beyond, a form number is out of any range (and of a 64-bit integer)
_WHOLE = re.compile(r"-?[0-9]+")
# Control (Cc), format (Cf: zero-width spaces and joiners, bidi embeddings/overrides/isolates,
# the byte order mark), surrogates (Cs), private use (Co), line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


class InputError(ValueError):
    """A refused value; `field` names it and `message` (translated) says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def number_parse(raw: Any, *, field: str, minimum: int, maximum: int) -> int:
    """The whole number written in `raw` (surrounding spaces allowed), within
    [minimum, maximum]. Raises InputError naming `field` otherwise: not text, not ASCII digits
    (with a minus only if `minimum` < 0), or out of range. Never builds a huge int."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not _WHOLE.fullmatch(text):
        raise InputError(field, _("Enter a whole number."))
    digits = text.lstrip("-")
    longest = max(len(str(abs(minimum))), len(str(abs(maximum))))
    # Leading zeros are harmless, but a 5,000-digit string must never reach int().
    if len(digits) > longest + 8 or not minimum <= int(text) <= maximum:
        raise InputError(field, _out_of_range(minimum, maximum))
    return int(text)


def _out_of_range(minimum: int, maximum: int) -> str:
    return _("Enter a number from %(minimum)s to %(maximum)s.") % {
        "minimum": minimum,
        "maximum": maximum,
    }


def number_or_none(data: Mapping[str, Any], name: str, *, minimum: int, maximum: int) -> int | None:
    """`data[name]` read by number_parse, or None when it is absent, empty or refused (for
    optional navigation values such as a move or a page, where a bad one is just ignored)."""
    try:
        return number_parse(data.get(name, ""), field=name, minimum=minimum, maximum=maximum)
    except InputError:
        return None


def name_check(value: Any, *, field: str, max_length: int) -> str:
    """`value` with surrounding white space removed, if it is a usable name: not empty, at most
    `max_length` characters, no control, zero-width, bidi-control, surrogate, private-use or
    line-separator characters. Raises InputError naming `field` otherwise (never cuts)."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InputError(field, _("This is required."))
    if len(text) > max_length:
        raise InputError(
            field,
            _("At most %(limit)s characters, please (this has %(length)s).")
            % {"limit": max_length, "length": len(text)},
        )
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise InputError(
                field,
                _("Remove the invisible or control character %(code)s.")
                % {"code": f"U+{ord(char):04X}"},
            )
    return text


class WholeNumberField(forms.IntegerField):
    """An IntegerField that reads ASCII digits only and always has both bounds."""

    default_error_messages = {"invalid": gettext_lazy("Enter a whole number.")}

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not _WHOLE.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        if len(text.lstrip("-")) > MAX_FORM_DIGITS:
            # Written right, but far out of range: say the range, never build the number.
            # Both bounds are required by __init__.
            assert self.min_value is not None and self.max_value is not None
            raise ValidationError(_out_of_range(self.min_value, self.max_value), code="range")
        return int(text)


class NameField(forms.CharField):
    """A name: refused (not cut) when too long or when it holds invisible/control characters."""

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        super().__init__(max_length=max_length, **kwargs)
        # The browser's maxlength would cut silently what the server refuses with a reason.
        self.widget.attrs.pop("maxlength", None)

    def widget_attrs(self, widget: forms.Widget) -> dict:
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs

    def validate(self, value: str) -> None:
        super().validate(value)
        if value in self.empty_values:
            return
        try:
            assert self.max_length is not None  # required by __init__
            name_check(value, field="", max_length=self.max_length)
        except InputError as error:
            raise ValidationError(error.message, code="invalid") from None


class ObjectChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField whose value must be an id written in ASCII digits ("٣" would
    otherwise select object 3, and a 5,000-digit id reach int())."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not text.isascii() or not text.isdigit() or len(text) > MAX_FORM_DIGITS:
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": text[:20]},
            )
        return super().to_python(text)


def model_choice_field(fields: Mapping[str, forms.Field], name: str) -> forms.ModelChoiceField:
    """The form's field `name`, known to be a model choice field (its queryset is set per
    request)."""
    field = fields[name]
    assert isinstance(field, forms.ModelChoiceField)
    return field


def choice_field(fields: Mapping[str, forms.Field], name: str) -> forms.ChoiceField:
    """The form's field `name`, known to be a choice field (its choices are set per request)."""
    field = fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field
