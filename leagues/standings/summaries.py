"""Per-game summaries (`GameSummary`): what the standings need of each counted game, scored by
the engine once and kept until the game changes, so that a rebuild re-scores only the games
that changed since the last one.

A summary is kept in step by comparing, at every rebuild, the `version` it was computed from
with the game's version now (`game_version`): a fingerprint read from the database, not from any
event or signal, of everything a summary depends on, and of the way summaries are computed
(`SUMMARY_FORMAT`): a summary stored by an older release is computed again, never misread. A
summary is derived data: deleting any or all of them costs only the time to compute them again.

A summary's `winner` is the outcome `derived.game_outcome` gives: a side, or None. None reads as
a draw for a game its tournament round ended (`FinishReason.ROUND`, part of the fingerprint) and
as "does not count" for any other game.
"""

from __future__ import annotations

import logging
import zlib
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from leagues.clubs.models import Club, Player, Season
from leagues.standings.derived import (
    BATCH,
    GameResult,
    LeftOut,
    counted_games_qs,
    game_counters,
    game_order,
    game_outcome,
    games_scored,
)
from leagues.standings.models import GameSummary
from scorecards.models import FinishReason, Game
from scorecards.selectors import game_last_change, games_where

log = logging.getLogger(__name__)

# Bumped whenever what a summary stores, or how it is read, changes: 2 counts the games a
# tournament round ended (won on points, or drawn).
SUMMARY_FORMAT = 2
_VERSION_FIELDS = (
    "updated_at",
    "_last_change",
    "hand_count",
    "first_dealer",
    "_rules_text",
    "finish_reason",
)
_SUMMARY_FIELDS = (
    "version",
    "players",
    "sides",
    "winner",
    "scores",
    "hands",
    "seat_counts",
    "side_counts",
)


def games_versioned(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with what `game_version` reads, in the same query."""
    return games.annotate(_last_change=game_last_change(), _rules_text=Cast("rules", TextField()))


def game_version(
    updated_at: Any,
    last_change: int | None,
    hand_count: int,
    first_dealer: int,
    rules_text: str,
    finish_reason: str,
) -> str:
    """The fingerprint of a game as its summary sees it (the columns of `games_versioned`).

    It changes with every hand entered, corrected, undone or confirmed (each writes a hand
    version and touches the game's `updated_at`, which the sheet's poll reads too), every
    finish, abandon or other save of the game (`updated_at`: an admin's edit of its seats
    included), and any change to its rules, first dealer or finish reason (the round that ended
    it), even one written without `save()`, and with `SUMMARY_FORMAT`. A change the summary
    does not depend on (a confirmation) only costs one game re-scored."""
    rules = zlib.crc32((rules_text or "").encode())
    return (
        f"v{SUMMARY_FORMAT}/{updated_at.timestamp():.6f}/{last_change or 0}/{hand_count}"
        f"/{first_dealer}/{rules:x}/{finish_reason or '-'}"
    )


def _summary_of(
    game_id: int, version: str, players: tuple, score: Any, finish_reason: str
) -> GameSummary:
    seat_counts, side_counts = game_counters(score)
    _counts, winner = game_outcome(score, finish_reason)
    return GameSummary(
        game_id=game_id,
        version=version,
        players=list(players),
        sides=[list(side) for side in score.rules.sides],
        winner=winner,
        scores=list(score.scores),
        hands=len(score.hands),
        seat_counts=seat_counts,
        side_counts=side_counts,
    )


def _summaries_store(summaries: list[GameSummary]) -> None:
    """Insert or replace the summaries (one per game). Never raises for a game deleted
    meanwhile: its summary is simply not kept (the rebuild still used it, as it read it)."""
    try:
        with transaction.atomic():
            GameSummary.objects.bulk_create(
                summaries,
                batch_size=500,
                update_conflicts=True,
                unique_fields=["game"],
                update_fields=_SUMMARY_FIELDS,
            )
    except IntegrityError:
        log.warning("a game went while its summary was written; the next rebuild writes it")


def _counts(summary: dict, finish_reason: str) -> bool:
    """Whether a (current) summary's game counts: won, or drawn when its round ended it."""
    return summary["winner"] is not None or finish_reason == FinishReason.ROUND


def _result(game_id: int, finished_at: Any, summary: dict, live: set[int]) -> GameResult:
    return GameResult(
        game_id=game_id,
        finished_at=finished_at,
        # A player deleted since (the seat kept as a guest) is no longer one.
        players=[player if player in live else None for player in summary["players"]],
        sides=summary["sides"],
        winner=summary["winner"],
        scores=summary["scores"],
        hands=summary["hands"],
        seat_counts=summary["seat_counts"],
        side_counts=summary["side_counts"],
    )


def counted_results(
    club: Club, season: Season | None = None, left_out: list[LeftOut] | None = None
) -> list[GameResult]:
    """The results of the games that count (`counted_games_qs`) for `club` (and `season`), in
    game order (`derived.game_order`), each read from its summary: the same figures the engine
    gives from the game's hands.

    Summaries that are missing or older than their game are first computed by the engine and
    stored (the only writes: derived data). A game the engine raises on is left out and noted
    in `left_out`; a game that does not count by `derived.game_outcome` is left out. The summary
    of a game that stopped counting is left in place: it is read only while its game counts,
    and only if its version still matches. A constant number of queries whatever the number of
    games (more only for games whose summary is recomputed: a few per 500 of them)."""
    rows = list(
        games_versioned(counted_games_qs(club, season)).values_list(
            "pk",
            "finished_at",
            *_VERSION_FIELDS,
            *(f"standings_summary__{name}" for name in _SUMMARY_FIELDS),
        )
    )
    split = 2 + len(_VERSION_FIELDS)
    versions: dict[int, str] = {}
    reasons: dict[int, str] = {}
    summaries: dict[int, dict] = {}
    stale: list[int] = []
    for row in rows:
        game_id = row[0]
        version = game_version(*row[2:split])
        reasons[game_id] = row[split - 1]
        stored = dict(zip(_SUMMARY_FIELDS, row[split:], strict=True))
        versions[game_id] = version
        if stored["version"] == version:
            summaries[game_id] = stored
        else:
            stale.append(game_id)
    for start in range(0, len(stale), BATCH):
        ids = stale[start : start + BATCH]
        games = list(
            games_where(ids=ids)
            .only("pk", "rules", "first_dealer")
            .order_by(*game_order())  # games left out are noted in game order
        )
        fresh = [
            _summary_of(game.pk, versions[game.pk], players, score, reasons[game.pk])
            for game, players, score in games_scored(games, left_out)
        ]
        _summaries_store(fresh)
        for summary in fresh:
            summaries[summary.game_id] = {name: getattr(summary, name) for name in _SUMMARY_FIELDS}
    live = set(Player.objects.filter(club=club).order_by().values_list("pk", flat=True))
    return [
        _result(game_id, finished_at, summaries[game_id], live)
        for game_id, finished_at, *_rest in rows
        if game_id in summaries and _counts(summaries[game_id], reasons[game_id])
    ]
