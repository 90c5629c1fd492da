"""Restoring a `kaiser-club/1` document as a new club: checked whole, then written in short
transactions (removed again should one fail)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues.backup.accounts import accounts_check, accounts_restore
from leagues.backup.batches import Batches, rows_insert
from leagues.backup.fields import BackupError, _slug, _stamp, _text
from leagues.backup.limits import slug_shadow_check
from leagues.backup.reading import _check
from leagues.backup.sections import _sections_restore
from leagues.club_removal import club_remove
from leagues.clubs.models import (
    Club,
    Membership,
    Player,
    Season,
    name_key,
)
from leagues.standings.services import derived_data_held
from scorecards.models import Game, Hand, HandAction, HandVersion
from scorecards.rules import KaiserError
from scorecards.services import game_start
from scorecards.services.state import hand_fields, score_apply


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

    The whole document is checked before the first write; raises BackupError naming the first
    problem, and then nothing is written. The writes go in short transactions (`Batches`), so
    other clubs keep saving hands meanwhile; should one fail, what the restore wrote is removed
    (the club, and the accounts it made) and the error raised again."""
    checked = _check(data)
    club_data = checked["club"]
    slug = slug_shadow_check(_slug(slug, "slug"), "slug") if slug is not None else club_data["slug"]
    name = _text(name, "name", max_length=100) if name is not None else club_data["name"]
    if Club.objects.filter(slug=slug).exists():
        raise BackupError("club.slug", f"a club with short name {slug!r} exists already")
    listed = [*checked["members"], *checked["former_members"]]
    mapped = accounts_check(accounts, {entry["username"] for entry in listed})
    with transaction.atomic():
        try:
            with transaction.atomic():
                club = Club.objects.create(
                    name=name,
                    slug=slug,
                    standings_public=club_data["standings_public"],
                    hands_need_confirmation=club_data["hands_need_confirmation"],
                    confirmation_since=club_data["confirmation_since"],
                    pot_per_set=club_data["pot_per_set"],
                )
        except IntegrityError as exc:  # taken meanwhile by another request
            raise BackupError(
                "club.slug", f"a club with short name {slug!r} exists already"
            ) from exc
        _stamp(Club, club.pk, created_at=club_data["created_at"])
        users = accounts_restore(listed, mapped)
    made = [user for source, user in users.items() if source not in mapped]
    try:
        # One rebuild of the standings and ratings at the end, not one per transaction.
        with derived_data_held():
            _contents_restore(club, checked, users)
    except BaseException:
        with transaction.atomic():
            club_remove(club=club)
            get_user_model().objects.filter(pk__in=[user.pk for user in made]).delete()
        raise
    club.refresh_from_db()  # the restored creation time
    return club


def _contents_restore(club: Club, checked: dict[str, Any], users: dict[str, Any]) -> None:
    """Everything but the club and its accounts, in batches of short transactions."""
    batches = Batches()
    with batches.step():
        for member in checked["members"]:
            Membership.objects.create(
                club=club, user=users[member["username"]], role=member["role"]
            )
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
    games = []
    for game_data in checked["games"]:
        with batches.step():
            games.append(
                _game_restore(
                    club, game_data, users, players, seasons, taken, checked["has_versions"]
                )
            )
    made: dict[str, list[Any]] = {
        "players": list(players.values()),
        "seasons": list(seasons.values()),
        "games": games,
    }
    _sections_restore(club, checked["sections"], made, users, batches)
    with batches.step():
        for season in checked["seasons"]:
            _stamp(Season, seasons[season["name"]].pk, closed_at=season["closed_at"])
    batches.close()


def _game_restore(club, game_data, users, players, seasons, taken, has_versions) -> Game:
    """One game through `game_start`, its hands written at once with the engine's reading of
    each (`game_score`, `hand_fields`, `score_apply`: the code that scores a hand at the table),
    and what the hands alone cannot give back."""
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
    score = game_data["score"]
    metas = game_data["hands"] or [{} for _ in parsed.hands]
    now = timezone.now()
    hands = []
    for number, (hand, scored, meta) in enumerate(
        zip(parsed.hands, score.hands, metas, strict=True), 1
    ):
        key = meta.get("idempotency_key")
        hands.append(
            Hand(
                game=game,
                number=number,
                idempotency_key=key if key is not None and key not in taken else uuid.uuid4(),
                entered_by=users.get(meta.get("entered_by")),
                entered_by_name=meta.get("entered_by_name", "import")[:80],
                entered_seat=meta.get("entered_seat"),
                entered_phone=meta.get("entered_phone") or "",
                confirmed_at=meta.get("confirmed_at"),
                confirmed_by_name=meta.get("confirmed_by_name") or "",
                confirmed_seat=meta.get("confirmed_seat"),
                entered_at=meta.get("entered_at") or now,
                **hand_fields(hand, scored),
            )
        )
    rows_insert(Hand, hands)
    if not has_versions:
        # A document without its history: each hand entered, as `hand_record` keeps it.
        rows_insert(
            HandVersion,
            [
                HandVersion(
                    game=game,
                    number=hand.number,
                    action=HandAction.ENTER,
                    before=None,
                    after=hand.record,
                    by=hand.entered_by,
                    by_name=hand.entered_by_name,
                    at=now,
                )
                for hand in hands
            ],
        )
    score_apply(game, score)
    # What the hands alone cannot give back: a game abandoned, or closed with its round.
    _stamp(
        Game,
        game.pk,
        created_at=game_data["created_at"],
        finished_at=game_data["finished_at"],
        **game_data["state"],
    )
    # The share link comes back unless this server gives its token to another game already
    # (a copy of the club restored beside it): then the copy is not shared.
    token = game_data.get("share_token")
    if token and not Game.objects.filter(share_token=token).exists():
        Game.objects.filter(pk=game.pk).update(share_token=token)
    return game
