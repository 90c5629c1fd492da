"""Club backups: one JSON document (`kaiser-club/1`) with everything a club needs to start again
on another server: the club, its members (usernames and roles, never passwords), players, seasons,
and every game as its `kaiser-game/1` record with season, table label, seated players and who
entered each hand.

    data = club_export(club)                  # a read: plain dicts and lists, JSON-ready
    club = club_import(data=data)             # a write, in one transaction: all or nothing
    club = club_import(data=data, slug="regina-copy", name="Regina (copy)")

`club_import` checks the whole document first (every record through the rules engine) and then
writes through the game services (`game_start`, `hand_record`), so a restored game is scored by
the same code as one played at the table. A refused document writes nothing. Not included: the
version history of corrected hands (the hands are restored as they stand) and passwords (restored
accounts must set a new one).
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_date, parse_datetime

from leagues.models import Club, Membership, Player, Season
from leagues.roles import Role
from scorecards.models import Game, Hand
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


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def club_export(club: Club) -> dict[str, Any]:
    """The club as a `kaiser-club/1` document (JSON-ready). Games oldest first, each with its
    `kaiser-game/1` record exactly as `scorecards.selectors.game_record` writes it."""
    members = Membership.objects.filter(club=club).select_related("user").order_by("user__username")
    players = Player.objects.filter(club=club).select_related("user").order_by("name", "pk")
    seasons = Season.objects.filter(club=club).order_by("starts_on", "name")
    games = (
        Game.objects.filter(club=club)
        .select_related("season", "created_by")
        .prefetch_related(
            "seats__player",
            Prefetch("hands", Hand.objects.select_related("entered_by").order_by("number")),
        )
        .order_by("created_at", "pk")
    )
    return {
        "format": CLUB_FORMAT,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "standings_public": club.standings_public,
            "hands_need_confirmation": club.hands_need_confirmation,
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
            {"name": p.name, "username": _username(p.user), "created_at": _when(p.created_at)}
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
        "games": [_game_export(game) for game in games],
    }


def _game_export(game: Game) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return {
        "season": game.season.name if game.season else None,
        "table_label": game.table_label,
        "created_by": _username(game.created_by),
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "seat_players": [seat.player.name if seat.player else None for seat in seats],
        "record": game_record(game),
        "hands": [
            {
                "number": hand.number,
                "idempotency_key": str(hand.idempotency_key),
                "entered_by": _username(hand.entered_by),
                "entered_by_name": hand.entered_by_name,
                "entered_at": _when(hand.entered_at),
                "confirmed_at": _when(hand.confirmed_at),
                "confirmed_by_name": hand.confirmed_by_name,
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
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise BackupError(path, "expected true or false")
    return value


def _date(value: Any, path: str, *, null: bool = False) -> datetime.date | None:
    if value is None and null:
        return None
    parsed = parse_date(value) if isinstance(value, str) else None
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
    if data.get("format") != CLUB_FORMAT:
        raise BackupError("format", f"expected {CLUB_FORMAT!r} (got {data.get('format')!r})")
    club = _obj(data.get("club"), "club")
    checked: dict[str, Any] = {
        "club": {
            "name": _text(club.get("name"), "club.name", max_length=100),
            "slug": _text(club.get("slug"), "club.slug", max_length=60),
            "standings_public": _bool(club.get("standings_public", False), "club.standings_public"),
            "hands_need_confirmation": _bool(
                club.get("hands_need_confirmation", False), "club.hands_need_confirmation"
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
        if name.lower() in player_names:
            raise BackupError(f"{path}.name", f"{name!r} is listed twice")
        player_names[name.lower()] = name
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
        if name is not None and name.strip().lower() not in player_names:
            raise BackupError(f"{path}.seat_players[{seat}]", f"no player named {name!r}")
    seated = [n.strip().lower() for n in seat_players if n is not None]
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
            }
        )
    return {
        "parsed": parsed,
        "season": season,
        "table_label": _text(
            game.get("table_label", ""), f"{path}.table_label", max_length=40, required=False
        ),
        "created_by": created_by,
        "created_at": _moment(game.get("created_at"), f"{path}.created_at"),
        "finished_at": _moment(game.get("finished_at"), f"{path}.finished_at"),
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
    slug = _text(slug, "slug", max_length=60) if slug is not None else club_data["slug"]
    name = _text(name, "name", max_length=100) if name is not None else club_data["name"]
    if Club.objects.filter(slug=slug).exists():
        raise BackupError("club.slug", f"a club with short name {slug!r} exists already")
    club = Club.objects.create(
        name=name,
        slug=slug,
        standings_public=club_data["standings_public"],
        hands_need_confirmation=club_data["hands_need_confirmation"],
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
        players[player["name"].lower()] = stored

    seasons = {
        season["name"]: Season.objects.create(club=club, **season) for season in checked["seasons"]
    }

    all_keys = [h["idempotency_key"] for g in checked["games"] for h in g["hands"]]
    taken = set(
        Hand.objects.filter(idempotency_key__in=[k for k in all_keys if k]).values_list(
            "idempotency_key", flat=True
        )
    )
    for game_data in checked["games"]:
        _game_restore(club, game_data, users, players, seasons, taken)
    club.refresh_from_db()  # the restored creation time
    return club


def _game_restore(club, game_data, users, players, seasons, taken) -> None:
    parsed = game_data["parsed"]
    seats = [
        players[player.lower()] if player is not None else name
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
        )
    _stamp(Game, game.pk, created_at=game_data["created_at"], finished_at=game_data["finished_at"])


def _stamp(model, pk: int, **fields: Any) -> None:
    """Put back the document's values that create() cannot take (auto_now_add times) or that a
    later step sets (a finished game's time). A value of None keeps what the write gave."""
    given = {field: value for field, value in fields.items() if value is not None}
    if given:
        model.objects.filter(pk=pk).update(**given)
