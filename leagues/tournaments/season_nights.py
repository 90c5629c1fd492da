"""What the tournament room tells the season standings about its nights (the nights source of
`leagues.standings.nights`, registered in `LeaguesConfig.ready`): for a season, the games each
night played at its tables, and who placed first in the final standings of each night that is
over. Cancelled nights are left out (their games never count).

`night_changed` (signal, keywords `season_ids`, `club_ids`): sent inside the transaction that
finished or cancelled a night (`night_changed_announce`), with the seasons whose standings it
changes and, for a cancelled night, the club whose ratings lose its games. The standings room
receives it (wired in `LeaguesConfig.ready`) and rebuilds them once the transaction commits."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch
from django.dispatch import Signal

from kaiser_league.collation import sorted_by_name
from leagues.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentStatus,
    TournamentTable,
)
from leagues.tournaments.selectors import tournament_standings
from scorecards.selectors import game_prefetches

night_changed = Signal()


def night_changed_announce(*, tournament: Tournament, games_count_changed: bool) -> None:
    """Tell the standings that `tournament`'s standing in its seasons changed: it finished (its
    winners are known) or, with `games_count_changed`, its games stopped counting (cancelled),
    so the club's ratings change too. Call inside the transaction that changed it."""
    seasons = set(
        TournamentTable.objects.filter(round__tournament=tournament)
        .filter(game__season__isnull=False)
        .values_list("game__season_id", flat=True)
    )
    if tournament.season_id is not None:
        seasons.add(tournament.season_id)
    night_changed.send(
        sender=Tournament,
        season_ids=sorted(seasons),
        club_ids=[tournament.club_id] if games_count_changed else [],
    )


@dataclass(frozen=True)
class NightOfSeason:
    tournament_id: int
    games: frozenset[int]  # the games played at its tables
    winners: frozenset[int]  # players placed first (empty while the night is not over)


def _entries_in_order(entries: list[TournamentEntry]) -> list[TournamentEntry]:
    """The order of `selectors.tournament_entries`: by pair number, then by name."""
    named = sorted_by_name(entries, lambda e: e.player.name)
    return sorted(named, key=lambda e: (e.pair_number is None, e.pair_number or 0))


def _winners(finished: list[Tournament]) -> dict[int, frozenset[int]]:
    """The players placed first in each finished night's standings (a tie for first: all of
    them; a pair: both partners). Six queries for all the nights together."""
    if not finished:
        return {}
    ids = [night.pk for night in finished]
    entries: dict[int, list[TournamentEntry]] = defaultdict(list)
    for entry in TournamentEntry.objects.filter(tournament_id__in=ids).select_related("player"):
        entries[entry.tournament_id].append(entry)
    rounds: dict[int, list[TournamentRound]] = defaultdict(list)
    for round_ in (
        TournamentRound.objects.filter(tournament_id__in=ids)
        .order_by("tournament_id", "number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=TournamentTable.objects.select_related("game").order_by("number"),
            ),
            *game_prefetches("tables__game"),
            "sitouts",
        )
    ):
        rounds[round_.tournament_id].append(round_)
    winners: dict[int, frozenset[int]] = {}
    for night in finished:
        listed = _entries_in_order(entries[night.pk])
        player_of = {entry.pk: entry.player_id for entry in listed}
        standings = tournament_standings(night, listed, rounds[night.pk])
        winners[night.pk] = frozenset(
            player_of[entry_id]
            for row in standings.rows
            if row.rank == 1
            for entry_id in row.entry_ids
        )
    return winners


class SeasonNights:
    def season_nights(self, season_id: int) -> list[NightOfSeason]:
        """The nights (not cancelled) whose tables played games of season `season_id`, by date.
        One query when none, two when some, and six more when any of them is over."""
        games: dict[int, set[int]] = defaultdict(set)
        tables = (
            TournamentTable.objects.filter(game__season_id=season_id)
            .exclude(round__tournament__status=TournamentStatus.CANCELLED)
            .values_list("round__tournament_id", "game_id")
        )
        for tournament_id, game_id in tables:
            games[tournament_id].add(game_id)
        if not games:
            return []
        nights = list(Tournament.objects.filter(pk__in=list(games)).order_by("date", "pk"))
        finished = [night for night in nights if night.status == TournamentStatus.FINISHED]
        winners = _winners(finished)
        return [
            NightOfSeason(night.pk, frozenset(games[night.pk]), winners.get(night.pk, frozenset()))
            for night in nights
        ]
