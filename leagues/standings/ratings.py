"""Ratings of a club (OpenSkill, `derived.rating_step`): the full rebuild from every counted
game's summary, and a newly finished game added on its own when it is the only change."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from kaiser_league.query_memo import row_update
from leagues.clubs.models import Club, Player
from leagues.standings.derived import (
    LeftOut,
    game_day,
    game_outcome,
    games_scored,
    rating_model,
    rating_step,
    ratings_compute,
)
from leagues.standings.models import (
    PlayerRating,
    RatingPoint,
    RatingSnapshot,
    RebuildFailure,
    RebuildKind,
)
from leagues.standings.rows import newer_snapshot_exists, rows_replace
from leagues.standings.statements import (
    TIMES,
    change_seen,
    commit_unwaited,
    counted_shape,
    ids_rows,
    one_rows,
    rows_add,
    rows_set,
)
from leagues.standings.summaries import (
    SUMMARY_COLUMNS,
    FreshSummary,
    counted_results,
    games_versioned,
    summaries_store,
    summary_counts,
    summary_current,
)
from scorecards.selectors import games_where


def _snapshot_locked(club_id: int) -> QuerySet[RatingSnapshot]:
    return RatingSnapshot.objects.select_for_update().filter(club_id=club_id)


def _game_counted(game_id: int, club_id: int) -> QuerySet[Any]:
    """Game `game_id` of the club if it counts, with the day it counts on, its finished time,
    and its summary with what that is checked against."""
    games = games_where(club=club_id, ids=[game_id]).counted().annotate(_day=game_day())
    return games_versioned(games.order_by()).values_list(
        "pk", "_day", "finished_at", *SUMMARY_COLUMNS
    )


def _game_placed(game_id: int, club_id: int) -> QuerySet[Any]:
    """Where game `game_id` of the club stands in game order."""
    games = games_where(club=club_id, ids=[game_id]).annotate(_day=game_day())
    return games.order_by().values_list("pk", "_day", "finished_at")


def _changed_since(club_id: int, since: Any, game_id: int) -> QuerySet[Any]:
    """A game of the club other than `game_id` changed since `since` (when its ratings were
    computed) in a way they see (`statements.change_seen`)."""
    changed = games_where(club=club_id).filter(updated_at__gt=since).exclude(pk=game_id)
    return changed.filter(change_seen()).order_by().values_list("pk")[:1]


def _players_rated(ids: list[int], club_id: int) -> QuerySet[Any]:
    """Players `ids` that exist, each with its rating row if any, and on every row how many
    players of the club have a rating."""
    rated = PlayerRating.objects.filter(club_id=club_id).order_by().values("club_id")
    count = Coalesce(Subquery(rated.annotate(_n=Count("pk")).values("_n")), 0)
    players = Player.objects.filter(pk__in=ids).order_by().annotate(_rated=count)
    return players.values_list(
        "pk",
        "rating__pk",
        "rating__club_id",
        "rating__mu",
        "rating__sigma",
        "rating__games",
        "_rated",
    )


def _outcome(game_id: int, summary: dict | None, finish_reason: str) -> AppendedGame | None:
    """The game as rated (its players as seated then, deleted ones included), from its
    summary when that is current (what a full rebuild reads too), else scored by the engine;
    None when it does not count or the engine raises on it."""
    if summary is not None:
        if not summary_counts(summary):
            return None
        return AppendedGame(
            game_id, summary["players"], summary["sides"], summary["scores"], summary["winner"]
        )
    game = games_where(ids=[game_id]).only("pk", "rules", "first_dealer", "finish_reason").first()
    scored = list(games_scored([game], [])) if game is not None else []
    if not scored:
        return None
    _game, players, score = scored[0]
    counts, winner = game_outcome(score, finish_reason)
    if not counts:
        return None
    return AppendedGame(game_id, players, score.rules.sides, score.scores, winner)


def ratings_append(club_id: int, game_id: int) -> RatingSnapshot | None:
    """Rate game `game_id` on top of the club's stored ratings, when it is the only change since
    they were computed: it counts, it comes after the last game rated in game order
    (`derived.game_order`: a game dated earlier lands among the rated ones and needs the full
    rebuild), no other game of the club changed since, and no rated player was deleted. Then
    the result is exactly what a full rebuild gives (the same steps on the same numbers), for a
    few statements (compiled once: `statements`) whatever the size of the season. Returns None
    (and writes nothing) when any of that does not hold."""
    started = timezone.now()
    club = (club_id, (1, 2))
    with transaction.atomic():
        found = one_rows("ratings_snapshot", _snapshot_locked, values=False, club_id=club)
        snapshot = found[0] if found else None
        if snapshot is None or snapshot.last_finished_at is None or not snapshot.last_game_id:
            return None
        commit_unwaited()
        # The game, and where it and the last game rated stand in game order now (a day may
        # have been set since the last rebuild).
        place = (game_id, (1, 2))
        shape = ("ratings_game", counted_shape())
        found = one_rows(shape, _game_counted, game_id=place, club_id=club)
        game = found[0] if found else None
        if game is None or game[2] is None:
            return None
        last_id = (snapshot.last_game_id, (1, 2))
        found = one_rows("ratings_last_game", _game_placed, game_id=last_id, club_id=club)
        if not found or (game[1], game[2], game_id) <= (found[0][1], found[0][2], found[0][0]):
            return None
        since = (snapshot.computed_at, TIMES)
        if one_rows("ratings_changed", _changed_since, club_id=club, since=since, game_id=place):
            return None
        _version, summary = summary_current(game[3:])
        result = _outcome(game_id, summary, game[3 + _REASON])
        if result is None:
            return None
        seated = sorted({player for player in result.players if player is not None})
        players = ids_rows("ratings_players", _players_rated, seated, club_id=club)
        rated_now = players[0][6] if players else PlayerRating.objects.filter(club=club_id).count()
        if rated_now != snapshot.rated_players:
            return None
        # A game moves the ratings of its own players alone (`rating_step`): the club's
        # other rows are neither read nor written.
        live = {row[0] for row in players}
        stored = {row[0]: row for row in players if row[1] is not None and row[2] == club_id}
        result = AppendedGame(
            game_id,
            [p if p in live else None for p in result.players],
            result.sides,
            result.scores,
            result.winner,
        )
        model = rating_model()
        current = {pk: model.rating(mu=row[3], sigma=row[4]) for pk, row in stored.items()}
        played = defaultdict(int, {pk: row[5] for pk, row in stored.items()})
        after = rating_step(model, current, played, result, snapshot.games + 1)
        updated, new = [], []
        for point in after:
            figures = (point.mu, point.sigma, point.ordinal, played[point.player_id])
            row = stored.get(point.player_id)
            if row is None:
                fields = dict(zip(_RATING, figures, strict=True))
                new.append({**fields, "club_id": club_id, "player_id": point.player_id})
            else:
                updated.append((row[1], *figures))
        rows_set(PlayerRating, _RATING, updated)
        rows_add(PlayerRating, new)
        rows_add(
            RatingPoint,
            [
                {
                    "player_id": p.player_id,
                    "game_id": p.game_id,
                    "seq": p.seq,
                    "mu": p.mu,
                    "sigma": p.sigma,
                    "ordinal": p.ordinal,
                }
                for p in after
            ],
        )
        snapshot.computed_at = started
        snapshot.games += 1
        snapshot.last_finished_at = game[2]
        snapshot.last_game_id = game_id
        snapshot.rated_players += len(new)
        row_update(snapshot, _SNAPSHOT)
    return snapshot


_RATING = ("mu", "sigma", "ordinal", "games")
_SNAPSHOT = ("computed_at", "games", "last_finished_at", "last_game_id", "rated_players")
_REASON = SUMMARY_COLUMNS.index("finish_reason")


@dataclass(frozen=True)
class AppendedGame:
    game_id: int
    players: Sequence[int | None]
    sides: Sequence[Sequence[int]]
    scores: Sequence[int]
    winner: int | None  # None: drawn


def ratings_write(club_id: int, left_out: list[LeftOut]) -> RatingSnapshot | None:
    started = timezone.now()
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return None
    fresh: list[FreshSummary] = []
    results = counted_results(club, None, left_out, fresh)
    # A season's summaries are what its standings rows count: only its standings store them.
    ids = [summary.game_id for summary in fresh]
    seasonless = {
        pk
        for start in range(0, len(ids), 500)
        for pk in games_where(ids=ids[start : start + 500])
        .filter(season__isnull=True)
        .values_list("pk", flat=True)
    }
    summaries_store([summary for summary in fresh if summary.game_id in seasonless])
    final, history, game_count = ratings_compute(results)
    last = results[-1] if results else None
    points = {
        (after.player_id, after.game_id): {
            "seq": after.seq,
            "mu": after.mu,
            "sigma": after.sigma,
            "ordinal": after.ordinal,
        }
        for after in history
    }
    with transaction.atomic():
        snapshot = RatingSnapshot.objects.select_for_update().filter(club=club).first()
        if newer_snapshot_exists(snapshot, started):
            return None
        rows_replace(
            PlayerRating.objects.filter(club=club),
            ("player_id",),
            ("mu", "sigma", "ordinal", "games"),
            final,
            lambda k, values: PlayerRating(club=club, player_id=k, **values),
        )
        rows_replace(
            RatingPoint.objects.filter(player__club=club),
            ("player_id", "game_id"),
            ("seq", "mu", "sigma", "ordinal"),
            points,
            lambda k, values: RatingPoint(player_id=k[0], game_id=k[1], **values),
        )
        snapshot, _created = RatingSnapshot.objects.update_or_create(
            club=club,
            defaults={
                "computed_at": started,
                "games": game_count,
                "last_finished_at": last.finished_at if last else None,
                "last_game_id": last.game_id if last else None,
                "rated_players": len(final),
            },
        )
        if not left_out:
            RebuildFailure.objects.filter(kind=RebuildKind.RATINGS, club=club).delete()
    return snapshot
