"""The settings and presets described for people: what a rules form shows, and the rules said
in words."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from scorecards.rules import (
    BOUNDS,
    PRESETS,
    SETTINGS,
    Rules,
    card_names,
    presets_catalogue,
    rules_build,
    rules_changes,
    rules_describe,
    settings_catalogue,
)
from scorecards.rules.catalogue import GROUPS, SETTING_KINDS, group_labels

from .strategies import rules_strategy


def test_every_setting_once_in_order() -> None:
    assert tuple(s.key for s in settings_catalogue()) == SETTINGS


@pytest.mark.parametrize("setting", settings_catalogue(), ids=lambda s: s.key)
def test_each_setting_is_described(setting) -> None:
    assert setting.kind in SETTING_KINDS
    assert setting.group in GROUPS
    assert setting.label and setting.help.endswith(".")
    assert setting.default == getattr(Rules(), setting.key)
    if setting.kind in ("int", "optional_int"):
        assert (setting.minimum, setting.maximum) == BOUNDS[setting.key]
        assert not setting.choices
    else:
        assert setting.minimum is None and setting.maximum is None
    if setting.kind == "choice":
        for value, label in setting.choices:
            assert rules_build({setting.key: value} | _fit(setting.key, value))
            assert label
    json.dumps(setting.as_dict())


def _fit(key: str, value: str) -> dict:
    """What else a choice needs to be valid on the standard game."""
    if key == "partnership" and value == "triples":
        return {"seats": 6}
    return {}


KINDS = {
    "seats": "int",
    "partnership": "choice",
    "target": "int",
    "nt_target": "optional_int",
    "lose_at": "optional_int",
    "no_trump": "bool",
    "kaiser_bid": "choice",
    "dealer_sells": "bool",
}


@pytest.mark.parametrize(("key", "kind"), KINDS.items())
def test_kinds(key: str, kind: str) -> None:
    assert {s.key: s.kind for s in settings_catalogue()}[key] == kind


def test_derived_settings_are_marked() -> None:
    derived = {s.key for s in settings_catalogue() if s.derived}
    assert derived == {"partnership", "tricks_per_hand", "nt_bid_out", "lose_at"}


def test_groups_have_headings() -> None:
    assert set(group_labels()) == set(GROUPS)


def test_every_preset_has_a_name_and_a_line() -> None:
    presets = presets_catalogue()
    assert [p.key for p in presets] == list(PRESETS)
    assert len({p.name for p in presets}) == len(presets)
    for preset in presets:
        assert preset.name and preset.description.endswith(".")
        assert rules_build({"preset": preset.key, **preset.changes}).preset == preset.key
        json.dumps(preset.as_dict())
    named = {p.key: p for p in presets}
    assert named["saskatchewan"].name == "Saskatchewan"
    assert "34 cards" in named["saskatchewan"].description
    assert named["lost-heir"].name == "Lost Heir"


DESCRIBED = [
    ({}, "Standard"),
    ({"preset": "lost-heir"}, "Lost Heir"),
    ({"min_bid": 6, "cover_three": True}, "Standard · Minimum bid: 6 · Cover the three: on"),
    ({"preset": "pagat", "target": 69}, "Pagat · Target: 69"),  # lose_at stays off: no word
    (
        {"target": 69, "nt_target": None},
        "Standard · Target: 69 · Target after a no-trump bid: none",
    ),
    ({"target": 60, "lose_at": -80}, "Standard · Target: 60 · Lose at: -80"),
    ({"seats": 6, "partnership": "triples"}, "Standard · Players: 6 · Partnership: Triples"),
    (
        {"preset": "lost-heir", "partnership": "individual"},
        "Lost Heir · Partnership: Each for themself",
    ),
    ({"kaiser_bid": "solo"}, "Standard · Kaiser bid: Solo"),
    ({"preset": "standard", "overtricks": False}, "Standard · Overtricks count: off"),
]


@pytest.mark.parametrize(("data", "words"), DESCRIBED, ids=[w for _, w in DESCRIBED])
def test_rules_in_words(data: dict, words: str) -> None:
    assert rules_describe(rules_build(data)) == words


@given(rules_strategy())
def test_changes_rebuild_the_rules(rules: Rules) -> None:
    changes = rules_changes(rules)
    assert rules_build({"preset": rules.preset, **changes}) == rules
    assert set(changes) <= set(SETTINGS)
    assert rules_describe(rules).startswith(rules_describe(rules_build({"preset": rules.preset})))


def test_card_names() -> None:
    assert card_names(rules_build({"preset": "lost-heir"})) == ("the Lost Heir", "the Wrong Boy")
    assert card_names(rules_build()) == ("the five of hearts", "the three of spades")
