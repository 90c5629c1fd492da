"""One sort order for people's names everywhere: the Unicode Collation Algorithm (pyuca, with
the default collation table), so "Élise" sorts with E, before "Zoé", in every language, and case
does not split a list in two. Lists, drop-downs, standings ties and exports all sort through
`name_key`; never sort names with plain string comparison."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

from django.forms.models import ModelChoiceIterator
from pyuca import Collator

from kaiser_league.inputs import ObjectChoiceField

T = TypeVar("T")


@cache
def _collator() -> Collator:
    # Loading the collation table takes a fifth of a second: once per process.
    return Collator()


def name_key(name: str) -> tuple[int, ...]:
    """The sort key of a name: accents and case only break ties between otherwise equal names."""
    return tuple(_collator().sort_key(name or ""))


def sorted_by_name(items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:
    """`items` in name order; `name` reads the name of an item (the item itself by default)."""
    return sorted(items, key=lambda item: name_key(name(item)))


class NameOrderedModelChoiceField(ObjectChoiceField):
    """A drop-down of model rows in `name_key` order of their labels (the database's ORDER BY
    knows nothing of accents); its value is an id in ASCII digits, like every object choice."""

    class iterator(ModelChoiceIterator):
        def __iter__(self):
            if self.field.empty_label is not None:
                yield ("", self.field.empty_label)
            rows = sorted(
                self.queryset, key=lambda row: name_key(self.field.label_from_instance(row))
            )
            for row in rows:
                yield self.choice(row)
