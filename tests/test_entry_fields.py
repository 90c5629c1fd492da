"""The blank tap fields drawn once per process (scorecards.entry_fields) are exactly what the
template draws live, for every preset and language; a form with values, errors or a value of
unknown kind is drawn live; the key never skips an item the fields read. The rules in words,
kept per rules and language, are the engine's words in that language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import get_template
from django.utils import translation
from django.utils.functional import lazy

from scorecards import entry_fields
from scorecards.entry_fields import FIELDS_TEMPLATE, NOT_READ, blank_fields_html
from scorecards.models import Game
from scorecards.rules import PRESETS, game_score, rules_build
from scorecards.rules.catalogue import rules_describe
from scorecards.services import game_start
from scorecards.sheet_context import entry_context, rules_words
from tests.conftest import client_for

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@pytest.fixture(autouse=True)
def _fresh() -> None:
    entry_fields.forget()


def _entry(preset: str, **given) -> dict:
    rules = rules_build({"preset": preset})
    names = NAMES[: rules.seats]
    score = game_score(rules, [], 0)
    entry = entry_context(Game(first_dealer=0), rules, score, names, **given)
    return entry


def _live(entry: dict) -> str:
    return get_template(FIELDS_TEMPLATE).render({"entry": entry})


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_kept_fields_are_what_the_template_draws(preset: str, language: str) -> None:
    with translation.override(language):
        entry = _entry(preset)
        first = blank_fields_html(entry)
        again = blank_fields_html(_entry(preset))  # a new entry of the same form: kept
        assert first is not None and first == _live(entry)
        assert again is first
        assert len(entry_fields._drawn) == 1


def test_each_language_has_its_own_fields() -> None:
    with translation.override("en"):
        english = blank_fields_html(_entry("standard"))
    with translation.override("fr"):
        french = blank_fields_html(_entry("standard"))
    assert english is not None and french is not None
    assert "Bidder" in english and "Bidder" not in french
    with translation.override("fr"):
        assert french == _live(_entry("standard"))


def test_names_and_presets_make_other_forms() -> None:
    standard = blank_fields_html(_entry("standard"))
    entry = _entry("standard")
    entry["seats"] = [(0, "Zoé <b>"), *entry["seats"][1:]]
    renamed = blank_fields_html(entry)
    assert renamed is not None and standard is not None and renamed != standard
    assert "Zoé &lt;b&gt;" in renamed
    assert len(entry_fields._drawn) == 2


def test_a_form_with_values_or_errors_is_drawn_live() -> None:
    assert blank_fields_html(_entry("standard", values={"bidder": 1})) is None
    assert blank_fields_html(_entry("standard", errors={"bid": ["missing"]})) is None
    assert not entry_fields._drawn


def test_lazy_words_are_keyed_by_their_text_and_other_objects_are_drawn_live() -> None:
    words = {"one": "passe", "two": "donne"}
    text = lazy(lambda key: words[key], str)
    entry = _entry("standard")
    entry["misdeals"] = [("a", text("one"))]
    first = blank_fields_html(entry)
    entry["misdeals"] = [("a", text("two"))]
    second = blank_fields_html(entry)
    assert first is not None and second is not None
    assert "passe" in first and "donne" in second
    entry["misdeals"] = [("a", object())]
    assert blank_fields_html(entry) is None


def test_the_fields_read_no_item_left_out_of_the_key() -> None:
    folder = Path(settings.BASE_DIR) / "templates" / "scorecards"
    read: set[str] = set()
    for name in ("_hand_fields", "_hand_habits", "_hand_sold", "_card_blank", "_field_error"):
        text = (folder / f"{name}.html").read_text()
        read |= set(re.findall(r"entry\.([a-z_0-9]+)", text))
        # Every template the fields include is among those read here.
        for included in re.findall(r'include "scorecards/(_[a-z_]+)\.html"', text):
            assert included in {"_hand_habits", "_hand_sold", "_card_blank", "_field_error"}
    assert read and not read & NOT_READ


def test_the_sheet_page_shows_the_kept_fields(club, players, standard_rules, alice) -> None:
    game = game_start(seats=players, rules=standard_rules, club=club, created_by=alice)
    client = client_for(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    [kept] = entry_fields._drawn.values()
    assert str(kept) in page
    # The next page (a new idempotency key, the same form) draws nothing new.
    client.get(f"/games/{game.pk}/")
    assert len(entry_fields._drawn) == 1


def test_the_rules_in_words_are_kept_per_language() -> None:
    rules = rules_build({"preset": "standard", "min_bid": 6, "cover_three": True})
    words = {}
    for language in ("en", "fr", "en"):
        with translation.override(language):
            words[language] = rules_words(rules, translation.get_language())
            assert words[language] == rules_describe(rules)
    assert words["en"] != words["fr"]
