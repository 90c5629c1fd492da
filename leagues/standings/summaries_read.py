"""The summaries of a few games, by their ids: what one game's update reads
(`leagues.standings.delta`, `gone`, `runs`), each statement compiled once whatever the season's
size. `leagues.standings.summaries` says what a summary is."""

from __future__ import annotations

from leagues.clubs.models import Season
from leagues.standings.derived import LeftOut, counted_games_qs
from leagues.standings.models import GameSummary
from leagues.standings.scoring import GameRow, RulesText, games_scored_fast
from leagues.standings.statements import counted_shape, ids_rows
from leagues.standings.summaries import (
    SUMMARY_COLUMNS,
    SUMMARY_FIELDS,
    FreshSummary,
    games_versioned,
    summary_current,
    summary_of,
)


def summaries_now(
    season: Season, ids: list[int], left_out: list[LeftOut]
) -> tuple[dict[int, dict], list[FreshSummary]]:
    """The summaries of those of games `ids` of `season` that count now (`counted_games_qs`),
    as dicts of their fields ({game id: summary}), and the ones computed again (not stored:
    the caller stores them with the rows they change). Games the engine raises on are noted
    in `left_out` and left out. A few queries (compiled once) whatever the season's size."""
    rows = ids_rows(
        ("summaries_now", counted_shape()),
        lambda ids, club, season: games_versioned(
            counted_games_qs(club, season).filter(pk__in=ids)
        ).values_list("pk", *SUMMARY_COLUMNS),
        ids,
        club=(season.club_id, (1, 2)),
        season=(season.pk, (1, 2)),
    )
    now: dict[int, dict] = {}
    versions: dict[int, str] = {}
    stale: list[GameRow] = []
    rules_read = RulesText()
    for game_id, *columns in rows:
        versions[game_id], stored = summary_current(columns)
        if stored is not None:
            now[game_id] = stored
        else:
            _updated, _change, _count, first_dealer, rules_text, reason, pot = columns[:7]
            stale.append(GameRow(game_id, rules_read(rules_text), first_dealer, reason, pot))
    fresh = [
        summary_of(game, versions[game.pk], players, score)
        for game, players, score in games_scored_fast(stale, left_out)
    ]
    for summary in fresh:
        now[summary.game_id] = {name: getattr(summary, name) for name in SUMMARY_FIELDS}
    return now, fresh


def summaries_stored(ids: list[int]) -> dict[int, dict]:
    """The stored summaries of games `ids`, as dicts of their fields, readable or not."""
    return {
        row[0]: dict(zip(SUMMARY_FIELDS, row[1:], strict=True))
        for row in ids_rows(
            "summaries_stored",
            lambda ids: GameSummary.objects.filter(game_id__in=ids).values_list(
                "game_id", *SUMMARY_FIELDS
            ),
            ids,
        )
    }
