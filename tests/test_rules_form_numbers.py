"""The rules form reads its numbers through the one number reader (`kaiser_league.inputs`):
ASCII digits only, as every other number field of the site. "١٠" (Arabic-Indic ten) once
started a game to 10."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorecards.models import Game
from scorecards.rules_form import RulesForm

FOUR = {f"seat_{i}": name for i, name in enumerate(["Ann", "Bob", "Cy", "Di"])}


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("target", "١٠"),  # Arabic-Indic digits
        ("target", "۵۲"),  # Extended Arabic-Indic
        ("min_bid", "७"),  # Devanagari
        ("target", "５２"),  # full-width
        ("nt_target", "٦٢"),
        ("target", "52.0"),
        ("target", "5_2"),
        ("target", "+52"),
    ],
)
def test_a_number_in_other_digits_is_refused_on_its_setting(setting, value) -> None:
    form = RulesForm({"preset": "standard", setting: value})
    assert not form.is_valid()
    assert form.errors[setting] == ["Enter a whole number."]


def test_ascii_digits_with_spaces_are_read_and_the_engine_keeps_its_words() -> None:
    form = RulesForm({"preset": "standard", "target": " 40 "})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"].target == 40
    form = RulesForm({"preset": "standard", "target": "1"})
    assert not form.is_valid()
    assert "6 to 500" in form.errors["target"][0]  # the engine's range, not the backstop's


def test_the_number_box_keeps_the_settings_range_for_the_browser() -> None:
    widget = RulesForm()["target"].field.widget
    assert (widget.attrs["min"], widget.attrs["max"]) == (6, 500)


@pytest.mark.django_db
def test_a_game_is_not_started_with_arabic_indic_digits(club, players, as_alice) -> None:
    url = reverse("club_game_new", args=[club.slug])
    answer = as_alice.post(url, {"preset": "standard", "target": "١٠", **FOUR, "start": "1"})
    assert answer.status_code == 422
    assert not Game.objects.exists()
    answer = as_alice.post(url, {"preset": "standard", "target": "40", **FOUR, "start": "1"})
    assert answer.status_code == 303
    assert Game.objects.get().rules["target"] == 40
