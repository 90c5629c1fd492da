"""The checks of a backup that a single value cannot make: what the services refuse when the
objects meet (a night's rules, a table's game, a hand version's record). Run on the checked
document, before anything is written; every refusal names section, object and field."""

from __future__ import annotations

from collections import Counter
from typing import Any

from leagues.backup.fields import BackupError
from leagues.backup.limits import MAX_VERSIONS_PER_HAND
from scorecards.rules import HandInput, KaiserError, Rules, rules_build

# What `tournament_create` accepts: rounds and hands per round.
_ROUNDS = (1, 30)


def semantics_check(checked: dict[str, Any]) -> None:
    """Raise BackupError naming the first object the services would not have made."""
    sections = checked["sections"]
    for i, (values, _refs) in enumerate(sections["tournaments"]):
        _night_check(values, f"tournaments[{i}]")
    games = checked["games"]
    for i, (_values, refs) in enumerate(sections["tournament_tables"]):
        game = refs.get("game")
        if game is not None and not _pairs(games[game]["parsed"].rules):
            raise BackupError(
                f"tournament_tables[{i}].game",
                "a night's table plays a game of four in two pairs",
            )
    for key in ("seat_claims", "seat_releases"):
        for i, (values, refs) in enumerate(sections.get(key, ())):
            seats = len(games[refs["game"]]["parsed"].seats)
            if not 0 <= values.get("seat", 0) < seats:
                raise BackupError(f"{key}[{i}].seat", f"expected a seat from 0 to {seats - 1}")
    per_hand: Counter[tuple[int, int]] = Counter()
    for i, (values, refs) in enumerate(sections["hand_versions"]):
        path = f"hand_versions[{i}]"
        number = values.get("number", 0)
        if number < 1:
            raise BackupError(f"{path}.number", "expected a hand number from 1")
        for name in ("before", "after"):
            _hand_check(values.get(name), number, f"{path}.{name}")
        per_hand[(refs["game"], number)] += 1
        if per_hand[(refs["game"], number)] > MAX_VERSIONS_PER_HAND:
            raise BackupError(
                f"{path}.number", f"more than {MAX_VERSIONS_PER_HAND} versions of this hand"
            )


def _pairs(rules: Rules) -> bool:
    return rules.seats == 4 and rules.side_count == 2


def _night_check(values: dict[str, Any], path: str) -> None:
    rules = values.get("rules") or {"preset": "standard"}
    try:
        built = rules_build(rules)
    except KaiserError as exc:
        raise BackupError(f"{path}.rules", str(exc)) from exc
    if not _pairs(built):
        raise BackupError(f"{path}.rules", "tournaments are played by four players in two pairs")
    rounds = values.get("rounds")
    if rounds is not None and not _ROUNDS[0] <= rounds <= _ROUNDS[1]:
        raise BackupError(f"{path}.rounds", f"expected {_ROUNDS[0]} to {_ROUNDS[1]} rounds")
    if values.get("hands_per_round", 1) < 1:
        raise BackupError(f"{path}.hands_per_round", "at least one hand a round")


def _hand_check(value: Any, number: int, path: str) -> None:
    """A version's `before` or `after`: nothing (null), or a hand as a kaiser-game/1 record
    writes it."""
    if value is None:
        return
    try:
        HandInput.from_dict(value, number)
    except KaiserError as exc:
        raise BackupError(path, f"expected a kaiser-game/1 hand or null: {exc}") from exc
