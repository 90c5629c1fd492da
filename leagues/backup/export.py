"""Writing a club as a `kaiser-club/1` document (a read: plain dicts and lists, JSON-ready)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from leagues.backup.fields import CLUB_FORMAT, GAME_STATE, Accounts, _when
from leagues.backup.sections import _sections_export
from leagues.clubs.models import (
    Club,
    Membership,
    Player,
    Season,
)
from scorecards.models import Game, Hand
from scorecards.selectors import game_record


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
    games_read = (
        Game.objects.filter(club=club)
        .select_related("season", "created_by")
        .prefetch_related(
            "seats__player",
            Prefetch("hands", Hand.objects.select_related("entered_by").order_by("number")),
        )
        .order_by("created_at", "pk")
    )
    accounts = Accounts({m.user_id for m in members})
    players = list(players)
    seasons = list(seasons)
    games = list(games_read)
    index = {
        "players": {p.pk: i for i, p in enumerate(players)},
        "seasons": {s.pk: i for i, s in enumerate(seasons)},
        "games": {g.pk: i for i, g in enumerate(games)},
    }
    document: dict[str, Any] = {
        "format": CLUB_FORMAT,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "standings_public": club.standings_public,
            "hands_need_confirmation": club.hands_need_confirmation,
            "confirmation_since": _when(club.confirmation_since),
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
                "username": accounts.name(p.user),
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
                "closed_at": _when(s.closed_at),
            }
            for s in seasons
        ],
        "games": [_game_export(game, accounts) for game in games],
        **_sections_export(club, index, accounts),
    }
    # Last: every section above has named the accounts it links to.
    document["former_members"] = accounts.former_export()
    return document


def _game_export(game: Game, accounts: Accounts) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    return {
        "season": game.season.name if game.season else None,
        "table_label": game.table_label,
        "created_by": accounts.name(game.created_by),
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        # Also in the record when known; given here even when not known (null), so that a
        # restore tells "not known" from a document made before games kept their day.
        "played_on": _when(game.played_on),
        "state": {name: getattr(game, name) for name in GAME_STATE},
        # The public read-only link, if the game is shared (null: not shared).
        "share_token": game.share_token,
        "seat_players": [seat.player.name if seat.player else None for seat in seats],
        "record": game_record(game),
        "hands": [
            {
                "number": hand.number,
                "idempotency_key": str(hand.idempotency_key),
                "entered_by": accounts.name(hand.entered_by),
                "entered_by_name": hand.entered_by_name,
                "entered_at": _when(hand.entered_at),
                "confirmed_at": _when(hand.confirmed_at),
                "confirmed_by_name": hand.confirmed_by_name,
                "confirmed_seat": hand.confirmed_seat,
                "entered_seat": hand.entered_seat,
                "entered_phone": hand.entered_phone,
            }
            for hand in game.hands.all()
        ],
    }
