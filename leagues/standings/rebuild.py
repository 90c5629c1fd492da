"""Rebuilding the derived data (standings, ratings) of a season or club: snapshots computed from
the stored hands through the rules engine (`leagues.standings.derived`), the standings through
the per-game summaries (`leagues.standings.summaries`: only games that changed are scored again),
with the nights each player played and won (`leagues.standings.nights`).
A rebuild is idempotent: rebuilding twice changes nothing but the snapshot's computed-at time. A
failed rebuild is recorded as a RebuildFailure and never stops the others."""

from __future__ import annotations

import functools
import gc
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kaiser_league.query_memo import row_update
from leagues.clubs.models import Club, Season
from leagues.standings.delta import season_of, standings_update
from leagues.standings.derived import PLAYER_ONLY, LeftOut
from leagues.standings.figures import standings_compute
from leagues.standings.gone import DELETIONS, deleted_since
from leagues.standings.models import (
    PartnershipStanding,
    PlayerStanding,
    RatingSnapshot,
    RebuildFailure,
    RebuildKind,
    StandingFigures,
    StandingsSnapshot,
)
from leagues.standings.nights import NIGHT_FIGURES, nights_compute, season_nights
from leagues.standings.ratings import ratings_append, ratings_write
from leagues.standings.rows import newer_snapshot_exists, rows_replace
from leagues.standings.statements import commit_unwaited
from leagues.standings.summaries import (
    FreshSummary,
    counted_results,
    summaries_of_season_keep,
    summaries_store,
)

log = logging.getLogger(__name__)


# A database that is away or busy: worth another try (the Celery task retries these). Anything
# else a rebuild raises is a fact about the data, recorded in RebuildFailure for people to see.
TRANSIENT_ERRORS = (OperationalError, InterfaceError)


def _failure_record(
    *, kind: str, club_id: int | None, season_id: int | None, error: str, left_out: list[LeftOut]
) -> None:
    """Note (or refresh) why the rebuild of a season or club failed (`club_id` None: the
    season's club, read now). Never raises: the note is for people; the season or club it is
    about may even be gone by now."""
    text = error or _("Games left out: the rules engine could not score them.")
    try:
        with transaction.atomic():
            if club_id is None:
                season = season_of(season_id) if season_id is not None else None
                if season is None:
                    return
                club_id = season.club_id
            RebuildFailure.objects.update_or_create(
                kind=kind,
                club_id=club_id,
                season_id=season_id,
                defaults={
                    "error": text[:4000],
                    "games_left_out": [
                        {"game": item.game_id, "error": item.error} for item in left_out
                    ],
                    "failed_at": timezone.now(),
                },
            )
    except DatabaseError:
        log.exception("could not record the failed %s rebuild of %s/%s", kind, club_id, season_id)


def _rebuild_isolated(
    kind: str,
    club_id: int | None,
    season_id: int | None,
    rebuild: Callable[[list[LeftOut]], Any],
) -> tuple[Any, str]:
    """Run `rebuild(left_out)`; on any error (but a transient one, re-raised for a retry) or
    when it left games out, record it. Returns (its result or None, the error text or "")."""
    left_out: list[LeftOut] = []
    try:
        result = rebuild(left_out)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:  # isolate: one season never stops the others
        # (The update of one game knows its season, not yet its club.)
        where = f"season {season_id}" if club_id is None else f"club {club_id} season {season_id}"
        log.exception("the %s rebuild of %s failed", kind, where)
        error = f"{type(exc).__name__}: {exc}"
        _failure_record(
            kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=left_out
        )
        return None, error
    if left_out:
        error = _("%(count)s game(s) left out: the rules engine could not score them.") % {
            "count": len(left_out)
        }
        _failure_record(
            kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=left_out
        )
        return result, error
    return result, ""


def standings_rebuild(
    *, season_id: int, game_ids: Iterable[int] | None = None
) -> StandingsSnapshot | None:
    """Recompute the standings of season `season_id` from its counted games and store them.
    `game_ids`: the games whose change caused it; the rows are then updated by those games
    alone when they can be (`leagues.standings.delta`), else rebuilt from nothing.

    Idempotent. The snapshot's computed_at is when the reading began. Returns the snapshot, or
    None if the season no longer exists, a newer rebuild already stored its result, or the
    rebuild failed. A failure never raises (but a transient database error, for a retry): it
    is recorded as a RebuildFailure, and the season keeps its last good standings. Games the
    engine cannot score are left out and recorded the same way."""
    if game_ids:
        ids = list(game_ids)
        # (The update reads the season's club with its snapshot; a failure reads it again.)
        updated, error = _rebuild_isolated(
            RebuildKind.STANDINGS,
            None,
            season_id,
            lambda _left_out: standings_update(season_id, ids),
        )
        if updated is not None and not error:
            return updated
    season = season_of(season_id)
    if season is None:
        return None
    result, _error = _rebuild_isolated(
        RebuildKind.STANDINGS,
        season.club_id,
        season.pk,
        lambda left_out: _standings_write(season_id, left_out),
    )
    return result


_paused_lock = threading.Lock()
_paused = 0
_paused_was_enabled = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the block (reference counting still frees
    everything at once): a season rebuilt from nothing keeps a summary and a result for each
    of its games until its rows are written, tens of thousands of young objects, and each
    time they grow past a quarter of the process's older ones the collector walks every object
    of the process, a fifth of the rebuild's time. It is the process's, so the blocks of
    concurrent rebuilds are counted and the collector runs again, if it ran before, when the
    last one ends."""
    global _paused, _paused_was_enabled
    with _paused_lock:
        if _paused == 0:
            _paused_was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _paused_lock:
            _paused -= 1
            if _paused == 0 and _paused_was_enabled:
                gc.enable()


def _standings_write(season_id: int, left_out: list[LeftOut]) -> StandingsSnapshot | None:
    with _collector_paused():
        return _standings_written(season_id, left_out)


def _standings_written(season_id: int, left_out: list[LeftOut]) -> StandingsSnapshot | None:
    started = timezone.now()
    # With the deletions its snapshot counted, read before the games (`gone.deleted_since`).
    seasons = Season.objects.select_related("club").filter(pk=season_id)
    season = seasons.annotate(_deletions=DELETIONS).first()
    if season is None:
        return None
    fresh: list[FreshSummary] = []
    counted: list[int] = []
    results = counted_results(season.club, season, left_out, fresh, counted)
    players, pairs, game_count, hand_count = standings_compute(results)
    nights = nights_compute(season_nights(season.pk), results)
    for player, row in players.items():
        row.update(nights.get(player) or dict.fromkeys(NIGHT_FIGURES, 0))
    fields = (*StandingFigures.FIGURES, *StandingFigures.LINE)
    with transaction.atomic():
        snapshot = StandingsSnapshot.objects.select_for_update().filter(season=season).first()
        if newer_snapshot_exists(snapshot, started) or deleted_since(snapshot, season._deletions):
            return None
        # Derived data alone, as one game's update writes (`statements.commit_unwaited`): the
        # flush of a season's rows and summaries cost its commit more than their checks.
        commit_unwaited()
        rows_replace(
            PlayerStanding.objects.filter(season=season),
            ("player_id",),
            (*fields, *PLAYER_ONLY, *NIGHT_FIGURES),
            players,
            lambda k, figures: PlayerStanding(season=season, player_id=k, **figures),
            fixed={"season_id": season.pk},
        )
        rows_replace(
            PartnershipStanding.objects.filter(season=season),
            ("first_id", "second_id"),
            fields,
            pairs,
            lambda k, figures: PartnershipStanding(
                season=season, first_id=k[0], second_id=k[1], **figures
            ),
            fixed={"season_id": season.pk},
        )
        # The summaries go with the rows they make (`summaries_of_season_keep`).
        summaries_store(fresh)
        summaries_of_season_keep(season, counted)
        # (Its rows count no deleted game: nothing kept of them is left to take off.)
        written = {"computed_at": started, "games": game_count, "hands": hand_count, "gone": None}
        if snapshot is None:
            snapshot, _created = StandingsSnapshot.objects.update_or_create(
                season=season, defaults=written
            )
        else:  # locked above: written by the UPDATE compiled once (`row_update`)
            for name, value in written.items():
                setattr(snapshot, name, value)
            row_update(snapshot, tuple(written))
        if not left_out:
            RebuildFailure.objects.filter(kind=RebuildKind.STANDINGS, season=season).delete()
    return snapshot


def ratings_rebuild(*, club_id: int, game_id: int | None = None) -> RatingSnapshot | None:
    """Recompute the OpenSkill ratings of club `club_id` from all its counted games, in game
    order, and store the final ratings and each player's rating after every game.

    Idempotent (the same games give the same numbers). Returns the snapshot, or None if the
    club no longer exists, a newer rebuild already stored its result, or the rebuild failed
    (recorded as a RebuildFailure, as for standings_rebuild)."""

    # (A club gone has no snapshot to add a game to, and `ratings_write` finds it gone.)
    def rebuild(left_out: list[LeftOut]) -> RatingSnapshot | None:
        appended = ratings_append(club_id, game_id) if game_id is not None else None
        return appended or ratings_write(club_id, left_out)

    result, _error = _rebuild_isolated(RebuildKind.RATINGS, club_id, None, rebuild)
    return result


@dataclass
class RebuildReport:
    """What derived_data_rebuild_all did: how many it rebuilt, and what it could not (as
    (what, why) pairs, e.g. ("standings of season 3 “2026” of club regina", "ValueError: ..."))."""

    seasons: int = 0
    clubs: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)


def derived_data_rebuild_all(
    *, season_ids: Iterable[int] | None = None, club_ids: Iterable[int] | None = None
) -> RebuildReport:
    """Rebuild now, in this process (manage.py standings_rebuild): the given seasons and clubs,
    or every one when None. Goes on past any failure, transient ones included, and reports
    them (they are also recorded as RebuildFailure rows)."""
    seasons = Season.objects.select_related("club").order_by("pk")
    if season_ids is not None:
        seasons = seasons.filter(pk__in=list(season_ids))
    clubs = Club.objects.order_by("pk")
    if club_ids is not None:
        clubs = clubs.filter(pk__in=list(club_ids))
    report = RebuildReport()
    jobs: list[tuple[str, str, int, int | None, Callable[[list[LeftOut]], object]]] = [
        (
            _("standings of season %(id)s “%(name)s” of club %(club)s")
            % {"id": season.pk, "name": season.name, "club": season.club.slug},
            RebuildKind.STANDINGS,
            season.club_id,
            season.pk,
            functools.partial(_standings_write, season.pk),
        )
        for season in seasons
    ]
    jobs += [
        (
            _("ratings of club %(club)s") % {"club": club.slug},
            RebuildKind.RATINGS,
            club.pk,
            None,
            functools.partial(ratings_write, club.pk),
        )
        for club in clubs
    ]
    for label, kind, club_id, season_id, rebuild in jobs:
        try:
            _result, error = _rebuild_isolated(kind, club_id, season_id, rebuild)
        except TRANSIENT_ERRORS as exc:
            error = f"{type(exc).__name__}: {exc}"
            _failure_record(
                kind=kind, club_id=club_id, season_id=season_id, error=error, left_out=[]
            )
        if error:
            report.failures.append((label, error))
        if kind == RebuildKind.STANDINGS:
            report.seasons += 1
        else:
            report.clubs += 1
    return report
