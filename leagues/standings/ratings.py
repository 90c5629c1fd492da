"""Ratings of a club (OpenSkill, `derived.rating_step`): the full rebuild from every counted
game's summary, and a newly finished game added on its own when it is the only change."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

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
from leagues.standings.summaries import FreshSummary, counted_results, summaries_store
from scorecards.models import GameStatus
from scorecards.selectors import games_where


def ratings_append(club_id: int, game_id: int) -> RatingSnapshot | None:
    """Rate game `game_id` on top of the club's stored ratings, when it is the only change since
    they were computed: it counts, it comes after the last game rated in game order
    (`derived.game_order`: a game dated earlier lands among the rated ones and needs the full
    rebuild), no other game of the club changed since, and no rated player was deleted. Then
    the result is exactly what a full rebuild gives (the same steps on the same numbers), for a
    few queries whatever the size of the season. Returns None (and writes nothing) when any of
    that does not hold."""
    started = timezone.now()
    with transaction.atomic():
        snapshot = RatingSnapshot.objects.select_for_update().filter(club_id=club_id).first()
        if snapshot is None or snapshot.last_finished_at is None or not snapshot.last_game_id:
            return None
        game = (
            games_where(club=club_id, ids=[game_id])
            .counted()
            .only("pk", "rules", "first_dealer", "finished_at", "finish_reason")
            .first()
        )
        if game is None or game.finished_at is None:
            return None
        # Where it and the last game rated stand in game order now (a day may have been set
        # since the last rebuild).
        keys = {
            pk: (day, finished_at, pk)
            for pk, day, finished_at in games_where(
                club=club_id, ids=[game.pk, snapshot.last_game_id]
            )
            .annotate(_day=game_day())
            .values_list("pk", "_day", "finished_at")
        }
        last = keys.get(snapshot.last_game_id)
        if last is None or game.pk not in keys or keys[game.pk] <= last:
            return None
        # Games in play change all the time and do not matter; a game that is finished, or was
        # counted once (it has a summary), does.
        changed = games_where(club=club_id).filter(updated_at__gt=snapshot.computed_at)
        changed = changed.exclude(pk=game.pk).filter(
            Q(status=GameStatus.FINISHED) | Q(standings_summary__isnull=False)
        )
        if changed.exists():
            return None
        rated = PlayerRating.objects.filter(club_id=club_id)
        if rated.count() != snapshot.rated_players:
            return None
        scored = list(games_scored([game], []))
        if not scored:
            return None
        _game, players, score = scored[0]
        counts, winner = game_outcome(score, game.finish_reason)
        if not counts:
            return None
        seated = [player for player in players if player is not None]
        # A game moves the ratings of its own players alone (`rating_step`): the club's
        # other rows are neither read nor written.
        stored = {row.player_id: row for row in rated.filter(player_id__in=seated)}
        rated_before = snapshot.rated_players
        live = set(Player.objects.filter(pk__in=seated).values_list("pk", flat=True))
        result = AppendedGame(
            game.pk,
            [p if p in live else None for p in players],
            score.rules.sides,
            score.scores,
            winner,
        )
        model = rating_model()
        current = {pk: model.rating(mu=row.mu, sigma=row.sigma) for pk, row in stored.items()}
        played = defaultdict(int, {pk: row.games for pk, row in stored.items()})
        after = rating_step(model, current, played, result, snapshot.games + 1)
        updated: list[PlayerRating] = []
        new: list[PlayerRating] = []
        for point in after:
            row = stored.get(point.player_id)
            if row is None:
                row = PlayerRating(club_id=club_id, player_id=point.player_id)
                new.append(row)
            else:
                updated.append(row)
            row.mu, row.sigma, row.ordinal = point.mu, point.sigma, point.ordinal
            row.games = played[point.player_id]
        PlayerRating.objects.bulk_update(updated, ["mu", "sigma", "ordinal", "games"])
        PlayerRating.objects.bulk_create(new)
        RatingPoint.objects.bulk_create(
            RatingPoint(
                player_id=p.player_id,
                game_id=p.game_id,
                seq=p.seq,
                mu=p.mu,
                sigma=p.sigma,
                ordinal=p.ordinal,
            )
            for p in after
        )
        snapshot.computed_at = started
        snapshot.games += 1
        snapshot.last_finished_at = game.finished_at
        snapshot.last_game_id = game.pk
        snapshot.rated_players = rated_before + len(new)
        snapshot.save()
    return snapshot


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
