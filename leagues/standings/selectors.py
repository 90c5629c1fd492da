"""Reads of the standings and ratings pages and of a player's record: they read snapshots,
never recompute."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from kaiser_league.collation import name_key
from kaiser_league.query_memo import compiled_once
from leagues.clubs.models import Club, PlayerMerge, Season
from leagues.clubs.selectors import club_seasons
from leagues.standings.models import (
    PartnershipStanding,
    PlayerRating,
    PlayerStanding,
    RatingSnapshot,
    RebuildFailure,
    RebuildKind,
)
from scorecards.models import Game, GameStatus
from scorecards.selectors import games_by_day, games_of_player, games_where


def club_recent_games(club: Club, limit: int = 20) -> QuerySet[Game]:
    """The club's latest games with their seats and season, by the day played, latest first
    (`scorecards.selectors.games_by_day`)."""
    games = games_where(club=club).select_related("season").prefetch_related("seats")
    return games_by_day(games)[:limit]


def club_seasons_counted(club: Club) -> list[Season]:
    """The club's seasons, latest first, each with its standings snapshot (`season.standings`,
    absent when never computed): one query, compiled once per process."""
    statement = compiled_once(
        "club_seasons_counted",
        lambda club_id: club_seasons(Club(pk=club_id)).select_related("standings"),
        club_id=(1, 2),
    )
    return statement.rows(club_id=club.pk)


def season_player_standings(season) -> QuerySet:
    return PlayerStanding.objects.filter(season=season).select_related("player")


def season_partnership_standings(season) -> QuerySet:
    return PartnershipStanding.objects.filter(season=season).select_related("first", "second")


@dataclass(frozen=True)
class PotLine:
    """A player's pot balance over a season, in cents (stored with the standings)."""

    player_id: int
    name: str
    cents: int


def season_pot_lines(season: Season) -> list[PotLine]:
    """Each player's pot balance over the season's counted games, best first, then by name
    (`name_key`): the figure the standings rebuild stores (`PlayerStanding.pot_balance`), never
    scored again here. Seats without a club player (guests) have no standings line, so their
    balance is not listed. One query."""
    rows = season_player_standings(season).values_list("player_id", "player__name", "pot_balance")
    lines = [PotLine(player_id, name, cents) for player_id, name, cents in rows]
    return sorted(lines, key=lambda line: (-line.cents, name_key(line.name)))


def club_player_ratings(club: Club) -> QuerySet:
    return PlayerRating.objects.filter(club=club).select_related("player")


def club_ratings_snapshot(club: Club):
    return RatingSnapshot.objects.filter(club=club).first()


def player_games(player, limit: int | None = None) -> list:
    """The player's games by the day played, latest first (`games_by_day`), with their seats
    and season (for the player page), each with `counted` (`GameQuerySet.with_counted`); the
    latest `limit` only when given."""
    games = games_by_day(
        games_of_player(player).with_counted().select_related("season").prefetch_related("seats")
    )
    return list(games if limit is None else games[:limit])


# What a game came to for one side of it, as a player's page lists it.
WON, LOST, DRAWN, ABANDONED, PLAYING = "won", "lost", "drawn", "abandoned", "playing"


def game_outcome(game, side: int) -> str:
    """WON / LOST / DRAWN / ABANDONED / PLAYING for `side` of `game`: the one place that reads a
    game's lifecycle for the player pages. An abandoned game is never counted as won or lost."""
    status = game.status
    if status == GameStatus.ABANDONED:
        return ABANDONED
    if status != GameStatus.FINISHED:
        return PLAYING
    if game.winner is None:
        return DRAWN
    return WON if game.winner == side else LOST


@dataclass(frozen=True)
class PlayerGameLine:
    """One game on a player's page, seen from the player's seat."""

    game: Any
    partners: list[str]
    opponents: list[str]  # every other side's players, side by side
    score: int | None  # the player's side's total (engine's number, cached on the game)
    opponent_scores: list[int]
    outcome: str  # see game_outcome
    # Finished, yet not counted by the standings (`Game.objects.counted()`): it waits for a
    # confirmation, or was a table of a night called off.
    not_counted: bool
    seat: int = 0  # the player's seat
    partner_ids: tuple[tuple[int, str], ...] = ()  # (player id, name) of club players only
    opponent_ids: tuple[tuple[int, str], ...] = ()
    opponent_names: tuple[str, ...] = ()  # every opponent, guests included


def player_game_lines(player, limit: int | None = None) -> list[PlayerGameLine]:
    """The player's games by the day played, latest first, each with partners, opponents, the
    side's score, won / lost / drawn / abandoned / playing, and whether it counts (every game,
    or the latest `limit`). Two queries, whatever the number of games."""
    lines = []
    for game in player_games(player, limit):
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        mine = next((s for s in seats if s.player_id == player.pk), None)
        if mine is None:
            continue
        rules = game.rules_value
        side = rules.side_of(mine.seat)
        by_seat = {s.seat: s.name for s in seats}
        scores = list(game.scores or [])
        others = [other for other in range(rules.side_count) if other != side]
        lines.append(
            PlayerGameLine(
                game=game,
                partners=[by_seat.get(s, "") for s in rules.partners(mine.seat)],
                opponents=[
                    " & ".join(by_seat.get(s, "") for s in rules.sides[other]) for other in others
                ],
                score=scores[side] if side < len(scores) else None,
                opponent_scores=[scores[o] for o in others if o < len(scores)],
                outcome=game_outcome(game, side),
                not_counted=game.status == GameStatus.FINISHED and not game.counted,
                seat=mine.seat,
                partner_ids=tuple(
                    (s.player_id, s.name)
                    for s in seats
                    if s.player_id and s.seat in rules.partners(mine.seat)
                ),
                opponent_names=tuple(by_seat.get(s, "") for o in others for s in rules.sides[o]),
                opponent_ids=tuple(
                    (s.player_id, s.name)
                    for s in seats
                    if s.player_id and rules.side_of(s.seat) != side
                ),
            )
        )
    return lines


def player_partnerships(player) -> list:
    """The player's partnership standings lines, every season (snapshot rows)."""
    return list(
        PartnershipStanding.objects.filter(Q(first=player) | Q(second=player))
        .select_related("first", "second", "season")
        .order_by("-season__starts_on", "-games")
    )


def player_merged_into(club: Club, player_id: int) -> int | None:
    """The id of the player kept when player `player_id` of `club` was merged into them, or
    None (one query)."""
    merge = PlayerMerge.objects.filter(club=club, merged_player_id=player_id).order_by("-at")
    return merge.values_list("kept_id", flat=True).first()


def club_rebuild_failures(club: Club, season: Season | None) -> list[RebuildFailure]:
    """What the club's directors should know about: the failed or incomplete rebuild of the
    standings of `season` and of the club's ratings (one query, compiled once per process)."""

    def failures(club_id: int, season_id: int | None = None) -> QuerySet[RebuildFailure]:
        which = Q(kind=RebuildKind.RATINGS)
        if season_id is not None:
            which |= Q(kind=RebuildKind.STANDINGS, season_id=season_id)
        return RebuildFailure.objects.filter(which, club_id=club_id).order_by("kind")

    if season is None:
        statement = compiled_once("club_rebuild_failures", failures, club_id=(1, 2))
        return statement.rows(club_id=club.pk)
    statement = compiled_once(
        "club_rebuild_failures_season", failures, club_id=(1, 2), season_id=(1, 2)
    )
    return statement.rows(club_id=club.pk, season_id=season.pk)
