"""Club backups: one JSON document (`kaiser-club/1`) with everything a club needs to start again
on another server, made on SQLite or PostgreSQL and restored on either.

    data = club_export(club)                  # a read: plain dicts and lists, JSON-ready
    club = club_import(data=data)             # a write, in one transaction: all or nothing
    club = club_import(data=data, slug="regina-copy", name="Regina (copy)")

What the document holds:
- `club` (every setting), `members` (usernames, names, e-mail, roles; never passwords),
  `players`, `seasons` (with their rules), and `games`: each game's `kaiser-game/1` record with
  season, table label, seated players and each hand's key, author, times and confirmation. Games
  are restored through the game services (`game_start`, `hand_record`), so a restored game is
  scored by the same code as one played at the table; standings and ratings, derived data, are
  then rebuilt from them and come out equal.
- the SECTIONS below, one declaration per model: tournament nights (entries, rounds, tables,
  sit-outs), invitations, and the hands' version history (corrections, undos, confirmations).

The contract of a section (`Section`): `key` names its list in the document; `model` and
`fields` are the columns copied as they are, each checked by the kind of its model field (text
within its max_length and free of NUL and lone surrogates, integers within the column's range,
choices among the model's, dates, times with their offset, booleans, JSON); `refs` maps a
foreign key to what it points at: "user" (a member's username), "club" (the restored club), or
another section's key / "players" / "seasons" / "games", written as the position in that list.
`rows(club)` gives the club's rows in a stable order; `fresh` gives a new value for a
globally unique field taken on this server already (an invitation token). A section may only
refer to sections declared before it. Adding a model is one more `Section(...)` in SECTIONS.

Every refusal is a BackupError naming the place (`tournaments[2].date: ...`) and writes nothing.
Passwords are not carried: restored accounts have none and set one through the ordinary
password reset page (`leagues.forms.PasswordResetForm` includes such accounts).
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch, QuerySet
from django.utils.dateparse import parse_date, parse_datetime

from leagues.models import (
    Club,
    Invitation,
    InvitationUse,
    Membership,
    Player,
    Season,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSitOut,
    TournamentTable,
    name_key,
)
from leagues.roles import Role
from scorecards.models import Game, Hand, HandVersion, SeatClaim, SpentKey
from scorecards.rules import KaiserError, game_score, record_parse, rules_build
from scorecards.selectors import game_record
from scorecards.services import game_start, hand_record

CLUB_FORMAT = "kaiser-club/1"


class BackupError(ValueError):
    """A backup document that cannot be restored. `str(e)` names the place, e.g.
    `games[3].record: hand 2: tricks must ...`; `.path` is that place alone."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _username(user, members: set[int]) -> str | None:
    """A member's username; None for no one or for an account that is not (or no longer) a
    member of the club, whose name the document cannot carry (the `*_name` text stays)."""
    return user.get_username() if user is not None and user.pk in members else None


def club_export(club: Club) -> dict[str, Any]:
    """The club as a `kaiser-club/1` document (JSON-ready). Games oldest first, each with its
    `kaiser-game/1` record exactly as `scorecards.selectors.game_record` writes it."""
    # Sorted here, not by the database: collations differ between SQLite and PostgreSQL, and a
    # document must come out the same from both.
    members = sorted(
        Membership.objects.filter(club=club).select_related("user"),
        key=lambda m: m.user.get_username(),
    )
    players = sorted(
        Player.objects.filter(club=club).select_related("user"), key=lambda p: (p.name, p.pk)
    )
    seasons = sorted(Season.objects.filter(club=club), key=lambda s: (s.starts_on, s.name))
    games = (
        Game.objects.filter(club=club)
        .select_related("season", "created_by")
        .prefetch_related(
            "seats__player",
            Prefetch("hands", Hand.objects.select_related("entered_by").order_by("number")),
        )
        .order_by("created_at", "pk")
    )
    member_ids = {m.user_id for m in members}
    players = list(players)
    seasons = list(seasons)
    games = list(games)
    index = {
        "players": {p.pk: i for i, p in enumerate(players)},
        "seasons": {s.pk: i for i, s in enumerate(seasons)},
        "games": {g.pk: i for i, g in enumerate(games)},
    }
    return {
        "format": CLUB_FORMAT,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "standings_public": club.standings_public,
            "hands_need_confirmation": club.hands_need_confirmation,
            "pot_per_set": club.pot_per_set,
            "created_at": _when(club.created_at),
        },
        "members": [
            {
                "username": m.user.get_username(),
                "email": m.user.email,
                "first_name": m.user.first_name,
                "last_name": m.user.last_name,
                "role": m.role,
            }
            for m in members
        ],
        "players": [
            {
                "name": p.name,
                "username": _username(p.user, member_ids),
                "created_at": _when(p.created_at),
            }
            for p in players
        ],
        "seasons": [
            {
                "name": s.name,
                "starts_on": _when(s.starts_on),
                "ends_on": _when(s.ends_on),
                "rules": s.rules,
            }
            for s in seasons
        ],
        "games": [_game_export(game, member_ids) for game in games],
        **_sections_export(club, index, member_ids),
    }


def _game_export(game: Game, members: set[int]) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return {
        "season": game.season.name if game.season else None,
        "table_label": game.table_label,
        "created_by": _username(game.created_by, members),
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "state": {name: getattr(game, name) for name in GAME_STATE},
        "seat_players": [seat.player.name if seat.player else None for seat in seats],
        "record": game_record(game),
        "hands": [
            {
                "number": hand.number,
                "idempotency_key": str(hand.idempotency_key),
                "entered_by": _username(hand.entered_by, members),
                "entered_by_name": hand.entered_by_name,
                "entered_at": _when(hand.entered_at),
                "confirmed_at": _when(hand.confirmed_at),
                "confirmed_by_name": hand.confirmed_by_name,
                "entered_seat": hand.entered_seat,
            }
            for hand in game.hands.all()
        ],
    }


# --- Reading a document: every check before the first write ---------------------------------


def _obj(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BackupError(path, "expected an object")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise BackupError(path, "expected a list")
    return value


def _text(
    value: Any, path: str, *, max_length: int, required: bool = True, null: bool = False
) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise BackupError(path, "expected text")
    if required and not value.strip():
        raise BackupError(path, "must not be empty")
    if len(value) > max_length:
        raise BackupError(path, f"longer than {max_length} characters")
    if "\x00" in value:
        raise BackupError(path, "contains a NUL character")
    if not _encodable(value):
        raise BackupError(path, "contains a lone surrogate (not valid Unicode text)")
    return value


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json_text_check(value: Any, path: str) -> None:
    """Every text (keys too) in a JSON value storable: no NUL, no lone surrogate; the refusal
    names the exact place. Iterative, so a deeply nested value cannot exhaust the stack."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise BackupError(where, "contains a NUL character")
            if not _encodable(item):
                raise BackupError(where, "contains a lone surrogate (not valid Unicode text)")
        elif isinstance(item, Mapping):
            for key, inner in item.items():
                inner_path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and (not _encodable(key) or "\x00" in key):
                    raise BackupError(where, "a key contains a NUL character or a lone surrogate")
                stack.append((inner, inner_path))
        elif isinstance(item, list):
            stack.extend((inner, f"{where}[{i}]") for i, inner in enumerate(item))


def _slug(value: Any, path: str) -> str:
    """A club's short name as its pages' addresses take it: letters, digits, - and _."""
    value = _text(value, path, max_length=60)
    try:
        validate_slug(value)
    except ValidationError as exc:
        raise BackupError(path, "use only letters, digits, hyphens and underscores") from exc
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise BackupError(path, "expected true or false")
    return value


def _date(value: Any, path: str, *, null: bool = False) -> datetime.date | None:
    if value is None and null:
        return None
    try:
        parsed = parse_date(value) if isinstance(value, str) else None
    except ValueError:  # well formed but no such day, e.g. 2026-02-30
        parsed = None
    if parsed is None:
        raise BackupError(path, "expected a date such as 2026-09-01")
    return parsed


def _moment(value: Any, path: str) -> datetime.datetime | None:
    """An ISO date-time with its offset, or None (not given: the import time is kept)."""
    if value is None:
        return None
    try:
        parsed = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise BackupError(path, "expected a date and time with its offset (ISO 8601)")
    return parsed


def _check(data: Any) -> dict[str, Any]:
    """The document read and checked in full (raises BackupError naming the first problem)."""
    data = _obj(data, "")
    _json_text_check(data, "")
    if data.get("format") != CLUB_FORMAT:
        raise BackupError("format", f"expected {CLUB_FORMAT!r} (got {data.get('format')!r})")
    club = _obj(data.get("club"), "club")
    checked: dict[str, Any] = {
        "club": {
            "name": _text(club.get("name"), "club.name", max_length=100),
            "slug": _slug(club.get("slug"), "club.slug"),
            "standings_public": _bool(club.get("standings_public", False), "club.standings_public"),
            "hands_need_confirmation": _bool(
                club.get("hands_need_confirmation", False), "club.hands_need_confirmation"
            ),
            "pot_per_set": _field_check(
                Club._meta.get_field("pot_per_set"), club.get("pot_per_set"), "club.pot_per_set"
            ),
            "created_at": _moment(club.get("created_at"), "club.created_at"),
        }
    }
    usernames: set[str] = set()
    members = []
    for i, raw in enumerate(_list(data.get("members", []), "members")):
        path = f"members[{i}]"
        member = _obj(raw, path)
        username = _text(member.get("username"), f"{path}.username", max_length=150)
        if username in usernames:
            raise BackupError(f"{path}.username", f"{username!r} is listed twice")
        try:
            get_user_model().username_validator(username)
        except ValidationError as exc:
            raise BackupError(f"{path}.username", " ".join(exc.messages)) from exc
        usernames.add(username)
        role = member.get("role")
        if role not in Role.values:
            raise BackupError(f"{path}.role", f"expected one of {', '.join(Role.values)}")
        members.append(
            {
                "username": username,
                "role": role,
                "email": _text(
                    member.get("email", ""), f"{path}.email", max_length=254, required=False
                ),
                "first_name": _text(
                    member.get("first_name", ""),
                    f"{path}.first_name",
                    max_length=150,
                    required=False,
                ),
                "last_name": _text(
                    member.get("last_name", ""),
                    f"{path}.last_name",
                    max_length=150,
                    required=False,
                ),
            }
        )
    checked["members"] = members

    player_names: dict[str, str] = {}
    linked: set[str | None] = set()
    players = []
    for i, raw in enumerate(_list(data.get("players", []), "players")):
        path = f"players[{i}]"
        player = _obj(raw, path)
        name = _text(player.get("name"), f"{path}.name", max_length=80).strip()
        if name_key(name) in player_names:
            raise BackupError(f"{path}.name", f"{name!r} is listed twice (ignoring case)")
        player_names[name_key(name)] = name
        username = _text(player.get("username"), f"{path}.username", max_length=150, null=True)
        if username is not None and username not in usernames:
            raise BackupError(f"{path}.username", f"{username!r} is not a member of the club")
        if username is not None and username in linked:
            raise BackupError(f"{path}.username", f"{username!r} is linked to two players")
        linked.add(username)
        players.append(
            {
                "name": name,
                "username": username,
                "created_at": _moment(player.get("created_at"), f"{path}.created_at"),
            }
        )
    checked["players"] = players

    season_names: set[str] = set()
    seasons = []
    for i, raw in enumerate(_list(data.get("seasons", []), "seasons")):
        path = f"seasons[{i}]"
        season = _obj(raw, path)
        name = _text(season.get("name"), f"{path}.name", max_length=100)
        if name in season_names:
            raise BackupError(f"{path}.name", f"{name!r} is listed twice")
        season_names.add(name)
        starts_on = _date(season.get("starts_on"), f"{path}.starts_on")
        ends_on = _date(season.get("ends_on"), f"{path}.ends_on", null=True)
        if ends_on is not None and ends_on < starts_on:
            raise BackupError(f"{path}.ends_on", "the season ends before it starts")
        rules = _obj(season.get("rules", {}), f"{path}.rules")
        try:
            rules_build(rules)
        except KaiserError as exc:
            raise BackupError(f"{path}.rules", str(exc)) from exc
        seasons.append({"name": name, "starts_on": starts_on, "ends_on": ends_on, "rules": rules})
    checked["seasons"] = seasons

    keys: set[uuid.UUID] = set()
    games = []
    for i, raw in enumerate(_list(data.get("games", []), "games")):
        games.append(
            _check_game(
                _obj(raw, f"games[{i}]"), f"games[{i}]", keys, season_names, player_names, usernames
            )
        )
    checked["games"] = games
    sizes = {"players": len(players), "seasons": len(seasons), "games": len(games)}
    checked["sections"] = _sections_check(data, sizes, usernames)
    checked["has_versions"] = "hand_versions" in data
    return checked


def _check_game(
    game: Mapping[str, Any],
    path: str,
    keys: set[uuid.UUID],
    season_names: set[str],
    player_names: dict[str, str],
    usernames: set[str],
) -> dict[str, Any]:
    try:
        parsed = record_parse(_obj(game.get("record"), f"{path}.record"))
        game_score(parsed.rules, parsed.hands, parsed.first_dealer)
    except KaiserError as exc:
        raise BackupError(f"{path}.record", str(exc)) from exc
    season = _text(game.get("season"), f"{path}.season", max_length=100, null=True)
    if season is not None and season not in season_names:
        raise BackupError(f"{path}.season", f"no season named {season!r} in this document")
    created_by = _text(game.get("created_by"), f"{path}.created_by", max_length=150, null=True)
    if created_by is not None and created_by not in usernames:
        raise BackupError(f"{path}.created_by", f"{created_by!r} is not a member of the club")
    seat_players = _list(
        game.get("seat_players", [None] * len(parsed.seats)), f"{path}.seat_players"
    )
    if len(seat_players) != len(parsed.seats):
        raise BackupError(f"{path}.seat_players", f"expected {len(parsed.seats)} entries")
    for seat, name in enumerate(seat_players):
        name = _text(name, f"{path}.seat_players[{seat}]", max_length=80, null=True)
        if name is not None and name_key(name) not in player_names:
            raise BackupError(f"{path}.seat_players[{seat}]", f"no player named {name!r}")
    seated = [name_key(n) for n in seat_players if n is not None]
    if len(set(seated)) != len(seated):
        raise BackupError(f"{path}.seat_players", "a player can sit in only one seat")
    hands_meta = _list(game.get("hands", []), f"{path}.hands")
    if hands_meta and len(hands_meta) != len(parsed.hands):
        raise BackupError(
            f"{path}.hands", f"expected {len(parsed.hands)} entries, one per hand of the record"
        )
    hands = []
    for number, raw in enumerate(hands_meta, 1):
        hpath = f"{path}.hands[{number - 1}]"
        meta = _obj(raw, hpath)
        if meta.get("number", number) != number:
            raise BackupError(f"{hpath}.number", f"expected {number}")
        try:
            key = uuid.UUID(str(meta["idempotency_key"])) if meta.get("idempotency_key") else None
        except ValueError as exc:
            raise BackupError(f"{hpath}.idempotency_key", "expected a UUID") from exc
        if key is not None:
            if key in keys:
                raise BackupError(f"{hpath}.idempotency_key", "used by another hand")
            keys.add(key)
        entered_by = _text(meta.get("entered_by"), f"{hpath}.entered_by", max_length=150, null=True)
        if entered_by is not None and entered_by not in usernames:
            raise BackupError(f"{hpath}.entered_by", f"{entered_by!r} is not a member")
        hands.append(
            {
                "idempotency_key": key,
                "entered_by": entered_by,
                "entered_by_name": _text(
                    meta.get("entered_by_name", ""),
                    f"{hpath}.entered_by_name",
                    max_length=80,
                    required=False,
                ),
                "entered_at": _moment(meta.get("entered_at"), f"{hpath}.entered_at"),
                "confirmed_at": _moment(meta.get("confirmed_at"), f"{hpath}.confirmed_at"),
                "confirmed_by_name": _text(
                    meta.get("confirmed_by_name", ""),
                    f"{hpath}.confirmed_by_name",
                    max_length=80,
                    required=False,
                ),
                "entered_seat": _seat(meta.get("entered_seat"), f"{hpath}.entered_seat", parsed),
            }
        )
    state = _obj(game.get("state", {}), f"{path}.state")
    return {
        "parsed": parsed,
        "season": season,
        "table_label": _text(
            game.get("table_label", ""), f"{path}.table_label", max_length=40, required=False
        ),
        "created_by": created_by,
        "created_at": _moment(game.get("created_at"), f"{path}.created_at"),
        "finished_at": _moment(game.get("finished_at"), f"{path}.finished_at"),
        "state": {
            name: _field_check(Game._meta.get_field(name), state[name], f"{path}.state.{name}")
            for name in GAME_STATE
            if name in state
        },
        "seat_players": [n.strip() if n is not None else None for n in seat_players],
        "hands": hands,
    }


# --- Writing -----------------------------------------------------------------------------------


@transaction.atomic
def club_import(*, data: Any, slug: str | None = None, name: str | None = None) -> Club:
    """Restore a `kaiser-club/1` document as a new club (`slug` and `name` override the
    document's, to restore beside the original). Members are matched to existing accounts by
    username, or get a new account with no usable password. Hands keep their idempotency keys
    unless a key is taken on this server already (then a new one is given).

    Raises BackupError naming the first problem; then nothing is written."""
    checked = _check(data)
    club_data = checked["club"]
    slug = _slug(slug, "slug") if slug is not None else club_data["slug"]
    name = _text(name, "name", max_length=100) if name is not None else club_data["name"]
    if Club.objects.filter(slug=slug).exists():
        raise BackupError("club.slug", f"a club with short name {slug!r} exists already")
    club = Club.objects.create(
        name=name,
        slug=slug,
        standings_public=club_data["standings_public"],
        hands_need_confirmation=club_data["hands_need_confirmation"],
        pot_per_set=club_data["pot_per_set"],
    )
    _stamp(Club, club.pk, created_at=club_data["created_at"])

    user_model = get_user_model()
    users = {}
    for member in checked["members"]:
        user = user_model.objects.filter(username=member["username"]).first()
        if user is None:
            user = user_model(
                username=member["username"],
                email=member["email"],
                first_name=member["first_name"],
                last_name=member["last_name"],
            )
            user.set_unusable_password()
            user.save()
        users[member["username"]] = user
        Membership.objects.create(club=club, user=user, role=member["role"])

    players = {}
    for player in checked["players"]:
        stored = Player.objects.create(
            club=club, name=player["name"], user=users.get(player["username"])
        )
        _stamp(Player, stored.pk, created_at=player["created_at"])
        players[name_key(player["name"])] = stored

    seasons = {
        season["name"]: Season.objects.create(club=club, **season) for season in checked["seasons"]
    }

    all_keys = [h["idempotency_key"] for g in checked["games"] for h in g["hands"]]
    taken = set(
        Hand.objects.filter(idempotency_key__in=[k for k in all_keys if k]).values_list(
            "idempotency_key", flat=True
        )
    )
    games = [
        _game_restore(club, game_data, users, players, seasons, taken)
        for game_data in checked["games"]
    ]
    if checked["has_versions"]:
        # The document's history replaces the "entered" versions the restore just wrote.
        HandVersion.objects.filter(game__in=games).delete()
    made = {
        "players": list(players.values()),
        "seasons": list(seasons.values()),
        "games": games,
    }
    _sections_restore(club, checked["sections"], made, users)
    club.refresh_from_db()  # the restored creation time
    return club


def _game_restore(club, game_data, users, players, seasons, taken) -> Game:
    parsed = game_data["parsed"]
    seats = [
        players[name_key(player)] if player is not None else name
        for player, name in zip(game_data["seat_players"], parsed.seats, strict=True)
    ]
    created_by = users.get(game_data["created_by"])
    try:
        game = game_start(
            seats=seats,
            rules=parsed.rules,
            club=club,
            season=seasons.get(game_data["season"]),
            first_dealer=parsed.first_dealer,
            table_label=game_data["table_label"],
            created_by=created_by,
            habits=parsed.habits_dict(),
        )
    except KaiserError as exc:
        raise BackupError("games", str(exc)) from exc
    metas = game_data["hands"] or [{} for _ in parsed.hands]
    for hand, meta in zip(parsed.hands, metas, strict=True):
        key = meta.get("idempotency_key")
        recorded = hand_record(
            game=game,
            hand=hand,
            idempotency_key=key if key is not None and key not in taken else None,
            entered_by=users.get(meta.get("entered_by")),
            entered_by_name=meta.get("entered_by_name", "import"),
        )
        _stamp(
            Hand,
            recorded.hand.pk,
            entered_at=meta.get("entered_at"),
            confirmed_at=meta.get("confirmed_at"),
            confirmed_by_name=meta.get("confirmed_by_name") or "",
            entered_seat=meta.get("entered_seat"),
        )
    # What the hands alone cannot give back: a game abandoned, or closed with its round.
    _stamp(
        Game,
        game.pk,
        created_at=game_data["created_at"],
        finished_at=game_data["finished_at"],
        **game_data["state"],
    )
    return game


# A game's lifecycle as the table left it (the hands give back the rest).
GAME_STATE = ("status", "finish_reason", "winner", "abandon_reason")


def _seat(value: Any, path: str, parsed) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(parsed.seats):
        raise BackupError(path, f"expected a seat from 0 to {len(parsed.seats) - 1}")
    return value


def _stamp(model, pk: int, **fields: Any) -> None:
    """Put back the document's values that create() cannot take (auto_now_add times) or that a
    later step sets (a finished game's time). A value of None keeps what the write gave."""
    given = {field: value for field, value in fields.items() if value is not None}
    if given:
        model.objects.filter(pk=pk).update(**given)


# --- Sections: one declaration per model ---------------------------------------------------------

# What a reference points at when it is not another section: the restored club, or a member.
CLUB = "club"
USER = "user"
# The sections built by hand above (their lists are the reference targets).
CORE_LISTS = ("players", "seasons", "games")

# Column ranges of the integer fields (the same on SQLite and PostgreSQL).
_INT_RANGES: dict[str, tuple[int, int]] = {
    "PositiveSmallIntegerField": (0, 32767),
    "SmallIntegerField": (-32768, 32767),
    "PositiveIntegerField": (0, 2147483647),
    "IntegerField": (-2147483648, 2147483647),
    "BigIntegerField": (-(2**63), 2**63 - 1),
    "PositiveBigIntegerField": (0, 2**63 - 1),
}


@dataclass(frozen=True)
class Section:
    """One model in the document (see the module docstring for the contract)."""

    key: str
    model: type[models.Model]
    fields: tuple[str, ...]
    refs: Mapping[str, str]
    rows: Callable[[Club], QuerySet]
    fresh: Mapping[str, Callable[[], Any]] = field(default_factory=dict)


SECTIONS: tuple[Section, ...] = (
    Section(
        key="tournaments",
        model=Tournament,
        fields=(
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
            "status",
            "created_at",
        ),
        refs={"club": CLUB, "season": "seasons", "created_by": USER},
        rows=lambda club: Tournament.objects.filter(club=club).order_by("date", "pk"),
    ),
    Section(
        key="tournament_entries",
        model=TournamentEntry,
        fields=("pair_number", "checked_in", "first_round", "last_round", "created_at"),
        refs={"tournament": "tournaments", "player": "players"},
        rows=lambda club: TournamentEntry.objects.filter(tournament__club=club).order_by(
            "tournament__date", "tournament_id", "pk"
        ),
    ),
    Section(
        key="tournament_rounds",
        model=TournamentRound,
        fields=("number", "status", "drawn_at", "closed_at"),
        refs={"tournament": "tournaments"},
        rows=lambda club: TournamentRound.objects.filter(tournament__club=club).order_by(
            "tournament__date", "tournament_id", "number"
        ),
    ),
    Section(
        key="tournament_tables",
        model=TournamentTable,
        fields=("number",),
        refs={"round": "tournament_rounds", "game": "games"},
        rows=lambda club: TournamentTable.objects.filter(round__tournament__club=club).order_by(
            "round__tournament__date", "round__tournament_id", "round__number", "number"
        ),
    ),
    Section(
        key="tournament_sitouts",
        model=TournamentSitOut,
        fields=(),
        refs={"round": "tournament_rounds", "entry": "tournament_entries"},
        rows=lambda club: TournamentSitOut.objects.filter(round__tournament__club=club).order_by(
            "round__tournament__date", "round__tournament_id", "round__number", "entry_id"
        ),
    ),
    Section(
        key="invitations",
        model=Invitation,
        fields=("token", "role", "created_at", "expires_at", "revoked", "max_uses"),
        refs={"club": CLUB, "created_by": USER},
        rows=lambda club: Invitation.objects.filter(club=club).order_by("created_at", "pk"),
        fresh={"token": lambda: secrets.token_urlsafe(32)},
    ),
    Section(
        key="hand_versions",
        model=HandVersion,
        fields=("number", "action", "before", "after", "by_name", "reason", "at"),
        refs={"game": "games", "by": USER},
        rows=lambda club: HandVersion.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "at", "pk"
        ),
    ),
    Section(
        key="invitation_uses",
        model=InvitationUse,
        fields=("username", "at"),
        refs={"invitation": "invitations", "user": USER},
        rows=lambda club: InvitationUse.objects.filter(invitation__club=club).order_by("at", "pk"),
    ),
    Section(
        key="seat_claims",
        model=SeatClaim,
        fields=("seat", "phone", "at"),
        refs={"game": "games", "user": USER},
        rows=lambda club: SeatClaim.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "seat"
        ),
    ),
    Section(
        key="spent_keys",
        model=SpentKey,
        fields=("key", "number", "by_name", "at"),
        refs={"game": "games"},
        rows=lambda club: SpentKey.objects.filter(game__club=club).order_by(
            "game__created_at", "game_id", "at", "pk"
        ),
        fresh={"key": uuid.uuid4},
    ),
)


def _sections_export(
    club: Club, index: dict[str, dict[int, int]], members: set[int]
) -> dict[str, list]:
    """Every section's rows; `index` maps a list's key to {pk: position} and grows as we go."""
    out: dict[str, list] = {}
    for section in SECTIONS:
        rows = []
        positions: dict[int, int] = {}
        related = [name for name, target in section.refs.items() if target == USER]
        for position, obj in enumerate(section.rows(club).select_related(*related)):
            positions[obj.pk] = position
            row: dict[str, Any] = {}
            for name in section.fields:
                value = getattr(obj, name)
                if isinstance(value, datetime.date):
                    value = value.isoformat()
                elif isinstance(value, uuid.UUID):
                    value = str(value)
                row[name] = value
            for name, target in section.refs.items():
                if target == CLUB:
                    continue
                if target == USER:
                    row[name] = _username(getattr(obj, name), members)
                else:
                    pk = getattr(obj, f"{name}_id")
                    row[name] = index[target][pk] if pk is not None else None
            rows.append(row)
        index[section.key] = positions
        out[section.key] = rows
    return out


def _field_check(model_field: models.Field, value: Any, path: str) -> Any:
    """`value` from the document as the column takes it, or BackupError naming `path`."""
    if value is None:
        if model_field.null:
            return None
        raise BackupError(path, "must not be empty")
    kind = model_field.get_internal_type()
    if kind in _INT_RANGES:
        low, high = _INT_RANGES[kind]
        if isinstance(value, bool) or not isinstance(value, int):
            raise BackupError(path, "expected a whole number")
        for validator in model_field.validators:
            try:
                validator(value)
            except ValidationError as exc:
                raise BackupError(path, " ".join(exc.messages)) from exc
        if not low <= value <= high:
            raise BackupError(path, f"expected a number from {low} to {high}")
    elif kind == "BooleanField":
        value = _bool(value, path)
    elif kind == "DateField":
        value = _date(value, path)
    elif kind == "DateTimeField":
        value = _moment(value, path)
    elif kind == "UUIDField":
        try:
            value = uuid.UUID(str(value))
        except ValueError as exc:
            raise BackupError(path, "expected a UUID") from exc
    elif kind == "JSONField":
        if model_field.name == "rules":
            try:
                rules_build(_obj(value, path))
            except KaiserError as exc:
                raise BackupError(path, str(exc)) from exc
    else:
        value = _text(
            value, path, max_length=model_field.max_length or 10_000, required=not model_field.blank
        )
    if (
        model_field.choices
        and not (value == "" and model_field.blank)
        and value not in {choice for choice, _label in model_field.flatchoices}
    ):
        raise BackupError(
            path, f"expected one of {', '.join(str(c) for c, _ in model_field.flatchoices)}"
        )
    return value


def _sections_check(data: Mapping[str, Any], sizes: dict[str, int], usernames: set[str]) -> dict:
    """Every section's rows checked (types, ranges, references); missing sections are empty."""
    checked: dict[str, list] = {}
    for section in SECTIONS:
        rows = []
        for i, raw in enumerate(_list(data.get(section.key, []), section.key)):
            path = f"{section.key}[{i}]"
            row = _obj(raw, path)
            values: dict[str, Any] = {}
            for name in section.fields:
                model_field = section.model._meta.get_field(name)
                if name not in row and model_field.has_default():
                    continue
                values[name] = _field_check(model_field, row.get(name), f"{path}.{name}")
            refs: dict[str, Any] = {}
            for name, target in section.refs.items():
                if target == CLUB:
                    continue
                value = row.get(name)
                nullable = section.model._meta.get_field(name).null
                if value is None and nullable:
                    refs[name] = None
                elif target == USER:
                    if value not in usernames:
                        raise BackupError(
                            f"{path}.{name}", f"{value!r} is not a member of the club"
                        )
                    refs[name] = value
                elif isinstance(value, bool) or not isinstance(value, int):
                    raise BackupError(f"{path}.{name}", f"expected a position in {target}")
                elif not 0 <= value < sizes[target]:
                    raise BackupError(f"{path}.{name}", f"no entry {value} in {target}")
                else:
                    refs[name] = value
            rows.append((values, refs))
        sizes[section.key] = len(rows)
        checked[section.key] = rows
    return checked


def _sections_restore(
    club: Club, checked: dict, made: dict[str, list], users: Mapping[str, Any]
) -> None:
    """Write every section's rows; `made` maps a list's key to its restored objects in order."""
    for section in SECTIONS:
        objects = []
        for i, (values, refs) in enumerate(checked[section.key]):
            path = f"{section.key}[{i}]"
            kwargs = dict(values)
            for name, target in section.refs.items():
                if target == CLUB:
                    kwargs[name] = club
                elif target == USER:
                    kwargs[name] = users.get(refs[name]) if refs[name] is not None else None
                else:
                    kwargs[name] = made[target][refs[name]] if refs[name] is not None else None
            for name, make in section.fresh.items():
                if (
                    name in kwargs
                    and section.model._default_manager.filter(**{name: kwargs[name]}).exists()
                ):
                    kwargs[name] = make()
            # auto_now_add columns take the document's time after the insert.
            stamped = {
                f.name: kwargs.pop(f.name)
                for f in section.model._meta.concrete_fields
                if getattr(f, "auto_now_add", False) and f.name in kwargs
            }
            try:
                with transaction.atomic():
                    obj = section.model._default_manager.create(**kwargs)
            except IntegrityError as exc:
                raise BackupError(path, f"refused by the database: {exc}") from exc
            _stamp(section.model, obj.pk, **stamped)
            objects.append(obj)
        made[section.key] = objects
