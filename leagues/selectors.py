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
