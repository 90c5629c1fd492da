"""A tournament table's label in the reader's language. The night's service stores the label in
its canonical English words ("Round 2 · Table 3", `TABLE_WORDS`); every page shows it worded
anew in the viewer's language (`table_label_worded`). A label stored worded in any language of
the site (older games, drawn while a director read French) is recognised too; a label a person
typed is shown as typed."""

from __future__ import annotations

import functools
import re

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

TABLE_WORDS = gettext_noop("Round %(round)s · Table %(table)s")


def table_label_stored(round_number: int, table_number: int) -> str:
    """The label a tournament table's game keeps: canonical words, worded again when shown."""
    return TABLE_WORDS % {"round": round_number, "table": table_number}


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """`TABLE_WORDS` as worded in each language of the site, numbers as groups (the catalogues
    do not change while the process runs)."""
    worded = {TABLE_WORDS}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            worded.add(_(TABLE_WORDS))
    patterns = []
    for words in sorted(worded):
        regex = re.escape(words)
        regex = regex.replace(re.escape("%(round)s"), r"(?P<round>\d{1,6})")
        regex = regex.replace(re.escape("%(table)s"), r"(?P<table>\d{1,6})")
        # A space in the words matches any space a catalogue or an older label put there.
        regex = regex.replace(r"\ ", r"\s").replace("\u00a0", r"\s")
        patterns.append(re.compile(regex + r"\Z"))
    return tuple(patterns)


def table_label_worded(label: str) -> str:
    """`label` in the active language when it is a tournament table's round and table (in the
    words of any language of the site), else as stored."""
    for pattern in _patterns():
        found = pattern.match(label.strip())
        if found is not None:
            return _(TABLE_WORDS) % {
                "round": int(found["round"]),
                "table": int(found["table"]),
            }
    return label
