"""Table habits at the table and in the game's page: the engine's habit fields
(scorecards.rules.habits, docs/game-record.md) in words and in forms. None changes a score.

- a hand: `misdeal` (thrown-in hands), `passing`, `kitty`, `announced`: carried by `HandInput`,
  so a hand's record keeps them;
- a game: `passing`, `kitty` and the pot (`pot: {"per_set": N}`, N in cents), kept on `Game`
  (`passing`, `kitty`, `pot_per_set`) and written back by export.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.clubs.forms import PotField
from scorecards.rules import ANNOUNCED, KITTY, MISDEALS, PASSING, HandInput, Rules
from scorecards.rules.catalogue import card_names
from scorecards.rules.habits import hand_habit_error, passing_error

HAND_FIELDS = ("misdeal", "passing", "kitty", "announced")


def _labels() -> dict[str, dict[str, Any]]:
    return {
        "misdeal": {
            "no-ace": gettext_lazy("a hand without an ace"),
            "no-face": gettext_lazy("a hand without a face card"),
            "no-five-or-three": gettext_lazy("a hand without a 5 or a 3"),
            "four-tens": gettext_lazy("four 10s in one hand"),
            "four-nines": gettext_lazy("four 9s in one hand"),
            "four-eights": gettext_lazy("four 8s in one hand"),
            "all-passed": gettext_lazy("everyone passed"),
            "other": gettext_lazy("another reason"),
        },
        "passing": {
            "none": gettext_lazy("no passing"),
            "partner": gettext_lazy("1 card to the partner"),
            "across": gettext_lazy("2 cards across"),
            "left": gettext_lazy("to the left"),
            "right": gettext_lazy("to the right"),
            "rotation": gettext_lazy("left, right, across in turn"),
            "after-auction": gettext_lazy("after the auction"),
            "dealer-call": gettext_lazy("the dealer calls it"),
        },
        "kitty": {
            "none": gettext_lazy("no kitty"),
            "bidder": gettext_lazy("the bidder took it and discarded"),
            "dealer": gettext_lazy("the dealer took it and discarded"),
            "set-aside": gettext_lazy("set aside unseen"),
            "last-trick": gettext_lazy("it went with the last trick"),
        },
        "announced": {"high": gettext_lazy("high"), "low": gettext_lazy("low")},
    }


def _choices(name: str, values: tuple[str, ...]) -> list[tuple[str, Any]]:
    labels = _labels()[name]
    return [(value, labels.get(value, value)) for value in values]


def passing_text(value: str) -> str:
    """A passing scheme in words ("the dealer's call: 3-2-1" for a call)."""
    label = _labels()["passing"].get(value)
    if label is not None:
        return str(label)
    return _("the dealer's call: %(call)s") % {"call": value}


def hand_habits_post(data: Mapping[str, Any], *, thrown_in: bool) -> tuple[dict, dict]:
    """The habits of a hand posted by the table's form: (habits, errors by field), checked by
    the engine. An empty choice is "not recorded"; a misdeal's reason goes with a thrown-in hand
    only, and the others with a played hand only."""
    habits: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for name in HAND_FIELDS:
        value = data.get(name, "")
        value = value.strip()[:20] if isinstance(value, str) else ""
        if not value or (name == "misdeal") != thrown_in:
            continue
        problem = hand_habit_error(name, value, thrown_in)
        if problem is not None:
            errors[name] = [problem]
            continue
        habits[name] = value
    return habits, errors


def hand_with_habits(hand: HandInput, habits: Mapping[str, Any]) -> HandInput:
    return dataclasses.replace(hand, **habits) if habits else hand


def habits_text(record: Mapping[str, Any]) -> list[str]:
    """A hand's habits in words, for the hand's page."""
    labels = _labels()
    out = []
    if record.get("misdeal") in labels["misdeal"]:
        out.append(_("Misdeal: %(reason)s") % {"reason": labels["misdeal"][record["misdeal"]]})
    if isinstance(record.get("passing"), str):
        out.append(_("Cards passed: %(scheme)s") % {"scheme": passing_text(record["passing"])})
    if record.get("kitty") in labels["kitty"]:
        out.append(_("Kitty: %(use)s") % {"use": labels["kitty"][record["kitty"]]})
    if record.get("announced") in labels["announced"]:
        out.append(_("Announced %(how)s") % {"how": labels["announced"][record["announced"]]})
    return out


def entry_table_habits(rules: Rules) -> dict[str, Any]:
    """What the hand entry form needs for the table habits and the Lost Heir settings: the
    choices in words, whether the dealer sells and blank cards play, and the special cards'
    names under these rules."""
    five, three = card_names(rules)
    return {
        "sells": rules.dealer_sells,
        "blank_cards": rules.blank_cards,
        # A kaiser 40's partner sits out: a special card may stay in that unplayed hand.
        "kaiser_40": rules.kaiser_40,
        "lost_heir": rules.preset == "lost-heir",
        "five_legend": _("%(card)s taken by") % {"card": five},
        "three_legend": _("%(card)s taken by") % {"card": three},
        "five_blank": _("%(card)s cancelled by a blank") % {"card": five},
        "three_blank": _("%(card)s cancelled by a blank") % {"card": three},
        "misdeals": _choices("misdeal", MISDEALS),
        "passings": _choices("passing", PASSING),
        "kitties": _choices("kitty", KITTY),
        "announces": _choices("announced", ANNOUNCED),
    }


def passing_choices() -> list[tuple[str, Any]]:
    return _choices("passing", PASSING)


class GameHabitsForm(forms.Form):
    """The table habits a game starts with: its card passing, its kitty and its pot."""

    passing = forms.CharField(
        label=gettext_lazy("Card passing"),
        required=False,
        max_length=20,
        help_text=gettext_lazy("A scheme from the list, or the dealer's call such as 3-2-1."),
        widget=forms.TextInput(attrs={"list": "passing-schemes", "autocomplete": "off"}),
    )
    kitty = forms.ChoiceField(label=gettext_lazy("The kitty"), required=False)
    pot_per_set = PotField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kitty = self.fields["kitty"]
        assert isinstance(kitty, forms.ChoiceField)
        kitty.choices = [("", "—"), *_choices("kitty", KITTY)]

    def clean_passing(self) -> str:
        value = self.cleaned_data["passing"].strip()
        if value:
            problem = passing_error(value)
            if problem is not None:
                raise forms.ValidationError(problem)
        return value

    def habits(self) -> dict[str, Any]:
        """The chosen habits as a record's top level writes them (only those chosen)."""
        out: dict[str, Any] = {}
        for name in ("passing", "kitty"):
            if self.cleaned_data.get(name):
                out[name] = self.cleaned_data[name]
        if self.cleaned_data.get("pot_per_set") is not None:
            out["pot"] = {"per_set": self.cleaned_data["pot_per_set"]}
        return out


def game_habits_record(game: Any) -> dict[str, Any]:
    """A game's top-level habits as its record writes them (only those it keeps)."""
    out: dict[str, Any] = {}
    if game.passing:
        out["passing"] = game.passing
    if game.kitty:
        out["kitty"] = game.kitty
    if game.pot_per_set is not None:
        out["pot"] = {"per_set": game.pot_per_set}
    return out
