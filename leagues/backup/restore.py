"""Restoring a checked `kaiser-club/1` document as a new club, in one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from leagues.backup.accounts import accounts_check, accounts_restore
from leagues.backup.fields import BackupError, _slug, _stamp, _text
from leagues.backup.limits import slug_shadow_check
from leagues.backup.reading import _check
from leagues.backup.sections import _sections_restore
from leagues.clubs.models import (
    Club,
    Membership,
    Player,
    Season,
    name_key,
)
from scorecards.models import Game, Hand, HandVersion
from scorecards.rules import KaiserError
from scorecards.services import game_start, hand_record


@transaction.atomic
def club_import(
    *,
    data: Any,
    slug: str | None = None,
    name: str | None = None,
    accounts: Mapping[str, str] | None = None,
) -> Club:
    """Restore a `kaiser-club/1` document as a new club (`slug` and `name` override the
    document's, to restore beside the original). Every account the document names becomes a
    new account with no usable password (under another name when its own is taken), except
    those the operator maps, by name, to an existing account that is not a staff account
    (`accounts={"olga": "olga"}`; see `leagues.backup.accounts`). Hands keep their idempotency
    keys unless a key is taken on this server already (then a new one is given).

    Raises BackupError naming the first problem; then nothing is written."""
    checked = _check(data)
    club_data = checked["club"]
    slug = slug_shadow_check(_slug(slug, "slug"), "slug") if slug is not None else club_data["slug"]
    name = _text(name, "name", max_length=100) if name is not None else club_data["name"]
    if Club.objects.filter(slug=slug).exists():
        raise BackupError("club.slug", f"a club with short name {slug!r} exists already")
    mapped = accounts_check(
        accounts,
        {entry["username"] for entry in [*checked["members"], *checked["former_members"]]},
    )
    club = Club.objects.create(
        name=name,
        slug=slug,
        standings_public=club_data["standings_public"],
        hands_need_confirmation=club_data["hands_need_confirmation"],
        confirmation_since=club_data["confirmation_since"],
        pot_per_set=club_data["pot_per_set"],
    )
    _stamp(Club, club.pk, created_at=club_data["created_at"])

    users = accounts_restore([*checked["members"], *checked["former_members"]], mapped)
    for member in checked["members"]:
        Membership.objects.create(club=club, user=users[member["username"]], role=member["role"])

    players = {}
    for player in checked["players"]:
        stored = Player.objects.create(
            club=club, name=player["name"], user=users.get(player["username"])
        )
        _stamp(Player, stored.pk, created_at=player["created_at"])
        players[name_key(player["name"])] = stored

    # A closed season takes no game: it is closed again once its games are back (below).
    seasons = {
        season["name"]: Season.objects.create(
            club=club, **{key: value for key, value in season.items() if key != "closed_at"}
        )
        for season in checked["seasons"]
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
    made: dict[str, list[Any]] = {
        "players": list(players.values()),
        "seasons": list(seasons.values()),
        "games": games,
    }
    _sections_restore(club, checked["sections"], made, users)
    for season in checked["seasons"]:
        _stamp(Season, seasons[season["name"]].pk, closed_at=season["closed_at"])
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
            played_on=game_data["played_on"],
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
