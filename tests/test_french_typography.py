"""The French catalogue follows French typography and one word per concept; French pages show
French numbers; names sort by the Unicode collation in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from kaiser_league.collation import name_key, sorted_by_name
from tests.test_translations import PO, po_entries
from tools.french_typography import fix, generated_problems, problems

ROOT = Path(__file__).resolve().parent.parent


def test_every_msgstr_follows_french_typography() -> None:
    """One apostrophe (’), a no-break space before : ; ? ! and inside « »."""
    bad = {
        str(entry["msgid"]): problems(text)
        for entry in po_entries(PO)
        for text in entry["msgstr"]  # type: ignore[union-attr]
        if problems(text)
    }
    assert bad == {}, "run tools/french_typography.py, then make messages"


@pytest.mark.parametrize(
    ("written", "typeset"),
    [
        ("Télécharger: CSV", "Télécharger\u00a0: CSV"),
        ("Télécharger : CSV", "Télécharger\u00a0: CSV"),
        ("Reprendre la main %(n)s?", "Reprendre la main %(n)s\u00a0?"),
        ("l'équipe", "l’équipe"),
        ("comme « 8 »", "comme «\u00a08\u00a0»"),
        # Not prose: a URL, a time format, a query string and a JSON key keep their colon.
        ("http://x/?show=1", "http://x/?show=1"),
        ("H:i", "H:i"),
        ('{\\"min_bid\\": 6}', '{\\"min_bid\\": 6}'),
    ],
)
def test_the_typography_tool(written: str, typeset: str) -> None:
    assert fix(written) == typeset
    assert fix(typeset) == typeset  # running it again changes nothing
    assert problems(typeset) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Victoire de %(winner)s.", True),  # "de Ann & Cat": the name decides the elision
        ("Un téléphone a dit que %(name)s le tient", True),
        ("Partie de Ann", True),
        ("jusqu’à ce que il parte", True),
        ("%(winner)s l’emportent.", False),
        ("Rôle inconnu.", False),
        ("terminez-la ou abandonnez-la", False),
        ("de huit mains, le onze", False),  # aspirated h, "onze": no elision
        ("Partie de %(n)s mains", False),
    ],
)
def test_the_tool_finds_a_missing_elision(text: str, found: bool) -> None:
    assert any("elision" in problem for problem in problems(text)) is found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('Écrit {\\"paramètre\\": valeur, ...}', True),  # a word in straight quotes
        ('tapez \\"passe\\"', True),
        ('un objet comme {\\"per_set\\": 25}', False),  # a code name: JSON as typed
        ("tapez « passe »", False),
    ],
)
def test_the_tool_finds_straight_quotes_around_words(text: str, found: bool) -> None:
    assert any("straight quotes" in problem for problem in problems(text)) is found


@pytest.mark.parametrize(
    ("source", "template", "found"),
    [
        ("{% blocktranslate %}Table {{ n }}{% endblocktranslate %}: {{ x }}", True, True),
        ('{% translate "Rules" %}; {{ x }}', True, True),
        ("{% blocktranslate %}Table {{ n }}:{% endblocktranslate %} {{ x }}", True, False),
        ('{% translate "Rules" %} · {{ x }}', True, False),
        ('text = "; ".join(groups)', False, True),
        ('text = name + ": " + score', False, True),
        ("text = semicolon_join(groups)", False, False),
        ('text = ", ".join(names)', False, False),
        ('header = "; ".join(parts)  # not prose', False, False),
    ],
)
def test_the_tool_finds_punctuation_the_code_adds(source: str, template: bool, found: bool):
    assert bool(generated_problems(source, template=template)) is found


def test_no_page_or_module_adds_a_semicolon_or_colon_to_translated_text() -> None:
    """French sets off "sièges 1 & 3 ; 2 & 4" and "Table 1 : Cat & Hélène 20": the punctuation
    is the translation's. (The rooms that write sentences; `kaiser_league` writes headers.)"""
    bad = [
        f"{path.relative_to(ROOT)} {problem}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for problem in generated_problems(path.read_text(encoding="utf-8"), template=True)
    ] + [
        f"{path.relative_to(ROOT)} {problem}"
        for room in ("leagues", "scorecards")
        for path in sorted((ROOT / room).rglob("*.py"))
        if "migrations" not in path.parts
        for problem in generated_problems(path.read_text(encoding="utf-8"), template=False)
    ]
    assert bad == []


def _msgstr(msgid: str) -> list[str]:
    return next(e["msgstr"] for e in po_entries(PO) if e["msgid"] == msgid)  # type: ignore[return-value]


def test_one_word_per_concept() -> None:
    # A bid that fails is a "chute" on the sheet and in the standings alike.
    assert _msgstr("Set") == ["Chute"] and _msgstr("Times set") == ["Chutes"]
    texts = [t for e in po_entries(PO) for t in e["msgstr"]]  # type: ignore[union-attr]
    assert not [t for t in texts if "en bas" in t.lower()]
    # A game record is a "fiche" (a "feuille" is the score sheet).
    assert not [t for t in texts if "feuille de partie" in t]


def test_finish_reasons_agree_with_a_plural_winner() -> None:
    """The reasons follow "Ann & Cat gagnent (...)": no verb that would need agreeing."""
    for reason in ("reached the target", "fell to the losing score", "kaiser bid"):
        text = _msgstr(reason)[0]
        assert not text.startswith(("a ", "est ")), text


@pytest.mark.parametrize(
    ("names", "ordered"),
    [
        (["Zoé", "Élise", "Anne"], ["Anne", "Élise", "Zoé"]),
        (["eve", "Émile", "Edgar", "zack"], ["Edgar", "Émile", "eve", "zack"]),
        (["Ökan", "Olga", "Oscar"], ["Ökan", "Olga", "Oscar"]),
    ],
)
def test_names_sort_with_their_letter(names: list[str], ordered: list[str]) -> None:
    assert sorted_by_name(names) == ordered
    assert name_key("Élise") < name_key("Zoé")
