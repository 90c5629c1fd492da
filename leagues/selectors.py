"""Reads of clubs, members and players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from leagues.models import Club, Membership


def clubs_of(user: AbstractBaseUser) -> QuerySet[Membership]:
    """The user's memberships with their clubs, by club name."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def club_recent_games(club: Club, limit: int = 20):
    from scorecards.models import Game

    return Game.objects.filter(club=club).prefetch_related("seats").order_by("-created_at")[:limit]


def club_players_recent_first(club: Club):
    """The club's players, those who sat at a table most recently first, then by name."""
    from django.db.models import F, Max

    return (
        club.players.annotate(last_played=Max("seats__game__created_at"))
        .order_by(F("last_played").desc(nulls_last=True), "name")
        .only("pk", "name", "club_id")
    )


def club_current_season(club: Club):
    """The season in progress today (the latest started, not yet ended), or None."""
    from django.db.models import Q
    from django.utils import timezone

    today = timezone.localdate()
    return (
        club.seasons.filter(starts_on__lte=today)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=today))
        .order_by("-starts_on")
        .first()
    )
