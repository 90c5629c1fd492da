"""The auction's calls as a table types them, in any language of the site: "passe", "8 sans",
"8 bas" read as the engine's "pass", "8 no", "8 low" (the engine reads only its own words,
`scorecards.rules.calls.call_parse`). The hint under the auction shows the viewer's words."""

from __future__ import annotations

import functools
import re

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, pgettext

_BID = re.compile(r"[0-9]{1,3}")  # the number of a bid as the engine reads it
# The engine's words of a call (`call_parse`), each with the context its translation carries.
_ENGINE_WORDS = {"pass": "", "no": "auction call", "low": "auction call"}


@functools.cache
def _words() -> dict[str, str]:
    """Every language's word for each engine word, lower-cased -> the engine's word (the
    catalogues do not change while the process runs)."""
    found: dict[str, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for word, context in _ENGINE_WORDS.items():
                worded = pgettext(context, word) if context else gettext(word)
                found.setdefault(" ".join(worded.lower().split()), word)
    for word in _ENGINE_WORDS:
        found[word] = word
    return found


def call_words_read(call: str) -> str:
    """One typed call in the engine's words: a localised pass, or a bid followed by a localised
    kind ("8 sans" -> "8 no"); anything else as typed, for the engine to accept or refuse."""
    words = _words()
    typed = " ".join(call.lower().split())
    if typed in words:
        return words[typed]
    number, _space, rest = typed.partition(" ")
    if _BID.fullmatch(number) and rest in words and words[rest] != "pass":
        return f"{number} {words[rest]}"
    return call
