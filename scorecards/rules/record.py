"""`kaiser-game/1` records in, `kaiser-result/1` documents out (docs/game-record.md).

The functions take an already-parsed JSON mapping; reading files is the caller's business.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorecards.rules.calls import MAX_HANDS
from scorecards.rules.errors import HandError, RecordError, RulesError, shown
from scorecards.rules.habits import Pot, game_habits_parse, pot_account
from scorecards.rules.hands import HandInput
from scorecards.rules.i18n import _
from scorecards.rules.presets import Rules, rules_build
from scorecards.rules.record_quick import record_quick
from scorecards.rules.scoring import first_dealer_check, game_score

GAME_FORMAT = "kaiser-game/1"
RESULT_FORMAT = "kaiser-result/1"

# The days a record's `played_on` may name. The engine has no clock, so "not in the future" is
# the app's check (scorecards.played_on); these bounds only keep a typo's year out.
PLAYED_ON_FIRST = datetime.date(1900, 1, 1)
PLAYED_ON_LAST = datetime.date(2999, 12, 31)
# Exactly YYYY-MM-DD in ASCII digits: Python's own reader also takes 20261120 and week dates.
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def played_on_parse(value: Any) -> datetime.date:
    """The day named by a record's `played_on` (`"2026-11-20"`), or RecordError naming
    `played_on`: not text in the form YYYY-MM-DD, no such day (2026-02-30), or a year outside
    PLAYED_ON_FIRST..PLAYED_ON_LAST."""
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        raise RecordError(
            "played_on",
            _("expected a date such as 2026-11-20 (got %(value)s)") % {"value": shown(value)},
        )
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        raise RecordError(
            "played_on",
            _("expected a date such as 2026-11-20 (got %(value)s: there is no such day)")
            % {"value": shown(value)},
        ) from None
    return played_on_check(day)


def played_on_check(day: datetime.date) -> datetime.date:
    """`day` if it lies from PLAYED_ON_FIRST to PLAYED_ON_LAST, else RecordError naming
    `played_on`."""
    if not PLAYED_ON_FIRST <= day <= PLAYED_ON_LAST:
        raise RecordError(
            "played_on",
            _("expected a day from %(first)s to %(last)s (got %(value)s)")
            % {
                "first": PLAYED_ON_FIRST.isoformat(),
                "last": PLAYED_ON_LAST.isoformat(),
                "value": shown(day.isoformat()),
            },
        )
    return day


@dataclass(frozen=True)
class GameRecord:
    """A record with its top level checked and its hands read (not yet scored)."""

    rules: Rules
    seats: tuple[str, ...]
    first_dealer: int
    hands: tuple[HandInput, ...]
    # The game's table habits, as given: `passing` and `kitty` (text), `pot` (a Pot).
    habits: dict[str, Any] = field(default_factory=dict)
    # The day the game was played, when the record says (`played_on`); None: not known.
    played_on: datetime.date | None = None

    def habits_dict(self) -> dict[str, Any]:
        """The game-level habits as a record writes them (only those given)."""
        return {
            name: value.to_dict() if isinstance(value, Pot) else value
            for name, value in self.habits.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """The `kaiser-game/1` record (rules written in full); `record_parse` reads it back."""
        return {
            "format": GAME_FORMAT,
            "rules": self.rules.as_dict(),
            "seats": list(self.seats),
            "first_dealer": self.first_dealer,
            **({"played_on": self.played_on.isoformat()} if self.played_on else {}),
            **self.habits_dict(),
            "hands": [hand.to_dict() for hand in self.hands],
        }


def _seats(raw: Any, rules: Rules) -> tuple[str, ...]:
    if not isinstance(raw, list | tuple):
        raise RecordError(
            "seats",
            _("expected a list of %(seats)s names (got %(value)s)")
            % {"seats": rules.seats, "value": shown(raw)},
        )
    if len(raw) != rules.seats:
        raise RecordError(
            "seats",
            _("expected %(seats)s names (got %(count)s)")
            % {"seats": rules.seats, "count": len(raw)},
        )
    for seat, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            raise RecordError(
                "seats",
                _("seat %(seat)s needs a name (got %(name)s)")
                % {"seat": seat, "name": shown(name)},
            )
    return tuple(raw)


def record_parse(record: Mapping[str, Any]) -> GameRecord:
    """Check a `kaiser-game/1` record's top level (format, rules, seats, first_dealer,
    played_on, habits, hands) and read each hand's fields. Raises RulesError, RecordError or
    HandError.

    The hands are not scored here (see `game_score`), except that when a hand's fields are
    unreadable the hands before it are scored first, so that the error names the *first* bad
    hand either way.
    """
    if not isinstance(record, Mapping):
        raise RecordError(
            "format",
            _("expected a %(format)s record, a JSON object") % {"format": GAME_FORMAT},
        )
    if "format" in record and record["format"] != GAME_FORMAT:
        raise RecordError(
            "format",
            _("expected %(format)s (got %(value)s)")
            % {"format": shown(GAME_FORMAT), "value": shown(record["format"])},
        )
    if "rules" in record and record["rules"] is None:
        raise RulesError(_("rules must not be null (leave it out for the standard game)"))
    rules = rules_build(record.get("rules"))
    if "seats" not in record:
        raise RecordError(
            "seats",
            _("seats is missing: %(seats)s names, clockwise from seat 0") % {"seats": rules.seats},
        )
    seats = _seats(record["seats"], rules)
    first_dealer = record.get("first_dealer", 0)
    first_dealer_check(rules, first_dealer)
    played_on = None
    if "played_on" in record:
        if record["played_on"] is None:
            raise RecordError(
                "played_on", _("must not be null (leave it out when the day is not known)")
            )
        played_on = played_on_parse(record["played_on"])
    habits = game_habits_parse(record)
    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list | tuple):
        raise RecordError(
            "hands", _("expected a list of hands (got %(value)s)") % {"value": shown(raw_hands)}
        )
    if len(raw_hands) > MAX_HANDS:
        raise RecordError(
            "hands",
            _("a game holds at most %(limit)s hands (this record has %(count)s)")
            % {"limit": MAX_HANDS, "count": len(raw_hands)},
        )
    hands: list[HandInput] = []
    for number, raw in enumerate(raw_hands, 1):
        try:
            hands.append(HandInput.from_dict(raw, number))
        except HandError:
            game_score(rules, hands, first_dealer)  # an earlier hand may be wrong already
            raise
    return GameRecord(
        rules=rules,
        seats=seats,
        first_dealer=first_dealer,
        hands=tuple(hands),
        habits=habits,
        played_on=played_on,
    )


def record_score(record: Mapping[str, Any]) -> dict[str, Any]:
    """Score a `kaiser-game/1` record: its `kaiser-result/1` document (with the `pot` account
    when the record has a pot), or the KaiserError (RulesError, RecordError, HandError) of the
    first thing wrong with it."""
    # The common record in one pass (the same document); a day it names is checked first,
    # and a wrong one left to the general path, which says what is wrong first.
    checked = False
    if type(record) is dict and "played_on" in record:
        try:
            played_on_parse(record["played_on"])
            checked = True
        except RecordError:
            pass
    quick = record_quick(record, played_on_checked=checked)
    if quick is not None:
        return quick
    parsed = record_parse(record)
    game = game_score(parsed.rules, parsed.hands, parsed.first_dealer)
    result = game.as_result(parsed.seats)
    pot = parsed.habits.get("pot")
    if pot is not None:
        result["pot"] = pot_account(game, pot).as_dict()
    return result
