"""Reading a `kaiser-club/1` document: every check before the first write."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from leagues.backup.fields import (
    CLUB_FORMAT,
    GAME_STATE,
    BackupError,
    _bool,
    _date,
    _json_text_check,
    _list,
    _moment,
    _obj,
    _seat,
    _slug,
    _text,
)
from leagues.backup.limits import count_check, slug_shadow_check
from leagues.backup.sections import _field_check, _sections_check
from leagues.backup.semantics import semantics_check
from leagues.clubs.models import (
    Club,
    name_key,
)
from leagues.clubs.roles import Role
from scorecards.models import Game
from scorecards.rules import (
    KaiserError,
    RecordError,
    game_score,
    played_on_check,
    record_parse,
    rules_build,
)


def _concrete(model: type[models.Model], name: str) -> models.Field:
    """The model's own (concrete) field `name`."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


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
            "slug": slug_shadow_check(_slug(club.get("slug"), "club.slug"), "club.slug"),
            "standings_public": _bool(club.get("standings_public", False), "club.standings_public"),
            "hands_need_confirmation": _bool(
                club.get("hands_need_confirmation", False), "club.hands_need_confirmation"
            ),
            "pot_per_set": _field_check(
                Club._meta.get_field("pot_per_set"), club.get("pot_per_set"), "club.pot_per_set"
            ),
            "confirmation_since": _moment(
                club.get("confirmation_since"), "club.confirmation_since"
            ),
            "created_at": _moment(club.get("created_at"), "club.created_at"),
        }
    }
    usernames: set[str] = set()
    members = []
    for i, raw in enumerate(count_check(_list(data.get("members", []), "members"), "members")):
        path = f"members[{i}]"
        member = _obj(raw, path)
        username = _username_check(member.get("username"), f"{path}.username", usernames)
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
    former = []
    for i, raw in enumerate(
        count_check(_list(data.get("former_members", []), "former_members"), "former_members")
    ):
        path = f"former_members[{i}]"
        entry = _obj(raw, path)
        former.append(
            {
                "username": _username_check(entry.get("username"), f"{path}.username", usernames),
                **{
                    name: _text(
                        entry.get(name, ""), f"{path}.{name}", max_length=150, required=False
                    )
                    for name in ("first_name", "last_name")
                },
            }
        )
    checked["former_members"] = former

    player_names: dict[str, str] = {}
    linked: set[str | None] = set()
    players = []
    for i, raw in enumerate(count_check(_list(data.get("players", []), "players"), "players")):
        path = f"players[{i}]"
        player = _obj(raw, path)
        name = _text(player.get("name"), f"{path}.name", max_length=80).strip()
        if name_key(name) in player_names:
            raise BackupError(f"{path}.name", f"{name!r} is listed twice (ignoring case)")
        player_names[name_key(name)] = name
        account = _text(player.get("username"), f"{path}.username", max_length=150, null=True)
        if account is not None and account not in usernames:
            raise BackupError(f"{path}.username", f"{account!r} is not a member of the club")
        if account is not None and account in linked:
            raise BackupError(f"{path}.username", f"{account!r} is linked to two players")
        linked.add(account)
        players.append(
            {
                "name": name,
                "username": account,
                "created_at": _moment(player.get("created_at"), f"{path}.created_at"),
            }
        )
    checked["players"] = players

    season_names: set[str] = set()
    seasons = []
    for i, raw in enumerate(count_check(_list(data.get("seasons", []), "seasons"), "seasons")):
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
        seasons.append(
            {
                "name": name,
                "starts_on": starts_on,
                "ends_on": ends_on,
                "rules": rules,
                "closed_at": _moment(season.get("closed_at"), f"{path}.closed_at"),
            }
        )
    checked["seasons"] = seasons

    keys: set[uuid.UUID] = set()
    games = []
    for i, raw in enumerate(count_check(_list(data.get("games", []), "games"), "games")):
        games.append(
            _check_game(
                _obj(raw, f"games[{i}]"), f"games[{i}]", keys, season_names, player_names, usernames
            )
        )
    checked["games"] = games
    sizes = {"players": len(players), "seasons": len(seasons), "games": len(games)}
    checked["sections"] = _sections_check(data, sizes, usernames)
    semantics_check(checked)
    checked["has_versions"] = "hand_versions" in data
    return checked


def _username_check(value: Any, path: str, usernames: set[str]) -> str:
    """An account's username as the sign-up form takes it, listed once in the document."""
    username = _text(value, path, max_length=150)
    if username in usernames:
        raise BackupError(path, f"{username!r} is listed twice")
    try:
        get_user_model().username_validator(username)
    except ValidationError as exc:
        raise BackupError(path, " ".join(exc.messages)) from exc
    usernames.add(username)
    return username


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
        score = game_score(parsed.rules, parsed.hands, parsed.first_dealer)
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
    # The names at the table as `game_start` will read them: one person, one seat.
    seated = [
        name_key(player if player is not None else name)
        for player, name in zip(seat_players, parsed.seats, strict=True)
    ]
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
                # The seat a confirmation came from (none in a document from before it was kept).
                "confirmed_seat": _seat(
                    meta.get("confirmed_seat"), f"{hpath}.confirmed_seat", parsed
                ),
                # A document from before phones were kept has none ("": not known).
                "entered_phone": _text(
                    meta.get("entered_phone", ""),
                    f"{hpath}.entered_phone",
                    max_length=43,
                    required=False,
                ),
            }
        )
    state = _obj(game.get("state", {}), f"{path}.state")
    created_at = _moment(game.get("created_at"), f"{path}.created_at")
    return {
        "parsed": parsed,
        "score": score,
        "played_on": _played_on(game, path, parsed.played_on, created_at),
        "season": season,
        "table_label": _text(
            game.get("table_label", ""), f"{path}.table_label", max_length=40, required=False
        ),
        "created_by": created_by,
        "created_at": created_at,
        "finished_at": _moment(game.get("finished_at"), f"{path}.finished_at"),
        "state": {
            name: _field_check(_concrete(Game, name), state[name], f"{path}.state.{name}")
            for name in GAME_STATE
            if name in state
        },
        "seat_players": [n.strip() if n is not None else None for n in seat_players],
        "hands": hands,
        "share_token": _text(
            game.get("share_token"), f"{path}.share_token", max_length=43, null=True
        ),
    }


def _played_on(
    game: Mapping[str, Any],
    path: str,
    in_record: datetime.date | None,
    created_at: datetime.datetime | None,
) -> datetime.date | None:
    """The game's day: the document's `played_on` (null: not known), which must agree with the
    record's when both give one. A document made before games kept their day has neither: the
    day the game was created, as the migration that added the day gave every stored game."""
    if "played_on" not in game:
        if in_record is not None:
            return in_record
        return timezone.localdate(created_at) if created_at is not None else None
    day = _date(game["played_on"], f"{path}.played_on", null=True)
    if day is not None:
        try:
            played_on_check(day)
        except RecordError as exc:
            raise BackupError(f"{path}.played_on", exc.message) from exc
    if in_record is not None and day != in_record:
        raise BackupError(
            f"{path}.played_on",
            f"{_shown(day)} differs from the record's played_on ({in_record.isoformat()})",
        )
    return day


def _shown(day: datetime.date | None) -> str:
    return day.isoformat() if day is not None else "null"
