"""Apply the French catalogue's typography to every msgstr of locale/fr/LC_MESSAGES/django.po:

- one apostrophe, the typographic one (’), never the straight one (');
- a no-break space (U+00A0) before : ; ? ! when they end a clause (followed by a space, the end
  of the string, a closing bracket or a tag), never an ordinary space and never none (not in
  code written in a message, such as `{"setting": value}`);
- no-break spaces inside « guillemets »;
- no "de", "que", "le", "la" before a placeholder that is a name (`de %(winner)s`): the name
  decides the elision ("d’Ann", "de Bob"), which a translation cannot know, so such a message is
  phrased without it ("%(winner)s l’emportent"); and none before a word starting with a vowel
  ("de Ann", "que il");
- straight double quotes only around a JSON example's key (`{"min_bid": 6}`), never around words
  (`{"paramètre": valeur}`, `"passe"`): words take « guillemets ».

And outside the catalogue, the strings the code puts together (`generated_problems`): a
semicolon or colon added after a translated string in a template (`{% endblocktranslate %}:`)
or joined in Python (`"; ".join(...)`) never gets French's no-break space; the punctuation
belongs inside the translated string, or the join goes through `scorecards.list_words`.

Run it after filling new strings (then `make messages` compiles them):
    .venv/bin/python tools/french_typography.py [path/to/django.po]
`tests/test_french_typography.py` checks the catalogue with the same rules (`problems`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PO = Path(__file__).resolve().parents[1] / "locale" / "fr" / "LC_MESSAGES" / "django.po"
NBSP = "\u00a0"
# Punctuation that takes a no-break space before it when it closes a clause. Not "http://",
# "H:i" or "?show=": there the next character is not a space, a bracket, a tag or the end.
_PUNCT = re.compile(r"[ \u00a0\u202f]*([:;?!])(?=$|[ )<\\\"»]|\\n)")
_MSGSTR = re.compile(r'^(msgstr(?:\[\d+\])?) "(.*)"$')


def fix(text: str) -> str:
    """The msgstr `text` (as written in the .po file, escapes included) with French typography."""
    text = text.replace("'", "’")
    text = re.sub(r"«[ \u00a0\u202f]*", "«" + NBSP, text)
    text = re.sub(r"[ \u00a0\u202f]*»", NBSP + "»", text)

    def space(match: re.Match[str]) -> str:
        if _is_code(text, match.start()):
            return match.group(0)
        return NBSP + match.group(1)

    return _PUNCT.sub(space, text)


def _is_code(text: str, start: int) -> bool:
    # Nothing before it to keep apart, or a JSON key (`"setting": value`).
    return start == 0 or text[:start].endswith('\\"')


# Placeholders that stand for a name (a player, a side, a season, a club).
_NAMES = (
    "winner|loser|season|name|names|player|who|club|partner|first|second|bidder|dealer|side"
    "|sides|team|night"
)
_ELIDED_BEFORE_NAME = re.compile(rf"\b(?:de|que|le|la|ce) %\((?:{_NAMES})\)s", re.IGNORECASE)
# "h" is left out: an aspirated h ("de huit", "le héros") takes no elision.
_ELIDED_BEFORE_VOWEL = re.compile(
    r"(?<![\w’'-])(?:de|que|le|la|je|ne|se|me|te|ce) (?!onze|onzième|oui\b)"
    r"(?=[aeiouyàâéèêëîïôûAEIOUYÀÂÉÈÊËÎÏÔÛ]\w)"
)


# Straight double quotes (escaped in the .po text) around a code name that a JSON example
# gives as a key (`{"per_set": 25}`).
_CODE_QUOTED = re.compile(r'\\"[a-z_][a-z0-9_]*\\":')


def problems(text: str) -> list[str]:
    """What breaks the rules in one msgstr (empty when it follows them)."""
    found = []
    if _ELIDED_BEFORE_NAME.search(text):
        found.append("de/que/le/la before a name: the elision depends on the name")
    if _ELIDED_BEFORE_VOWEL.search(text):
        found.append("no elision before a vowel")
    if "'" in text:
        found.append("straight apostrophe")
    if '\\"' in _CODE_QUOTED.sub("", text):
        found.append("straight quotes around words: « » (code names only in straight quotes)")
    if re.search(r"«(?!\u00a0\S)|\s\s»|(?<!\u00a0)»", text):
        found.append("no no-break space inside « »")
    for match in _PUNCT.finditer(text):
        if not _is_code(text, match.start()) and match.group(0) != NBSP + match.group(1):
            found.append(f"no no-break space before {match.group(1)!r}")
    return found


# A semicolon or colon right after a translated string in a template, or a list joined with one
# in Python: French would need a no-break space the code cannot give.
_AFTER_TRANSLATION = re.compile(
    r"(?:\{%\s*endblocktranslate\s*%\}|\{%\s*translate\s+(?:\"[^\"]*\"|'[^']*')[^%]*%\})[ ]?[:;]"
)
_JOINED = re.compile(r"""(?<![\w])(["'])[ ]?[;:][ ]?\1\s*(?:\.join\(|\+)""")
# A line that joins code, not prose (a header's parts) says so.
_NOT_PROSE = "# not prose"


def generated_problems(source: str, *, template: bool) -> list[str]:
    """The places in a template's or a Python module's `source` where a semicolon or colon is
    put after translated text by the code (see the module docstring), one line each."""
    found = []
    for number, line in enumerate(source.split("\n"), 1):
        if _NOT_PROSE in line:
            continue
        pattern = _AFTER_TRANSLATION if template else _JOINED
        if pattern.search(line):
            found.append(f"line {number}: punctuation outside the translated string")
    return found


def msgstrs(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line indexes of each msgstr (its continuation lines included)."""
    spans = []
    i = 0
    while i < len(lines):
        if _MSGSTR.match(lines[i]):
            j = i
            while j + 1 < len(lines) and lines[j + 1].startswith('"'):
                j += 1
            spans.append((i, j))
            i = j + 1
        else:
            i += 1
    return spans


def is_header(lines: list[str], first: int) -> bool:
    """True for the catalogue's header (the msgstr of the empty msgid)."""
    return (
        first > 0
        and lines[first - 1] == 'msgid ""'
        and (first < 2 or not lines[first - 2].startswith(("msgid", '"')))
    )


def joined(lines: list[str], first: int, last: int) -> tuple[str, str]:
    """The msgstr keyword and its whole text (continuation lines joined)."""
    match = _MSGSTR.match(lines[first])
    assert match is not None
    text = match.group(2) + "".join(line[1:-1] for line in lines[first + 1 : last + 1])
    return match.group(1), text


def main(path: Path = PO) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    out: list[str] = []
    previous = 0
    changed = 0
    for first, last in msgstrs(lines):
        out.extend(lines[previous:first])
        if is_header(lines, first):
            out.extend(lines[first : last + 1])
            previous = last + 1
            continue
        keyword, text = joined(lines, first, last)
        new = fix(text)
        if new != text:
            changed += 1
            out.append(f'{keyword} "{new}"')
        else:
            out.extend(lines[first : last + 1])
        previous = last + 1
    out.extend(lines[previous:])
    path.write_text("\n".join(out), encoding="utf-8")
    print(f"{path}: {changed} msgstr changed")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else PO))
