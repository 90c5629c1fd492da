"""Reads of clubs, members and players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from leagues.models import Club, Membership, RebuildFailure, RebuildKind, Season


def clubs_of(user: AbstractBaseUser) -> QuerySet[Membership]:
    """The user's memberships with their clubs, by club name."""
    return Membership.objects.filter(user=user).select_related("club").order_by("club__name")


def club_recent_games(club: Club, limit: int = 20):
    from scorecards.models import Game

    return Game.objects.filter(club=club).prefetch_related("seats").order_by("-created_at")[:limit]


# --- Standings and ratings pages (issue 4): they read snapshots, never recompute -----------


def club_seasons(club: Club) -> list:
    return list(club.seasons.select_related("standings").order_by("-starts_on", "name"))


def season_player_standings(season) -> QuerySet:
    from leagues.models import PlayerStanding

    return PlayerStanding.objects.filter(season=season).select_related("player")


def season_partnership_standings(season) -> QuerySet:
    from leagues.models import PartnershipStanding

    return PartnershipStanding.objects.filter(season=season).select_related("first", "second")


def club_player_ratings(club: Club) -> QuerySet:
    from leagues.models import PlayerRating

    return PlayerRating.objects.filter(club=club).select_related("player")


def club_ratings_snapshot(club: Club):
    from leagues.models import RatingSnapshot

    return RatingSnapshot.objects.filter(club=club).first()


def player_games(player, limit: int = 50) -> list:
    """The player's games, latest first, with their seats (for the player page)."""
    from scorecards.models import Game

    return list(
        Game.objects.filter(seats__player=player)
        .select_related("season")
        .prefetch_related("seats")
        .order_by("-created_at")[:limit]
    )


def player_partnerships(player) -> list:
    """The player's partnership standings lines, every season (snapshot rows)."""
    from django.db.models import Q

    from leagues.models import PartnershipStanding

    return list(
        PartnershipStanding.objects.filter(Q(first=player) | Q(second=player))
        .select_related("first", "second", "season")
        .order_by("-season__starts_on", "-games")
    )


def player_rating_points(player) -> list:
    from leagues.models import RatingPoint

    return list(RatingPoint.objects.filter(player=player).order_by("seq"))


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


def club_rebuild_failures(club: Club, season: Season | None) -> list[RebuildFailure]:
    """What the club's directors should know about: the failed or incomplete rebuild of the
    standings of `season` and of the club's ratings (one query)."""
    from django.db.models import Q

    which = Q(kind=RebuildKind.RATINGS)
    if season is not None:
        which |= Q(kind=RebuildKind.STANDINGS, season=season)
    return list(RebuildFailure.objects.filter(which, club=club).order_by("kind"))
