"""Queueing the rebuilds of derived data (standings, ratings; `leagues.standings.rebuild`).

Rebuilds are queued by `derived_data_queue` after a game's result changes and by
`derived_data_mark_stale` when games stop counting; the periodic `derived_data_reconcile` and
`manage.py standings_rebuild --all` catch up on anything missed (a broker that was down, a worker
that died).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, Exists, Max, OuterRef, Q, Subquery, Value
from kombu.exceptions import OperationalError as BrokerError

from kaiser_league.celery import app as celery_app
from leagues.clubs.models import Club, Season
from leagues.standings import gone, rebuild, runner
from leagues.standings.models import (
    PlayerRating,
    PlayerStanding,
    RatingPoint,
    RatingSnapshot,
    RebuildFailure,
    RebuildKind,
    StandingsSnapshot,
)
from leagues.standings.statements import change_seen
from leagues.standings.summaries import older_format_summaries
from scorecards.models import GameStatus
from scorecards.selectors import games_where

log = logging.getLogger(__name__)

# The rebuild tasks' fixed names (`leagues.standings.tasks`): queued by name, so that the tasks
# module imports this one and not the other way round.
STANDINGS_TASK = "leagues.standings_rebuild"
RATINGS_TASK = "leagues.ratings_rebuild"


def derived_data_mark_stale(
    *, season_ids: Iterable[int] = (), club_ids: Iterable[int] = ()
) -> None:
    """Say that the standings of `season_ids` and the ratings of `club_ids` no longer match
    their games (games stopped counting, a player was merged), and queue their rebuild after the
    current transaction commits. The snapshot rows go, so even with the broker down the periodic
    reconciliation sees them stale; the figures shown stay until the rebuild replaces them."""
    season_ids = sorted({s for s in season_ids if s is not None})
    club_ids = sorted({c for c in club_ids if c is not None})
    StandingsSnapshot.objects.filter(season_id__in=season_ids).delete()
    RatingSnapshot.objects.filter(club_id__in=club_ids).delete()
    transaction.on_commit(
        lambda: derived_data_send(season_ids=season_ids, club_ids=club_ids), robust=True
    )


def games_deleted_receive(
    sender: Any,
    *,
    season_games: Mapping[int, Iterable[int]],
    club_games: Mapping[int, Iterable[int]],
    **kwargs: Any,
) -> None:
    """`scorecards.hooks.games_deleted`, before the games go: each season's standings are
    updated without them after the commit, their stored summaries kept until then
    (`leagues.standings.gone`), or rebuilt from nothing when they cannot be; the ratings of
    a club are rebuilt unless none of its games was ever rated (none finished, no rating after
    one of them)."""
    full, update = gone.games_gone_keep(season_games)
    rated = [club for club, ids in club_games.items() if _rated_any(list(ids))]
    StandingsSnapshot.objects.filter(season_id__in=full).delete()
    RatingSnapshot.objects.filter(club_id__in=rated).delete()
    if full or update or rated:
        transaction.on_commit(
            lambda: derived_data_send(season_ids=full, season_games=update, club_ids=rated),
            robust=True,
        )


def _rated_any(game_ids: list[int]) -> bool:
    """Whether any of the games may count in its club's ratings (finished now, or rated)."""
    finished = games_where(ids=game_ids).filter(status=GameStatus.FINISHED)
    return finished.exists() or RatingPoint.objects.filter(game_id__in=game_ids).exists()


def night_changed_receive(
    sender: Any, *, season_ids: Iterable[int], club_ids: Iterable[int], **kwargs: Any
) -> None:
    """`leagues.tournaments.season_nights.night_changed`: a night finished (its winners count
    in the season standings) or was cancelled (its games stop counting): stale until rebuilt."""
    derived_data_mark_stale(season_ids=season_ids, club_ids=club_ids)


def game_result_changed_receive(sender: Any, *, game: Any, **kwargs: Any) -> None:
    """`scorecards.hooks.game_result_changed`: rebuild what the game counts in."""
    derived_data_queue(game=game)


def derived_data_send(
    *,
    season_ids: Iterable[int] = (),
    club_ids: Iterable[int] = (),
    game_id: int | None = None,
    season_games: Mapping[int, Iterable[int]] | None = None,
) -> bool:
    """Queue the rebuilds now. Never raises: a broker that is down (or an eager rebuild that
    fails) is logged, and reconciliation catches up later. Returns True if all were queued.
    `season_ids`: standings rebuilt from nothing; `season_games` ({season: games}): standings
    updated by those games alone (`leagues.standings.delta`) when they can be; `game_id`: the
    one game whose change caused it (the ratings may then add just that game).

    On the embedded default (`runner.background()`) the work goes to the process's background
    thread (`leagues.standings.runner`): it runs after the response, merged with whatever else
    waits. Otherwise the tasks are found by their fixed names in the Celery app's registry
    (`leagues.standings.tasks`, imported by `LeaguesConfig.ready`): the tasks call this module,
    never the other way round."""
    season_ids = list(season_ids)
    club_ids = list(club_ids)
    games_of = {
        season: sorted(set(games))
        for season, games in (season_games or {}).items()
        if season not in season_ids
    }
    if runner.background():
        runner.hand_off(
            season_games=games_of,
            season_ids=season_ids,
            club_games={club: [game_id] for club in club_ids} if game_id else None,
            club_ids=() if game_id else club_ids,
        )
        return True
    ok = True
    jobs: list[tuple[str, int, dict[str, Any]]] = [(STANDINGS_TASK, s, {}) for s in season_ids]
    jobs += [(STANDINGS_TASK, s, {"game_ids": games}) for s, games in games_of.items()]
    jobs += [(RATINGS_TASK, c, {"game_id": game_id} if game_id else {}) for c in club_ids]
    if not jobs:
        return True
    with contextlib.ExitStack() as stack:
        connection = None
        if not celery_app.conf.task_always_eager:
            connection = stack.enter_context(_publish_connection())
        for name, object_id, hint in jobs:
            try:
                # No publish retries: a hand submit must never wait on a broker that is down.
                task = celery_app.tasks[name]
                task.apply_async((object_id,), hint, retry=False, connection=connection)
            except (BrokerError, *BROKER_SOCKET_ERRORS):
                # Down for one is down for all: do not pay the timeout again per job.
                log.exception("broker down: could not queue %s; reconciliation will catch up", jobs)
                return False
            except Exception:  # an eager rebuild that failed: the hand is saved, log and go on
                ok = False
                log.exception("could not run %s(%s); reconciliation will catch up", name, object_id)
    return ok


def derived_data_run(
    *,
    season_games: Mapping[int, Iterable[int]],
    season_ids: Iterable[int],
    club_games: Mapping[int, Iterable[int]],
    club_ids: Iterable[int],
) -> None:
    """Do now, in this thread, what `derived_data_send` handed to the background thread (its
    arguments merged): the standings first (they keep the summaries the ratings then read).
    A failure of one is logged and never stops the others; reconciliation retries it."""
    jobs: list[Callable[[], object]] = [
        functools.partial(rebuild.standings_rebuild, season_id=s) for s in season_ids
    ]
    jobs += [
        functools.partial(rebuild.standings_rebuild, season_id=s, game_ids=list(games))
        for s, games in season_games.items()
    ]
    jobs += [functools.partial(rebuild.ratings_rebuild, club_id=c) for c in club_ids]
    for club, games in club_games.items():
        games = list(games)
        one = games[0] if len(games) == 1 else None
        jobs.append(functools.partial(rebuild.ratings_rebuild, club_id=club, game_id=one))
    for job in jobs:
        try:
            job()
        except Exception:
            log.exception("derived data job %s failed; reconciliation will catch up", job)


# A broker that hangs (stopped, overloaded, a half-open connection) rather than refusing.
BROKER_SOCKET_ERRORS = (OSError, TimeoutError)


def _publish_connection() -> Any:
    """A broker connection for publishing from a request, with short socket timeouts
    (BROKER_PUBLISH_TIMEOUT, default 0.5 s): a broker that refuses, or one that accepts and
    never answers, costs a hand submit at most about that, never the worker's long timeouts.
    Workers keep CELERY_BROKER_TRANSPORT_OPTIONS (their blocking reads need longer)."""
    timeout = settings.BROKER_PUBLISH_TIMEOUT
    options = {
        **celery_app.conf.broker_transport_options,
        "max_retries": 0,
        "socket_connect_timeout": timeout,
        "socket_timeout": timeout,
    }
    return celery_app.connection_for_write(connect_timeout=timeout, transport_options=options)


class _Batch:
    """Games whose result changed, sent together by the first of their callbacks to run (the
    others find it sent)."""

    def __init__(self) -> None:
        self.games: list[tuple[int | None, int, int]] = []  # (season, club, game)
        self.sent = False
        self.held = False  # inside derived_data_held: sent when the block ends

    def send(self) -> None:
        if self.sent or self.held:
            return
        self.sent = True
        game_ids = {game_id for _season, _club, game_id in self.games}
        season_games: dict[int, set[int]] = {}
        for season, _club, game_id in self.games:
            if season:
                season_games.setdefault(season, set()).add(game_id)
        derived_data_send(
            season_games=season_games,
            club_ids=sorted({club for _season, club, _game in self.games}),
            # One game: the ratings may add just that game (rebuild.ratings_append).
            game_id=game_ids.pop() if len(game_ids) == 1 else None,
        )


_batches = threading.local()


@contextlib.contextmanager
def derived_data_held() -> Iterator[None]:
    """The games whose result changes inside the block share one batch, sent once when the
    block ends without an error, however many transactions it commits (a club restored in
    short transactions queues one rebuild, not one per transaction). Nothing is sent when the
    block raises: its writer removes what it wrote."""
    batch = _batches.current = _Batch()
    batch.held = True
    try:
        yield
    finally:
        batch.held = False
        _batches.current = None
    if batch.games:
        transaction.on_commit(batch.send, robust=True)  # now, outside a transaction


def _waiting(batch: _Batch) -> bool:
    """Whether `batch.send` is still registered to run when the current transaction commits."""
    pending = transaction.get_connection().run_on_commit
    return any(func == batch.send for _savepoints, func, _robust in pending)


def derived_data_queue(*, game: Any) -> None:
    """After the current transaction commits, queue the rebuild of the standings of `game`'s
    season and the ratings of its club. Never raises (see derived_data_send).

    The games of one transaction share their rebuilds: closing a round of twenty tables queues
    one rebuild of the season and one of the club's ratings, not twenty of each. Each game
    registers the batch's callback, so whichever of them survives (a savepoint rolled back
    takes its own with it) sends them all, and the others find it sent. A batch none of whose
    callbacks is still waiting on this connection belonged to a transaction that rolled back:
    it is dropped with it, so its games never join a later transaction's rebuilds."""
    if game.club_id is None:
        return
    batch: _Batch | None = getattr(_batches, "current", None)
    if batch is None or batch.sent or not (batch.held or _waiting(batch)):
        batch = _batches.current = _Batch()
    batch.games.append((game.season_id, game.club_id, game.pk))
    transaction.on_commit(batch.send, robust=True)


def derived_data_stale() -> tuple[list[int], list[int]]:
    """Seasons and clubs whose snapshot is missing (never made, or marked stale) or older than
    a change to their finished or counted games (a hand entered, corrected, undone or
    confirmed, a game finished or abandoned), or with a game summary of another format than
    this release's (a new release computes them, and the figures they add, such as the pot
    balances, without waiting for a game to change), or a season whose rows still count games
    deleted since (their update lost: `leagues.standings.gone`). A season or club whose last
    rebuild failed is not retried until something changes."""
    changed = Max("games__updated_at", filter=change_seen("games__"))
    confirmed = Value(None, output_field=DateTimeField())
    older = older_format_summaries()
    # A line of a season counted by a release that did not keep the day last played and the
    # latest game (every line with a game has them): the season is counted again.
    unfilled = PlayerStanding.objects.filter(games__gt=0).filter(
        Q(last_played__isnull=True) | Q(last_game__isnull=True)
    )
    # Deleted games whose part in the rows is still to take off (`leagues.standings.gone`).
    kept = StandingsSnapshot.objects.filter(gone__isnull=False)
    season_older = (
        Exists(older.filter(game__season=OuterRef("pk")))
        | Exists(unfilled.filter(season=OuterRef("pk")))
        | Exists(kept.filter(season=OuterRef("pk")))
    )
    club_older = Exists(older.filter(game__club=OuterRef("pk")))
    season_games = games_where(season=OuterRef("pk"))
    season_rows = PlayerStanding.objects.filter(season=OuterRef("pk"))
    failed_season = RebuildFailure.objects.filter(
        kind=RebuildKind.STANDINGS, season=OuterRef("pk")
    ).values("failed_at")[:1]
    seasons = (
        Season.objects.filter(Exists(season_games) | Exists(season_rows))
        .annotate(
            changed=changed, confirmed=confirmed, failed=Subquery(failed_season), older=season_older
        )
        .values_list("pk", "changed", "confirmed", "standings__computed_at", "failed", "older")
    )
    club_games = games_where(club=OuterRef("pk"))
    club_rows = PlayerRating.objects.filter(club=OuterRef("pk"))
    failed_club = RebuildFailure.objects.filter(
        kind=RebuildKind.RATINGS, club=OuterRef("pk")
    ).values("failed_at")[:1]
    clubs = (
        Club.objects.filter(Exists(club_games) | Exists(club_rows))
        .annotate(
            changed=changed, confirmed=confirmed, failed=Subquery(failed_club), older=club_older
        )
        .values_list("pk", "changed", "confirmed", "ratings__computed_at", "failed", "older")
    )

    def stale(rows: Iterable[tuple]) -> list[int]:
        out = []
        for pk, changed_at, confirmed_at, computed_at, failed_at, older in rows:
            times = [t for t in (changed_at, confirmed_at) if t is not None]
            latest = max(times) if times else None
            if failed_at is not None and (latest is None or failed_at > latest):
                continue  # the same data would fail the same way: wait for a change
            if older or computed_at is None or (latest is not None and latest >= computed_at):
                out.append(pk)
        return sorted(set(out))

    return stale(seasons), stale(clubs)


def derived_data_reconcile() -> tuple[list[int], list[int]]:
    """Queue a rebuild of every stale season and club (the periodic beat job). Returns them."""
    season_ids, club_ids = derived_data_stale()
    if season_ids or club_ids:
        log.info("reconciling standings of seasons %s, ratings of clubs %s", season_ids, club_ids)
        derived_data_send(season_ids=season_ids, club_ids=club_ids)
    return season_ids, club_ids


def club_counting_changed_receive(
    *, club_id: int, season_ids: Iterable[int], **_kwargs: Any
) -> None:
    """Receiver of `leagues.clubs.services.club_counting_changed`: what counts changed, so every
    season of the club and its ratings are rebuilt, and stale until then (a game finishing
    meanwhile is never added on top of ratings counted under the old rule)."""
    derived_data_mark_stale(season_ids=season_ids, club_ids=[club_id])


runner.runner_install(derived_data_run, derived_data_reconcile)
