"""Reads of tournament nights: each table's state and counted result, and the night's standings.

Every score comes from the rules engine (`scorecards.selectors.game_scored` over the stored
hands); this module only picks which hand ends a round and adds the engine's game totals up into
the night's totals. All of it is read in a fixed number of queries, whatever the size of the
night.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from kaiser_league.collation import name_key, sorted_by_name
from leagues.tournaments import ranking
from leagues.tournaments.models import (
    RoundEnd,
    SitOutScore,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from leagues.tournaments.ranking import Standing
from scorecards.rules import GameScore
from scorecards.selectors import game_prefetches, game_scored

PLAYING = "playing"
WAITING = "waiting"  # the round's hands are in but some wait for the other side's confirmation
DONE = "done"


@dataclass
class TableResult:
    """One table as the tournament counts it."""

    table: TournamentTable
    names: list[str]  # by seat
    player_ids: list[int | None]  # by seat
    score: GameScore  # the engine's scoring of every stored hand
    counted: int  # hands that count for the round (hands after the round's end are ignored)
    needed: int | None  # hands the round needs (None: to the target or to the time limit)
    scores: tuple[int, ...]  # the sides' totals after the counted hands (engine's numbers)
    done: bool
    unconfirmed: int  # counted hands waiting for confirmation
    winner: int | None  # side; None while playing or on a draw

    @property
    def state(self) -> str:
        if not self.done:
            return PLAYING
        return WAITING if self.unconfirmed else DONE

    @property
    def sides(self) -> list[str]:
        return [" & ".join(self.names[seat] for seat in side) for side in self.score.rules.sides]


def _units(
    player_unit: dict[int, int], player_ids: list[int | None], seats: tuple[int, ...]
) -> set[int]:
    """The standings units (players or pairs) of the club players in `seats`."""
    return {
        player_unit[player]
        for seat in seats
        if (player := player_ids[seat]) is not None and player in player_unit
    }


def hands_needed(tournament: Tournament, score: GameScore) -> int | None:
    """Hands the round needs at this table (`ranking.hands_needed`)."""
    per_round = tournament.hands_per_round if tournament.round_end == RoundEnd.HANDS else None
    totals = [hand.scores for hand in score.hands]
    return ranking.hands_needed(per_round, tournament.extra_hand_on_tie, totals)


def table_result(
    tournament: Tournament, table: TournamentTable, round_closed: bool, need_confirm: bool
) -> TableResult:
    """The table's counted result. Expects game seats and hands prefetched."""
    game = table.game
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    score = game_scored(game, hands)
    needed = hands_needed(tournament, score)
    outcome = ranking.table_outcome(
        totals_after=[hand.scores for hand in score.hands],
        starting=score.scores,
        needed=needed,
        game_finished=score.finished,
        game_winner=score.winner,
        round_closed=round_closed,
    )
    counted = outcome.counted
    unconfirmed = sum(1 for h in hands[:counted] if h.confirmed_at is None) if need_confirm else 0
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    return TableResult(
        table=table,
        names=[s.name for s in seats],
        player_ids=[s.player_id for s in seats],
        score=score,
        counted=counted,
        needed=needed,
        scores=outcome.totals,
        done=outcome.done,
        unconfirmed=unconfirmed,
        winner=outcome.winner,
    )


def tournament_rounds(tournament: Tournament) -> list[TournamentRound]:
    """Rounds with their tables, games, seats, hands and sit-outs: five queries in all."""
    return list(
        TournamentRound.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(
            Prefetch(
                "tables",
                queryset=TournamentTable.objects.select_related("game").order_by("number"),
            ),
            *game_prefetches("tables__game"),
            "sitouts",
        )
    )


def round_results(tournament: Tournament, round_: TournamentRound) -> list[TableResult]:
    closed = round_.status == "closed"
    return [
        table_result(tournament, table, closed, tournament.hands_need_confirmation)
        for table in round_.tables.all()
    ]


def tournament_entries(tournament: Tournament) -> list[TournamentEntry]:
    """The night's entries: by pair number (fixed pairs), then in name order (`name_key`)."""
    entries = sorted_by_name(tournament.entries.select_related("player"), lambda e: e.player.name)
    # Stable sort: pairs (or no pair number at all) keep their name order.
    return sorted(entries, key=lambda e: (e.pair_number is None, e.pair_number or 0))


@dataclass
class Standings:
    rows: list[Standing]
    rounds: list[TournamentRound]
    results: dict[int, list[TableResult]]  # by round number
    sitout_scores: dict[int, int]  # by round number: what a sit-out scored
    tiebreaks: list[str]

    @property
    def current(self) -> TournamentRound | None:
        return self.rounds[-1] if self.rounds else None


def tiebreak_text(tournament: Tournament) -> list[str]:
    if tournament.fixed_pairs:
        return [_("wins (a drawn table counts half)"), _("points"), _("head-to-head")]
    return [_("points"), _("wins (a drawn table counts half)"), _("head-to-head")]


def tournament_standings(
    tournament: Tournament,
    entries: list[TournamentEntry] | None = None,
    rounds: list[TournamentRound] | None = None,
) -> Standings:
    """The night's standings. Rotating partners: each player scores their side's total at every
    table. Fixed pairs: each pair scores its side's total. A sit-out (or bye) scores the
    tournament's sit-out score: the round's average side total, or a fixed number."""
    entries = tournament_entries(tournament) if entries is None else entries
    rounds = tournament_rounds(tournament) if rounds is None else rounds
    pairs = tournament.fixed_pairs
    rows: dict[int, Standing] = {}
    unit_of: dict[int, int] = {}  # entry id -> standing key
    player_unit: dict[int, int] = {}  # player id -> standing key
    for entry in entries:
        key = entry.pair_number if pairs and entry.pair_number is not None else entry.pk
        unit_of[entry.pk] = key
        player_unit[entry.player_id] = key
        row = rows.get(key)
        if row is None:
            row = rows[key] = Standing(key=key, name=entry.player.name, entry_ids=[entry.pk])
        else:
            row.name = f"{row.name} & {entry.player.name}"
            row.entry_ids.append(entry.pk)
        row.withdrawn = row.withdrawn or entry.last_round is not None
    results: dict[int, list[TableResult]] = {}
    sitout_scores: dict[int, int] = {}
    for round_ in rounds:
        round_results_ = round_results(tournament, round_)
        results[round_.number] = round_results_
        side_totals: list[int] = []
        for result in round_results_:
            if not result.counted and not result.done:
                continue
            sides = result.score.rules.sides
            side_totals.extend(result.scores[side] for side in range(len(sides)))
            ranking.table_count(
                rows,
                [_units(player_unit, result.player_ids, seats) for seats in sides],
                result.scores,
                result.winner,
                result.done,
            )
        if tournament.sitout_score == SitOutScore.FIXED:
            sitout = tournament.sitout_points
        else:
            sitout = ranking.sitout_average(side_totals)
        sitout_scores[round_.number] = sitout
        for unit in {unit_of[s.entry_id] for s in round_.sitouts.all() if s.entry_id in unit_of}:
            rows[unit].sitouts += 1
            rows[unit].sitout_points += sitout
            rows[unit].points += sitout
    ordered = ranking.standings_rank(list(rows.values()), pairs, name_key)
    return Standings(ordered, rounds, results, sitout_scores, tiebreak_text(tournament))
