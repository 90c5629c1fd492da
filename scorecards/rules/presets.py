"""Rule settings and presets (docs/rules.md: "Every setting", "Presets").

`rules_build` turns a record's `rules` object (a preset name plus overrides) into a validated,
frozen `Rules`. Four settings have *derived* defaults that follow the other settings unless given:

- `partnership`: pairs for 4 and 6 seats, otherwise individual;
- `tricks_per_hand`: 16 for 2 seats, otherwise 8;
- `nt_bid_out`: `bid_out` raised by `nt_target - target`, at most POINTS_LIMIT (null when either
  is null);
- `lose_at`: minus `target` in the presets that use it, null in those that do not.

A `Rules` holds the effective values, so `rules_build(r.as_dict()) == r`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from types import MappingProxyType
from typing import Any

from scorecards.rules.errors import RulesError, shown
from scorecards.rules.i18n import _
from scorecards.rules.preset_changes import _PRESET_CHANGES

BID_KINDS = ("trump", "no", "low", "kaiser", "kaiser40")
PARTNERSHIPS = ("pairs", "triples", "individual")
KAISER_BIDS = ("off", "solo", "team")
BOTH_CROSS = ("bidder", "higher", "tie")
NT_TARGET_FOR = ("game", "hand")
NO_TRUMP_NAMED = ("auction", "after")

# The sides a partnership makes of the seats: seat s plays for side s % side_count.
_SIDE_COUNT = {"pairs": 2, "triples": 3, "individual": 1}  # seats per side
_PARTNERSHIPS_FOR_SEATS = {
    2: ("individual",),
    3: ("individual",),
    4: ("pairs", "individual"),
    5: ("individual",),
    6: ("pairs", "triples"),
}

DEFAULT_PRESET = "standard"
_RANK_STEPS = {"trump": 0, "no": 1, "low": 2}  # the second place of a bid's rank (`bid_rank`)


@dataclass(frozen=True)
class Rules:
    """Every setting of the rulebook with its effective value, plus the preset it started from.

    Build it with `rules_build`, which validates; the defaults here are the standard game, so
    `Rules() == rules_build()`.
    """

    preset: str = DEFAULT_PRESET
    seats: int = 4
    partnership: str = "pairs"
    tricks_per_hand: int = 8
    min_bid: int = 7
    max_bid: int = 12
    no_trump: bool = True
    low_no_trump: bool = False
    low_ranks_equal: bool = False
    target: int = 52
    nt_target: int | None = 62
    bid_out: int | None = 45
    nt_bid_out: int | None = 55
    lose_at: int | None = -52
    win_requires_bid: bool = True
    both_cross: str = "bidder"
    nt_target_for: str = "game"
    nonbidder_cap: int | None = None
    bid_out_heart_wins: bool = False
    bid_out_keeps_losses: bool = True
    bid_out_bidder_to_target: bool = False
    defender_all_or_nothing: bool = False
    overtricks: bool = True
    cover_three: bool = False
    kaiser_bid: str = "off"
    kaiser_40: bool = False
    bid_13_no: int | None = None
    bid_14_no: int | None = None
    heart_bonus: int = 5
    spade_penalty: int = -3
    dealer_may_equal: bool = True
    dealer_may_pass: bool = False
    no_trump_named: str = "auction"
    joffre_insult: bool = False
    dealer_sells: bool = False
    set_scores_zero: bool = False
    blank_cards: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-able: `preset` and every setting, effective values."""
        return asdict(self)

    # Cached: read for every hand. (A frozen dataclass still has a __dict__ to cache in.)
    @cached_property
    def side_count(self) -> int:
        return self.seats // _SIDE_COUNT[self.partnership]

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, side 0 first (4 seats: ((0, 2), (1, 3)))."""
        n = self.side_count
        return tuple(tuple(range(side, self.seats, n)) for side in range(n))

    def side_of(self, seat: int) -> int:
        return seat % self.side_count

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of `seat`'s side (empty in individual play)."""
        return tuple(s for s in self.sides[self.side_of(seat)] if s != seat)

    def kinds_allowed(self) -> tuple[str, ...]:
        """The bid kinds these rules allow, lowest ranking first."""
        return self.kinds

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """The bid kinds these rules allow (`kinds_allowed()`), cached: read for every hand."""
        # Whether each of BID_KINDS is played, in their order.
        played = (True, self.no_trump, self.low_no_trump, self.kaiser_bid != "off", self.kaiser_40)
        return tuple(kind for kind, on in zip(BID_KINDS, played, strict=True) if on)

    def bid_rank(self, kind: str, bid: int | None) -> tuple[int, int]:
        """A sortable rank: 7 < 7 no < 7 low < 8 < ... < 12 low < kaiser < kaiser 40. With
        `low_ranks_equal`, a low bid ranks the same as the no bid of its number."""
        if kind == "kaiser":
            return (1_000_000, 0)
        if kind == "kaiser40":
            return (1_000_001, 0)
        assert bid is not None
        step = _RANK_STEPS[kind]
        if self.no_trump_named == "after":
            return (bid, 0)  # the number alone: no trump is named after the auction
        return (bid, 1 if step == 2 and self.low_ranks_equal else step)


# Each setting's type and whether it may be null, read off the annotations of Rules (strings,
# under `from __future__ import annotations`).
_ANNOTATIONS = {
    "int": (int, False),
    "int | None": (int, True),
    "bool": (bool, False),
    "str": (str, False),
}
_SETTING_TYPES: dict[str, tuple[type, bool]] = {
    f.name: _ANNOTATIONS[str(f.type)] for f in fields(Rules) if f.name != "preset"
}
SETTINGS: tuple[str, ...] = tuple(_SETTING_TYPES)
_CHOICES = {
    "partnership": PARTNERSHIPS,
    "kaiser_bid": KAISER_BIDS,
    "both_cross": BOTH_CROSS,
    "nt_target_for": NT_TARGET_FOR,
    "no_trump_named": NO_TRUMP_NAMED,
}
_DERIVED = ("partnership", "tricks_per_hand", "nt_bid_out", "lose_at")

_STANDARD: dict[str, Any] = {
    name: value for name, value in asdict(Rules()).items() if name not in (*_DERIVED, "preset")
}
# The range of every numeric setting, checked by `rules_build` whatever the caller (web form,
# import, backup): a real table's values with room to spare, and small enough that no score of a
# game can overflow anything downstream. Points settings share one bound; `max_bid` is further
# held to the points a hand holds (`max_bid_limit`).
POINTS_LIMIT = 500
SPECIAL_BID_LIMIT = 1000  # kaiser-lib's 14 no scores 1000 either way
BOUNDS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "seats": (2, 6),
        "tricks_per_hand": (1, 16),
        "min_bid": (1, 36),
        "max_bid": (1, 36),
        "target": (6, POINTS_LIMIT),
        "nt_target": (11, POINTS_LIMIT),
        "bid_out": (1, POINTS_LIMIT),
        "nt_bid_out": (1, POINTS_LIMIT),
        "lose_at": (-POINTS_LIMIT, -1),
        "nonbidder_cap": (1, POINTS_LIMIT),
        "heart_bonus": (0, 20),
        "spade_penalty": (-20, 0),
        "bid_13_no": (1, SPECIAL_BID_LIMIT),
        "bid_14_no": (1, SPECIAL_BID_LIMIT),
    }
)


def _beyond(name: str, value: int) -> str | None:
    """What a value beyond its range would need: the ranges reach as far as a known Kaiser
    engine's rules, so this says so (or which setting plays it), or None."""
    low, high = BOUNDS[name]
    if name == "target" and value < low:
        return _("no known Kaiser engine plays to less than 6 (kaiser-lib's games go down to 6)")
    if name in ("bid_13_no", "bid_14_no") and value > high:
        return _("the most any known engine scores for a special bid is 1000 (kaiser-lib's 14 no)")
    if name in ("min_bid", "max_bid") and value > high:
        return _special_bids_note()
    return None


def _special_bids_note() -> str:
    return _("bids of 13 no and 14 no are the settings bid_13_no and bid_14_no (kaiser-lib)")


def max_bid_limit(tricks_per_hand: int, heart_bonus: int) -> int:
    """The most points one side can take in a hand: every trick and the heart bonus."""
    return tricks_per_hand + max(heart_bonus, 0)


def _type_error(name: str, value: Any) -> RulesError | None:
    kind, nullable = _SETTING_TYPES[name]
    if value is None:
        if nullable:
            return None
        return RulesError(_("%(setting)s must not be null") % {"setting": name}, name)
    values = {"setting": name, "value": shown(value)}
    if kind is bool:
        if isinstance(value, bool):
            return None
        message = _("%(setting)s must be true or false (got %(value)s)") % values
    elif kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return None
        if nullable:
            message = _("%(setting)s must be a whole number or null (got %(value)s)") % values
        else:
            message = _("%(setting)s must be a whole number (got %(value)s)") % values
    else:
        if isinstance(value, str) and value in _CHOICES[name]:
            return None
        message = _("%(setting)s must be one of %(choices)s (got %(value)s)") % {
            **values,
            "choices": ", ".join(_CHOICES[name]),
        }
    return RulesError(message, name)


def _derive(values: dict[str, Any], given: Mapping[str, Any], preset: str) -> None:
    """Fill in the derived settings not given explicitly (see the module docstring)."""
    seats = values["seats"]
    if "partnership" not in given:
        values["partnership"] = "pairs" if seats in (4, 6) else "individual"
    if "tricks_per_hand" not in given:
        values["tricks_per_hand"] = 16 if seats == 2 else 8
    if "nt_bid_out" not in given:
        bid_out, nt_target = values["bid_out"], values["nt_target"]
        # Held to the points limit: a derived value must not refuse settings given in range.
        values["nt_bid_out"] = (
            None
            if bid_out is None or nt_target is None
            else min(bid_out + nt_target - values["target"], POINTS_LIMIT)
        )
    if "lose_at" not in given:
        plays_lose_at = "lose_at" not in _PRESET_CHANGES[preset]
        values["lose_at"] = -values["target"] if plays_lose_at else None


def _range_error(name: str, value: int) -> RulesError:
    low, high = BOUNDS[name]
    message = _("%(setting)s must be %(low)s to %(high)s (got %(value)s)") % {
        "setting": name,
        "low": low,
        "high": high,
        "value": shown(value),
    }
    beyond = _beyond(name, value)
    if beyond is not None:
        # Translators: a refusal of a setting, then why no wider value is taken.
        message = _("%(message)s: %(beyond)s") % {"message": message, "beyond": beyond}
    return RulesError(message, name)


def _check_ranges(v: Mapping[str, Any]) -> None:
    """Every numeric setting within its range (BOUNDS), the given ones and the derived ones."""
    for name, (low, high) in BOUNDS.items():
        value = v[name]
        if value is not None and not low <= value <= high:
            raise _range_error(name, value)


def _check_combinations(v: dict[str, Any]) -> None:
    _check_ranges(v)
    fits = _PARTNERSHIPS_FOR_SEATS[v["seats"]]
    if v["partnership"] not in fits:
        values = {"partnership": v["partnership"], "seats": v["seats"], "fits": fits[0]}
        if len(fits) == 1:
            message = _(
                "partnership %(partnership)s does not fit %(seats)s seats "
                "(%(seats)s seats play %(fits)s)"
            )
        else:
            values["other"] = fits[1]
            message = _(
                "partnership %(partnership)s does not fit %(seats)s seats "
                "(%(seats)s seats play %(fits)s or %(other)s)"
            )
        raise RulesError(message % values, "partnership")
    limit = max_bid_limit(v["tricks_per_hand"], v["heart_bonus"])
    if v["max_bid"] > limit:
        message = _(
            "max_bid must not be above %(limit)s, the points a hand holds "
            "(tricks_per_hand + heart_bonus) (got %(max_bid)s)"
        ) % {"limit": limit, "max_bid": v["max_bid"]}
        if v["max_bid"] in (13, 14) and limit < v["max_bid"]:
            beyond = _special_bids_note()
            message = _("%(message)s: %(beyond)s") % {"message": message, "beyond": beyond}
        raise RulesError(message, "max_bid")
    for name, number in (("bid_13_no", 13), ("bid_14_no", 14)):
        if v[name] is not None and (not v["no_trump"] or v["max_bid"] >= number):
            raise RulesError(
                _(
                    "%(setting)s needs no_trump on and max_bid below %(number)s "
                    "(got max_bid %(max_bid)s)"
                )
                % {"setting": name, "number": number, "max_bid": v["max_bid"]},
                name,
            )
    if v["min_bid"] > v["max_bid"]:
        raise RulesError(
            _("min_bid must not be above max_bid (got %(min_bid)s above %(max_bid)s)")
            % {"min_bid": v["min_bid"], "max_bid": v["max_bid"]},
            "min_bid",
        )
    if v["nt_target"] is not None and v["nt_target"] <= v["target"]:
        raise RulesError(
            _("nt_target must be above target (got %(nt_target)s, target %(target)s)")
            % {"nt_target": v["nt_target"], "target": v["target"]},
            "nt_target",
        )
    if v["low_no_trump"] and not v["no_trump"]:
        raise RulesError(_("low_no_trump needs no_trump on"), "low_no_trump")
    if v["kaiser_bid"] != "off" and not v["no_trump"]:
        raise RulesError(
            _("kaiser_bid %(kaiser_bid)s needs no_trump on") % {"kaiser_bid": v["kaiser_bid"]},
            "kaiser_bid",
        )
    if v["no_trump_named"] == "after" and (
        not v["no_trump"] or v["low_no_trump"] or v["kaiser_bid"] != "off" or v["kaiser_40"]
    ):
        raise RulesError(
            _("no_trump_named after needs no_trump on, and no low or kaiser bids"),
            "no_trump_named",
        )
    if v["dealer_sells"] and (v["kaiser_bid"] != "off" or v["kaiser_40"]):
        raise RulesError(_("dealer_sells cannot be combined with kaiser bids"), "dealer_sells")


def rules_build(data: Mapping[str, Any] | None = None) -> Rules:
    """Validated `Rules` from a record's `rules` object: an optional `preset` (default standard)
    and any settings to override. Raises RulesError naming the setting for an unknown preset or
    setting, a value of the wrong type (`true` and `"7"` are not numbers), or an impossible
    combination (rulebook: "Settings are checked")."""
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise RulesError(_("expected an object: a preset and the settings that differ from it"))
    preset = data.get("preset", DEFAULT_PRESET)
    if not isinstance(preset, str) or preset not in _PRESET_CHANGES:
        raise RulesError(
            _("unknown preset %(preset)s (presets: %(presets)s)")
            % {"preset": shown(preset), "presets": ", ".join(_PRESET_CHANGES)},
            "preset",
        )
    given = {name: value for name, value in data.items() if name != "preset"}
    for name, value in given.items():
        if name not in _SETTING_TYPES:
            raise RulesError(
                _("unknown setting %(setting)s") % {"setting": shown(name)}, str(name)[:60]
            )
        error = _type_error(name, value)
        if error is not None:
            raise error
    values = {**_STANDARD, **_PRESET_CHANGES[preset], **given}
    _derive(values, given, preset)
    _check_combinations(values)
    return Rules(preset=preset, **values)


def _preset_settings(name: str) -> dict[str, Any]:
    settings = rules_build({"preset": name}).as_dict()
    del settings["preset"]
    return settings


# Every preset's full settings, for display (the engine itself reads `_PRESET_CHANGES`, so
# editing these by accident changes nothing).
PRESETS: dict[str, dict[str, Any]] = {name: _preset_settings(name) for name in _PRESET_CHANGES}
PRESET_CHANGES: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {name: MappingProxyType(dict(changes)) for name, changes in _PRESET_CHANGES.items()}
)
