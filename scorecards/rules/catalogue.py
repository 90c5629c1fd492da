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
from scorecards.rules.presets import (
    _CHOICES,
    _DERIVED,
    _PRESET_CHANGES,
    _SETTING_TYPES,
    BOUNDS,
    SETTINGS,
    Rules,
    rules_build,
)

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


def _texts() -> dict[str, tuple[str, str, str]]:
    """Each setting's group, label and one-line help, translated now."""
    return {
        "seats": ("table", _("Players"), _("How many players sit at the table, 2 to 6.")),
        "partnership": (
            "table",
            _("Partnership"),
            _(
                "Who plays together. 4 players play pairs or each for themself, 6 players pairs "
                "or triples, 2, 3 and 5 players each for themself. Left out: pairs for 4 and 6."
            ),
        ),
        "tricks_per_hand": (
            "table",
            _("Tricks per hand"),
            _("8 with the usual pack; left out, 16 in the two-player game, otherwise 8."),
        ),
        "min_bid": (
            "bids",
            _("Minimum bid"),
            _("The lowest bid; the dealer must bid at least this when everyone else passes."),
        ),
        "max_bid": (
            "bids",
            _("Maximum bid"),
            _(
                "The highest bid; no more than the points a hand holds (the tricks plus the "
                "five of hearts)."
            ),
        ),
        "no_trump": (
            "bids",
            _("No-trump bids"),
            _("Bids may be played without trumps; they score double."),
        ),
        "low_no_trump": (
            "bids",
            _("Low no-trump bids"),
            _("Low no-trump bids (lowest card wins) rank above no trump; needs no-trump bids."),
        ),
        "low_ranks_equal": (
            "bids",
            _("Low equals no trump"),
            _("A low and a no-trump bid of the same number rank equal: neither outbids the other."),
        ),
        "dealer_may_equal": (
            "bids",
            _("Dealer may equal"),
            _("The dealer, calling last, takes the contract by equalling the highest bid."),
        ),
        "dealer_may_pass": (
            "bids",
            _("Dealer may pass"),
            _("When everyone else passes, the dealer may pass too and the hand is thrown in."),
        ),
        "dealer_sells": (
            "bids",
            _("Dealer sells"),
            _(
                "The dealer accepts the highest bid and scores it, or takes the contract over "
                "by equalling it (Lost Heir). Not with kaiser bids."
            ),
        ),
        "heart_bonus": (
            "scoring",
            _("Five of hearts"),
            _("Points for the side that takes the five of hearts."),
        ),
        "spade_penalty": (
            "scoring",
            _("Three of spades"),
            _("Points, zero or less, for the side that takes the three of spades."),
        ),
        "blank_cards": (
            "scoring",
            _("Blank cards"),
            _("A blank card cancels the five of hearts or three of spades in its trick."),
        ),
        "cover_three": (
            "scoring",
            _("Cover the three"),
            _(
                "A side that takes the three of spades with fewer than 3 tricks scores only the "
                "three's penalty."
            ),
        ),
        "overtricks": (
            "scoring",
            _("Overtricks count"),
            _("A made bid scores all the points taken; off, only the bid."),
        ),
        "set_scores_zero": (
            "scoring",
            _("A set scores nothing"),
            _("A bidder short of the bid scores nothing for the hand instead of losing the bid."),
        ),
        "bid_out": (
            "scoring",
            _("Bid-out"),
            _(
                "A side at or above this score before a hand gains nothing without bidding; "
                "none: no bid-out."
            ),
        ),
        "nonbidder_cap": (
            "scoring",
            _("Non-bidders stop at"),
            _("A side that did not bid gains no further than this score; none: no cap."),
        ),
        "joffre_insult": (
            "scoring",
            _("Joffre insult"),
            _(
                "When the three of spades takes the trick holding the five of hearts, the side "
                "that played the five loses 5."
            ),
        ),
        "target": ("game", _("Target"), _("The score that wins the game.")),
        "nt_target": (
            "game",
            _("Target after a no-trump bid"),
            _(
                "The first made no-trump or low bid raises the target to this; it must be above "
                "the target. None: no raise."
            ),
        ),
        "nt_bid_out": (
            "game",
            _("Bid-out after a no-trump bid"),
            _("The bid-out once the target is raised; left out, raised by as much as the target."),
        ),
        "lose_at": (
            "game",
            _("Lose at"),
            _(
                "A side at or below this score loses; none: nobody loses that way. Left out, "
                "minus the target in the presets that play it."
            ),
        ),
        "win_requires_bid": (
            "game",
            _("Win only by bidding"),
            _("A side wins only on a hand in which it made its bid."),
        ),
        "bid_out_heart_wins": (
            "game",
            _("Heart wins at the bid-out"),
            _("A side at the bid-out that takes the five of hearts without bidding wins."),
        ),
        "kaiser_bid": (
            "special",
            _("Kaiser bid"),
            _(
                "A bid to take 12 points in no trump that wins or loses the game: by the bidder "
                "alone (solo) or by the side (team). Needs no-trump bids."
            ),
        ),
        "kaiser_40": (
            "special",
            _("Kaiser 40"),
            _("The bidder alone, partner sitting out, must take every trick: plus or minus 40."),
        ),
    }


def _choice_labels() -> dict[str, dict[str, str]]:
    return {
        "partnership": {
            "pairs": _("Pairs"),
            "triples": _("Triples"),
            "individual": _("Each for themself"),
        },
        "kaiser_bid": {"off": _("Not played"), "solo": _("Solo"), "team": _("Team")},
    }


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
    texts = _texts()
    labels = _choice_labels()
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
        return _choice_labels()[key].get(value, str(value))
    return str(value)


def rules_describe(rules: Rules) -> str:
    """The rules in words: the preset's name, then each setting that differs from it
    ("Standard · Minimum bid: 6 · Cover the three: on")."""
    name = preset_name(rules.preset)
    changes = rules_changes(rules)
    if not changes:
        return name
    texts = _texts()
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
