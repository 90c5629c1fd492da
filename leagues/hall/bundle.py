"""Writing and reading a night bundle (`kaiser-night/1`, see the package docstring). Reading
checks the whole file before anything is written: format, digest, sizes, references, and every
game record as the importer reads it."""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from kaiser_league.json_read import JsonRefused, json_read
from leagues.tournaments.models import (
    RoundEnd,
    SitOutScore,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from scorecards.models import FinishReason, Game, GameStatus
from scorecards.rules import KaiserError, game_score, record_parse
from scorecards.selectors import game_record

FORMAT = "kaiser-night/1"
# A night seats at most 60 players (15 tables) over at most 30 rounds; anything much larger is
# not a night. The file's size is bounded before it is parsed.
MAX_BUNDLE_BYTES = 4 * 1024 * 1024
MAX_PLAYERS = 200
MAX_ROUNDS = 30
MAX_GAMES = 600

NIGHT_FIELDS = (
    "name",
    "date",
    "format",
    "rounds",
    "round_end",
    "hands_per_round",
    "extra_hand_on_tie",
    "minutes_per_round",
    "rules",
    "hands_need_confirmation",
    "movement",
    "sitout_score",
    "sitout_points",
)


class BundleError(Exception):
    """The file is not a night bundle this server can take; `field` names the place."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


def _digest(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


# How a table's game ended, beyond what its hands say: the engine (or nothing yet), its round,
# or abandoned (with its reason).
ENDED = ("hands", "round", "abandoned")


def _ended(game: Game) -> str:
    if game.status == GameStatus.ABANDONED:
        return "abandoned"
    return "round" if game.finish_reason == FinishReason.ROUND else "hands"


def night_bundle(night: Tournament) -> dict[str, Any]:
    """The bundle of a finished night (BundleError naming `night` for one still going on)."""
    if night.status != TournamentStatus.FINISHED:
        raise BundleError("night", _("Only a finished night is carried to the club's server."))
    rounds = list(night.round_set.order_by("number"))
    entries = list(night.entries.select_related("player").order_by("pk"))
    tables = [
        table
        for round_ in rounds
        for table in round_.tables.select_related("game").order_by("number")
    ]
    games = [table.game for table in tables]
    names: list[str] = []
    for entry in entries:
        if entry.player.name not in names:
            names.append(entry.player.name)
    game_rows = []
    for game in games:
        record = game_record(game)
        for name in record["seats"]:
            if name not in names:
                names.append(name)
        keys = [
            str(key)
            for key in game.hands.order_by("number").values_list("idempotency_key", flat=True)
        ]
        game_rows.append({"record": record, "keys": keys, "ended": _ended(game)})
    entry_index = {entry.pk: position for position, entry in enumerate(entries)}
    body: dict[str, Any] = {
        "format": FORMAT,
        "club": night.club.name,
        "night": {
            **{name: getattr(night, name) for name in NIGHT_FIELDS},
            "date": night.date.isoformat(),
        },
        "players": names,
        "entries": [
            {
                "player": names.index(entry.player.name),
                "pair_number": entry.pair_number,
                "checked_in": entry.checked_in,
                "first_round": entry.first_round,
                "last_round": entry.last_round,
            }
            for entry in entries
        ],
        "rounds": [round_.number for round_ in rounds],
        "tables": [
            {"round": table.round.number, "number": table.number, "game": position}
            for position, table in enumerate(tables)
        ],
        "sitouts": [
            {"round": round_.number, "entry": entry_index[sitout.entry_id]}
            for round_ in rounds
            for sitout in round_.sitouts.order_by("entry_id")
        ],
        "games": game_rows,
    }
    return {**body, "digest": _digest(body)}


@dataclass(frozen=True)
class NightBundle:
    """A bundle read and checked whole: its parts as they will be written."""

    night: dict[str, Any]
    players: list[str]
    entries: list[dict[str, Any]]
    rounds: list[int]
    tables: list[dict[str, Any]]
    sitouts: list[dict[str, Any]]
    games: list[dict[str, Any]]  # record, keys (UUIDs), ended (one of ENDED)

    def first_keys(self) -> list[uuid.UUID]:
        """The first hand's key of every game that has a hand: how a night already uploaded is
        recognised."""
        return [game["keys"][0] for game in self.games if game["keys"]]


def _list(data: dict[str, Any], name: str, limit: int) -> list[Any]:
    value = data.get(name)
    if not isinstance(value, list):
        raise BundleError(name, _("a list is missing"))
    if len(value) > limit:
        raise BundleError(name, _("more than %(limit)s items") % {"limit": limit})
    return value


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BundleError(
            field,
            _("a whole number from %(low)s to %(high)s is expected") % {"low": low, "high": high},
        )
    return value


def _int_or_none(value: Any, field: str, low: int, high: int) -> int | None:
    return None if value is None else _int(value, field, low, high)


def _night_read(night: Any) -> dict[str, Any]:
    if not isinstance(night, dict):
        raise BundleError("night", _("the night's settings are missing"))
    out: dict[str, Any] = {}
    text_limits = {"name": 100}
    choices = {
        "format": TournamentFormat.values,
        "round_end": RoundEnd.values,
        "sitout_score": SitOutScore.values,
    }
    for name in NIGHT_FIELDS:
        value = night.get(name)
        field = f"night.{name}"
        if name in text_limits:
            if not isinstance(value, str) or not value.strip() or len(value) > text_limits[name]:
                raise BundleError(field, _("a name of 1 to 100 characters is expected"))
        elif name in choices:
            if value not in choices[name]:
                raise BundleError(field, _("not a value this server knows"))
        elif name == "date":
            import datetime

            try:
                value = datetime.date.fromisoformat(value) if isinstance(value, str) else None
            except ValueError:
                value = None
            if value is None:
                raise BundleError(field, _("a day (YYYY-MM-DD) is expected"))
        elif name in ("extra_hand_on_tie", "hands_need_confirmation", "movement"):
            if not isinstance(value, bool):
                raise BundleError(field, _("true or false is expected"))
        elif name == "rules":
            if not isinstance(value, dict):
                raise BundleError(field, _("the rules are missing"))
        elif name == "rounds":
            value = _int(value, field, 1, MAX_ROUNDS)
        elif name == "hands_per_round":
            value = _int(value, field, 1, 500)
        elif name == "minutes_per_round":
            value = _int_or_none(value, field, 1, 600)
        elif name == "sitout_points":
            value = _int(value, field, -1000, 1000)
        out[name] = value
    return out


def bundle_read(data: bytes) -> NightBundle:
    """The bundle in `data`, checked whole (BundleError naming the field at fault)."""
    if len(data) > MAX_BUNDLE_BYTES:
        raise BundleError("file", _("the file is larger than a night bundle can be"))
    try:
        document = json_read(data)
    except JsonRefused as error:
        raise BundleError(error.path or "file", error.message) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BundleError("format", _("the file is not a %(format)s bundle") % {"format": FORMAT})
    body = {name: value for name, value in document.items() if name != "digest"}
    if document.get("digest") != _digest(body):
        raise BundleError("digest", _("the file was changed or cut short since it was exported"))
    night = _night_read(document.get("night"))
    players = _list(document, "players", MAX_PLAYERS)
    for position, name in enumerate(players):
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            raise BundleError(f"players[{position}]", _("a name of 1 to 80 characters is expected"))
    if len({name.strip().casefold() for name in players}) != len(players):
        raise BundleError("players", _("the same name appears twice"))
    rounds = _list(document, "rounds", MAX_ROUNDS)
    if rounds != list(range(1, len(rounds) + 1)):
        raise BundleError("rounds", _("the rounds are not numbered 1, 2, 3…"))
    entries = []
    for position, entry in enumerate(_list(document, "entries", MAX_PLAYERS)):
        field = f"entries[{position}]"
        if not isinstance(entry, dict):
            raise BundleError(field, _("an entry is expected"))
        entries.append(
            {
                "player": _int(entry.get("player"), f"{field}.player", 0, len(players) - 1),
                "pair_number": _int_or_none(
                    entry.get("pair_number"), f"{field}.pair_number", 1, 500
                ),
                "checked_in": entry.get("checked_in") is True,
                "first_round": _int(entry.get("first_round"), f"{field}.first_round", 1, 99),
                "last_round": _int_or_none(entry.get("last_round"), f"{field}.last_round", 0, 99),
            }
        )
    if len({entry["player"] for entry in entries}) != len(entries):
        raise BundleError("entries", _("a player is entered twice"))
    games = []
    keys_seen: set[uuid.UUID] = set()
    for position, game in enumerate(_list(document, "games", MAX_GAMES)):
        field = f"games[{position}]"
        if not isinstance(game, dict) or not isinstance(game.get("record"), dict):
            raise BundleError(field, _("a game record is expected"))
        try:
            parsed = record_parse(game["record"])
            game_score(parsed.rules, parsed.hands, parsed.first_dealer)
        except KaiserError as error:
            raise BundleError(f"{field}.record", str(error)) from None
        raw_keys = game.get("keys")
        if not isinstance(raw_keys, list) or len(raw_keys) != len(parsed.hands):
            raise BundleError(f"{field}.keys", _("one key per hand is expected"))
        try:
            keys = [uuid.UUID(str(key)) for key in raw_keys]
        except ValueError:
            raise BundleError(f"{field}.keys", _("a key is not a UUID")) from None
        if keys_seen & set(keys) or len(set(keys)) != len(keys):
            raise BundleError(f"{field}.keys", _("a key appears twice"))
        keys_seen.update(keys)
        for name in parsed.seats:
            if name.strip() not in [player.strip() for player in players]:
                raise BundleError(f"{field}.record.seats", _("a seat names nobody of the night"))
        if game.get("ended") not in ENDED:
            raise BundleError(f"{field}.ended", _("not a value this server knows"))
        games.append({"record": game["record"], "keys": keys, "ended": game["ended"]})
    tables = []
    placed: set[tuple[int, int]] = set()
    used_games: set[int] = set()
    for position, table in enumerate(_list(document, "tables", MAX_GAMES)):
        field = f"tables[{position}]"
        if not isinstance(table, dict):
            raise BundleError(field, _("a table is expected"))
        row = {
            "round": _int(table.get("round"), f"{field}.round", 1, len(rounds)),
            "number": _int(table.get("number"), f"{field}.number", 1, 500),
            "game": _int(table.get("game"), f"{field}.game", 0, len(games) - 1),
        }
        spot = (row["round"], row["number"])
        if spot in placed or row["game"] in used_games:
            raise BundleError(field, _("a table or a game appears twice"))
        placed.add(spot)
        used_games.add(row["game"])
        tables.append(row)
    if len(used_games) != len(games):
        raise BundleError("tables", _("a game sits at no table"))
    sitouts = []
    for position, sitout in enumerate(_list(document, "sitouts", MAX_PLAYERS * MAX_ROUNDS)):
        field = f"sitouts[{position}]"
        if not isinstance(sitout, dict):
            raise BundleError(field, _("a sit-out is expected"))
        sitouts.append(
            {
                "round": _int(sitout.get("round"), f"{field}.round", 1, len(rounds)),
                "entry": _int(sitout.get("entry"), f"{field}.entry", 0, len(entries) - 1),
            }
        )
    return NightBundle(night, players, entries, rounds, tables, sitouts, games)
