"""Table habits a `kaiser-game/1` record carries beside the hands the engine scores: why a hand
was misdealt, how cards were passed, what the kitty was used for, a bid announced high or low,
and the money pot. None of them changes a score (the engine ignores them); they are kept as
entered and written back by export.

This module is the one place that knows their names and values (docs/game-record.md):

- top level: `passing` (the game's card-passing scheme), `pot_per_set` (what each set bid puts
  in the pot, a whole number of cents);
- a hand: `misdeal` (a thrown-in hand only), `passing` (this hand's passing), `kitty`,
  `announce` ("high" or "low").

`passing` is a named scheme or the dealer's call, written as numbers joined by dashes ("3-2-1").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.forms import PotField
from scorecards.rules import HandError, RecordError, Rules
from scorecards.rules.catalogue import card_names

MISDEALS = {
    "no-ace": gettext_lazy("a hand without an ace"),
    "no-face": gettext_lazy("a hand without a face card"),
    "no-five-three": gettext_lazy("a hand without a 5 or a 3"),
    "four-tens": gettext_lazy("four 10s in one hand"),
    "four-nines": gettext_lazy("four 9s in one hand"),
    "four-eights": gettext_lazy("four 8s in one hand"),
    "all-passed": gettext_lazy("everyone passed"),
}
PASSINGS = {
    "partner-1": gettext_lazy("1 card to the partner"),
    "across-2": gettext_lazy("2 cards across"),
    "left": gettext_lazy("to the left"),
    "right": gettext_lazy("to the right"),
    "across": gettext_lazy("across"),
    "rotation": gettext_lazy("left, right, across in turn"),
    "after-auction": gettext_lazy("after the auction"),
}
KITTIES = {
    "bidder": gettext_lazy("the bidder took it and discarded"),
    "dealer": gettext_lazy("the dealer took it and discarded"),
    "last-trick": gettext_lazy("it went with the last trick"),
    "unused": gettext_lazy("set aside unseen"),
}
ANNOUNCES = {"high": gettext_lazy("high"), "low": gettext_lazy("low")}

GAME_FIELDS = ("passing", "pot_per_set")
HAND_FIELDS = ("misdeal", "passing", "kitty", "announce")
POT_MAX = 100_000  # cents a set bid may put in: 1 000.00
DEALER_CALL = re.compile(r"^[1-8](-[1-8]){0,7}$")


def passing_valid(value: Any) -> bool:
    return isinstance(value, str) and (value in PASSINGS or bool(DEALER_CALL.match(value)))


def passing_text(value: str) -> str:
    """A passing scheme in words ("the dealer's call: 3-2-1" for a call)."""
    if value in PASSINGS:
        return str(PASSINGS[value])
    return _("the dealer's call: %(call)s") % {"call": value}


def _choice(value: Any, choices: Mapping[str, Any]) -> bool:
    return isinstance(value, str) and value in choices


def game_habits_read(record: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level habits of a record (only those present), or RecordError naming the field."""
    out: dict[str, Any] = {}
    if "passing" in record:
        if not passing_valid(record["passing"]):
            raise RecordError(
                "passing",
                _("expected one of %(names)s, or the dealer's call such as 3-2-1")
                % {"names": ", ".join(PASSINGS)},
            )
        out["passing"] = record["passing"]
    if "pot_per_set" in record:
        value = record["pot_per_set"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= POT_MAX:
            raise RecordError(
                "pot_per_set",
                _("expected a whole number of cents from 0 to %(max)s") % {"max": POT_MAX},
            )
        out["pot_per_set"] = value
    return out


def hand_habits_read(raw: Any, number: int) -> dict[str, Any]:
    """The habits of one record hand (only those present), or HandError naming the field."""
    if not isinstance(raw, Mapping):
        return {}
    out: dict[str, Any] = {}
    checks = {
        "misdeal": lambda v: _choice(v, MISDEALS),
        "passing": passing_valid,
        "kitty": lambda v: _choice(v, KITTIES),
        "announce": lambda v: _choice(v, ANNOUNCES),
    }
    for name, check in checks.items():
        if name not in raw:
            continue
        if not check(raw[name]):
            raise HandError(number, name, _("not a value this field takes"))
        out[name] = raw[name]
    if "misdeal" in out and raw.get("thrown_in") is not True:
        raise HandError(number, "misdeal", _("only a thrown-in hand has a misdeal reason"))
    return out


def hand_habits_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """The habits kept in a stored hand record."""
    return {name: record[name] for name in HAND_FIELDS if name in record}


def hand_habits_post(data: Mapping[str, Any], *, thrown_in: bool) -> tuple[dict, dict]:
    """The habits of a hand posted by the table's form: (habits, errors by field). An empty
    choice is "not recorded"."""
    habits: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    fields = {
        "misdeal": lambda v: _choice(v, MISDEALS),
        "passing": passing_valid,
        "kitty": lambda v: _choice(v, KITTIES),
        "announce": lambda v: _choice(v, ANNOUNCES),
    }
    for name, check in fields.items():
        value = data.get(name, "")
        value = value.strip()[:20] if isinstance(value, str) else ""
        # A misdeal's reason goes with a thrown-in hand only; nothing else is played then.
        if not value or (name == "misdeal") != thrown_in:
            continue
        if not check(value):
            errors[name] = [_("Choose one of the values offered.")]
            continue
        habits[name] = value
    return habits, errors


def habits_text(record: Mapping[str, Any]) -> list[str]:
    """A hand's habits in words, for the sheet and the hand's page."""
    out = []
    if record.get("misdeal") in MISDEALS:
        out.append(_("Misdeal: %(reason)s") % {"reason": MISDEALS[record["misdeal"]]})
    if passing_valid(record.get("passing")):
        out.append(_("Cards passed: %(scheme)s") % {"scheme": passing_text(record["passing"])})
    if record.get("kitty") in KITTIES:
        out.append(_("Kitty: %(use)s") % {"use": KITTIES[record["kitty"]]})
    if record.get("announce") in ANNOUNCES:
        out.append(_("Announced %(how)s") % {"how": ANNOUNCES[record["announce"]]})
    return out


def entry_table_habits(rules: Rules) -> dict[str, Any]:
    """What the hand entry form needs for the table habits and the Lost Heir settings: the
    choices in words, whether the dealer sells and blank cards play, and the special cards'
    names under these rules."""
    five, three = card_names(rules)
    return {
        "sells": rules.dealer_sells,
        "blank_cards": rules.blank_cards,
        "lost_heir": rules.preset == "lost-heir",
        "five_legend": _("%(card)s taken by") % {"card": five},
        "three_legend": _("%(card)s taken by") % {"card": three},
        "five_blank": _("%(card)s cancelled by a blank") % {"card": five},
        "three_blank": _("%(card)s cancelled by a blank") % {"card": three},
        "misdeals": list(MISDEALS.items()),
        "passings": list(PASSINGS.items()),
        "kitties": list(KITTIES.items()),
        "announces": list(ANNOUNCES.items()),
    }


class GameHabitsForm(forms.Form):
    """The table habits a game starts with: its card-passing scheme and its pot."""

    passing = forms.CharField(
        label=gettext_lazy("Card passing"),
        required=False,
        max_length=20,
        help_text=gettext_lazy("A scheme from the list, or the dealer's call such as 3-2-1."),
        widget=forms.TextInput(attrs={"list": "passing-schemes", "autocomplete": "off"}),
    )
    pot_per_set = PotField()

    def clean_passing(self) -> str:
        value = self.cleaned_data["passing"].strip()
        if value and not passing_valid(value):
            raise forms.ValidationError(
                _("Choose a scheme from the list, or write a call such as 3-2-1.")
            )
        return value

    def habits(self) -> dict[str, Any]:
        """The record's top-level habits (only those chosen)."""
        out: dict[str, Any] = {}
        if self.cleaned_data.get("passing"):
            out["passing"] = self.cleaned_data["passing"]
        if self.cleaned_data.get("pot_per_set") is not None:
            out["pot_per_set"] = self.cleaned_data["pot_per_set"]
        return out
