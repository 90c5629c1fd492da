"""Reads of clubs, members, players and seasons."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from kaiser_league.collation import sorted_by_name
from leagues.clubs.models import Club, Membership, Player, Season, name_key


def clubs_of(user: User) -> QuerySet[Membership]:
    """The user's memberships with their clubs, by club name."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's seasons, latest first. A room above that shows their standings adds
    `.select_related("standings")` itself (the snapshots are the standings room's)."""
    return club.seasons.order_by("-starts_on", "name")


def club_players_by_name(club: Club) -> list:
    """The club's players in name order (`name_key`), with their linked accounts."""
    return sorted_by_name(club.players.select_related("user"), lambda p: p.name)


def club_current_season(club: Club, on: datetime.date | None = None) -> Season | None:
    """The season in progress on `on` (today when not given): the latest started by then, not
    yet ended and not closed (a closed season takes no new game), or None."""
    day = on or timezone.localdate()
    return (
        club.seasons.filter(starts_on__lte=day, closed_at__isnull=True)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .order_by("-starts_on")
        .first()
    )


def players_named(club: Club, names: Iterable[str]) -> QuerySet[Player]:
    """The club's players whose names match `names` as the club tells names apart: under
    `name_key` (Unicode NFKC and case folding), so "ÉMILE" finds "Émile"."""
    return Player.objects.filter(club=club, name_key__in={name_key(name) for name in names})


def players_by_name(club: Club, names: Iterable[str]) -> dict[str, Player]:
    """`players_named`, keyed by name key (look a name up with `name_key(name)`)."""
    return {player.name_key: player for player in players_named(club, names)}
