"""Deleting a whole club, with everything it holds. Assembly: the club's nights (tournaments)
must go before its games (scorecards), since a night's table protects its game
(`TournamentTable.game` is `on_delete=PROTECT`, so a game seated at a night is never deleted
alone); that is why deleting a club that ran a night used to fail."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from leagues.clubs.access import club_actor
from leagues.clubs.models import Club, Membership
from leagues.clubs.policy import may
from leagues.clubs.policy.clubs import ClubFacts
from leagues.clubs.roles import CLUB_DELETE
from leagues.clubs.services import LeagueError
from leagues.tournaments.models import Tournament
from scorecards.selectors import games_where


@dataclass(frozen=True)
class ClubContents:
    """What deleting the club deletes, counted."""

    members: int
    players: int
    seasons: int
    games: int
    nights: int


def club_contents(club: Club) -> ClubContents:
    """The club's members, players, seasons, games and nights, counted (five queries)."""
    return ClubContents(
        members=Membership.objects.filter(club=club).count(),
        players=club.players.count(),
        seasons=club.seasons.count(),
        games=games_where(club=club).count(),
        nights=Tournament.objects.filter(club=club).count(),
    )


@transaction.atomic
def club_delete(*, club: Club, by: User | None) -> ClubContents:
    """Delete the club and all it holds: members (their accounts stay), invitations, players,
    seasons, games with their hands, nights, standings and ratings. Owners only (LeagueError).
    Returns what was deleted."""
    locked = Club.objects.select_for_update().filter(pk=club.pk).first()
    if locked is None:
        raise LeagueError(_("This club no longer exists."))
    decision = may(club_actor(locked.pk, by), CLUB_DELETE, ClubFacts(club_id=locked.pk))
    if not decision:
        raise LeagueError(_("Only an owner deletes the club."))
    contents = club_contents(locked)
    club_remove(club=locked)
    return contents


@transaction.atomic
def club_remove(*, club: Club) -> None:
    """Delete the club and all it holds, for a trusted caller that checked who asks (the
    owner's page through `club_delete`, the admin's delete)."""
    # The nights first (their rounds, tables, entries and sit-outs with them): then nothing
    # protects the club's games, which go with the club.
    Tournament.objects.filter(club=club).delete()
    club.delete()
