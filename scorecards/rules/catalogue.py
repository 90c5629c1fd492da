"""Every setting and preset described for people: what a rules form shows and how a game's rules
are said in words (docs/rules.md says the same at length).

Plain data, translated when asked for: each function calls the engine's translator (see
`scorecards.rules.i18n`), so the labels come out in the language active at the call.

    settings_catalogue()   # (Setting(key="seats", kind="int", default=4, minimum=2, ...), ...)
    presets_catalogue()    # (Preset(key="standard", name="Standard", description=..., ...), ...)
    rules_describe(rules_build({"preset": "standard", "min_bid": 6}))
    # "Standard · Minimum bid: 6"
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from scorecards.rules.errors import KaiserError
from scorecards.rules.i18n import _
from scorecards.rules.preset_changes import _PRESET_CHANGES
from scorecards.rules.presets import (
    _CHOICES,
    _DERIVED,
    _SETTING_TYPES,
    BOUNDS,
    SETTINGS,
    Rules,
    rules_build,
)
from scorecards.rules.setting_texts import choice_labels, setting_texts

SETTING_KINDS = ("bool", "int", "optional_int", "choice")
# The sections of a rules form, in order (a setting's `group`).
GROUPS = ("table", "bids", "scoring", "game", "special")


@dataclass(frozen=True)
class Setting:
    """One setting as a form shows it.

    `kind`: "bool", "int", "optional_int" (a number or null, shown as "none") or "choice".
    `default`: the standard game's value. `minimum`/`maximum`: the range `rules_build` accepts for
    a number (None for bool and choice); the setting may be further held by others (`help` says
    how). `choices`: (value, label) pairs of a choice. `derived`: left out, it follows other
    settings (`help` says how). `group`: one of GROUPS.
    """

    key: str
    kind: str
    default: bool | int | str | None
    minimum: int | None
    maximum: int | None
    choices: tuple[tuple[str, str], ...]
    label: str
    help: str
    group: str
    derived: bool

    def as_dict(self) -> dict[str, Any]:
        """JSON-able (choices as lists)."""
        out = asdict(self)
        out["choices"] = [list(choice) for choice in self.choices]
        return out


@dataclass(frozen=True)
class Preset:
    """A preset as a club chooses it: `key` as in a record, `name` and a one-line `description`
    for people, `changes` from the standard game (the preset table of the rulebook)."""

    key: str
    name: str
    description: str
    changes: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def group_labels() -> dict[str, str]:
    """Each of GROUPS with its heading, translated now."""
    return {
        "table": _("The table"),
        "bids": _("Bids"),
        "scoring": _("Scoring a hand"),
        "game": _("Winning and losing"),
        "special": _("Special bids"),
    }


def settings_catalogue() -> tuple[Setting, ...]:
    """Every setting of `SETTINGS`, in that order, described for a form (see `Setting`)."""
    texts = setting_texts()
    labels = choice_labels()
    standard = Rules()
    out = []
    for key in SETTINGS:
        group, label, help_text = texts[key]
        kind_type, nullable = _SETTING_TYPES[key]
        if kind_type is bool:
            kind = "bool"
        elif kind_type is int:
            kind = "optional_int" if nullable else "int"
        else:
            kind = "choice"
        low, high = BOUNDS.get(key, (None, None))
        choices = tuple((value, labels[key][value]) for value in _CHOICES.get(key, ()))
        out.append(
            Setting(
                key=key,
                kind=kind,
                default=getattr(standard, key),
                minimum=low,
                maximum=high,
                choices=choices,
                label=label,
                help=help_text,
                group=group,
                derived=key in _DERIVED,
            )
        )
    return tuple(out)


def _preset_texts() -> dict[str, tuple[str, str]]:
    return {
        "standard": (
            _("Standard"),
            _("Common prairie rules: bids of 7 to 12, game to 52, or 62 after a no-trump bid."),
        ),
        "pagat": (_("Pagat"), _("The classic written rules: bids from 6, no raised target.")),
        "yarotsky": (
            _("Yarotsky"),
            _("A Saskatchewan family's rules: bids from 6, bid-out at 46, a solo kaiser bid."),
        ),
        "bid-out-47": (
            _("Bid-out 47"),
            _("Non-bidders gain nothing from 47 on; no raised target."),
        ),
        "saskatchewan": (
            _("Saskatchewan"),
            _("34 cards with a 2-card kitty; low no-trump bids."),
        ),
        "cap-49": (_("Cap 49"), _("Non-bidders stop at 49; bids from 6, no bid-out.")),
        "les-rois": (
            _("Les Rois"),
            _("Québec, sevens high: bids from 4, no no-trump bids, game to 40."),
        ),
        "hetu": (_("Hétu"), _("Québec, J. Hétu's version: bids from 5, five of hearts worth 6.")),
        "joffre": (
            _("Joffre"),
            _("Québec, Joffre cards: bids from 5, game to 41, the insult."),
        ),
        "three-player": (_("Three players"), _("Three at the table, each for themself.")),
        "lost-heir": (
            _("Lost Heir"),
            _(
                "McLoughlin, 1893: the dealer sells the contract or takes it over, a set scores "
                "nothing, game to 25."
            ),
        ),
        "kaisergame.com": (
            _("kaisergame.com"),
            _(
                "kaiser-lib's rules: no bid-out, any side at the target wins (the higher "
                "score), 13 no and 14 no."
            ),
        ),
        "dcm454": (
            _("dcm454"),
            _("Game to 52, or 64 after no trump; non-bidders all or nothing at the target."),
        ),
    }


def presets_catalogue() -> tuple[Preset, ...]:
    """Every preset, in the rulebook's order, with its name and description for people."""
    texts = _preset_texts()
    return tuple(
        Preset(key=key, name=texts[key][0], description=texts[key][1], changes=dict(changes))
        for key, changes in _PRESET_CHANGES.items()
    )


def preset_name(key: str) -> str:
    """A preset's name for people (the key itself for an unknown one)."""
    return _preset_texts().get(key, (key,))[0]


def rules_changes(rules: Rules) -> dict[str, Any]:
    """The fewest settings that, on top of `rules.preset`, give `rules`:
    `rules_build({"preset": rules.preset, **rules_changes(rules)}) == rules`. A derived setting
    is listed only where it differs from what it would follow from the others."""
    preset = rules_build({"preset": rules.preset})
    changes = {
        key: getattr(rules, key)
        for key in SETTINGS
        if key not in _DERIVED and getattr(rules, key) != getattr(preset, key)
    }
    try:
        base = rules_build({"preset": rules.preset, **changes})
    except KaiserError:
        base = preset  # the derived values were needed to make the rest valid: list them all
    for key in _DERIVED:
        if getattr(rules, key) != getattr(base, key):
            changes[key] = getattr(rules, key)
    return {key: changes[key] for key in SETTINGS if key in changes}


def setting_value_text(key: str, value: Any) -> str:
    """A setting's value in words: on/off, none, a choice's label, or the number."""
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if key in _CHOICES:
        return choice_labels()[key].get(value, str(value))
    return str(value)


def rules_describe(rules: Rules) -> str:
    """The rules in words: the preset's name, then each setting that differs from it
    ("Standard · Minimum bid: 6 · Cover the three: on")."""
    name = preset_name(rules.preset)
    changes = rules_changes(rules)
    if not changes:
        return name
    texts = setting_texts()
    parts = [
        # Translators: one setting in a description of the rules ("Minimum bid: 6").
        _("%(setting)s: %(value)s")
        % {"setting": texts[key][1], "value": setting_value_text(key, value)}
        for key, value in changes.items()
    ]
    # A middle dot needs no language's punctuation rules.
    return " · ".join([name, *parts])


def card_names(rules: Rules) -> tuple[str, str]:
    """What the table calls the +5 and the -3 cards under these rules (Lost Heir has its own
    names for them)."""
    if rules.preset == "lost-heir":
        return _("the Lost Heir"), _("the Wrong Boy")
    return _("the five of hearts"), _("the three of spades")
