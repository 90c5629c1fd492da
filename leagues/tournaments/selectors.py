"""Reads of tournament nights: each table's state and counted result, and the night's standings.

Every score comes from the rules engine (`scorecards.selectors.game_scored` over the stored
hands); this module only picks which hand ends a round and adds the engine's game totals up into
the night's totals. All of it is read in a fixed number of queries, whatever the size of the
night.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

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
from scorecards.rules import GameScore, Rules
from scorecards.selectors import game_prefetches, game_scored

PLAYING = "playing"
WAITING = "waiting"  # the round's hands are in but some wait for the other side's confirmation
DONE = "done"


class TableRow(NamedTuple):
    """A table as the night's boards read it (`night_read`): its row's values, no model."""

    pk: int
    number: int
    game_id: int


@dataclass
class TableResult:
    """One table as the tournament counts it."""

    table: TournamentTable | TableRow
    names: list[str]  # by seat
    player_ids: list[int | None]  # by seat
    rules: Rules  # the game's
    # The engine's scoring of every stored hand; None when the night was read by the engine's
    # whole-record fast path (`night_read`), which keeps only the totals.
    score: GameScore | None
    counted: int  # hands that count for the round (hands after the round's end are ignored)
    needed: int | None  # hands the round needs (None: to the target or to the time limit)
    scores: tuple[int, ...]  # the sides' totals after the counted hands (engine's numbers)
    done: bool
    unconfirmed: int  # counted hands waiting for confirmation
    winner: int | None  # side; None while playing or on a draw
    first_dealer: int  # the seat that dealt the game's first hand

    @property
    def state(self) -> str:
        if not self.done:
            return PLAYING
        return WAITING if self.unconfirmed else DONE

    @property
    def sides(self) -> list[str]:
        return [" & ".join(self.names[seat] for seat in side) for side in self.rules.sides]


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
    return _needed(tournament, [hand.scores for hand in score.hands])


def _needed(tournament: Tournament, after: Sequence[Sequence[int]]) -> int | None:
    """`hands_needed` from the sides' totals after each hand."""
    per_round = tournament.hands_per_round if tournament.round_end == RoundEnd.HANDS else None
    return ranking.hands_needed(per_round, tournament.extra_hand_on_tie, after)


@dataclass(frozen=True, slots=True)
class Totals:
    """What the night counts of a game, as the engine scored it: `GameScore`'s fields of the
    same names, `after` the sides' totals after each hand, and `score` the full GameScore when
    it was scored by the general path."""

    rules: Rules
    after: Sequence[Sequence[int]]
    scores: Sequence[int]
    finished: bool
    winner: int | None
    score: GameScore | None = None

    @classmethod
    def of(cls, score: GameScore) -> Totals:
        after = [hand.scores for hand in score.hands]
        return cls(score.rules, after, score.scores, score.finished, score.winner, score)


def table_result(
    tournament: Tournament, table: TournamentTable, round_closed: bool, need_confirm: bool
) -> TableResult:
    """The table's counted result. Expects game seats and hands prefetched."""
    game = table.game
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    return table_counted(
        tournament,
        table,
        [s.name for s in seats],
        [s.player_id for s in seats],
        game.first_dealer,
        Totals.of(game_scored(game, hands)),
        [h.confirmed_at is not None for h in hands] if need_confirm else [],
        round_closed,
    )


def table_counted(
    tournament: Tournament,
    table: TournamentTable | TableRow,
    names: list[str],
    player_ids: list[int | None],
    first_dealer: int,
    totals: Totals,
    confirmed: Sequence[bool],
    round_closed: bool,
) -> TableResult:
    """The table's counted result from the engine's `totals` of its game; `confirmed` says, by
    hand, whether each was confirmed (empty when the night asks no confirmation)."""
    needed = _needed(tournament, totals.after)
    outcome = ranking.table_outcome(
        totals_after=totals.after,
        starting=totals.scores,
        needed=needed,
        game_finished=totals.finished,
        game_winner=totals.winner,
        round_closed=round_closed,
    )
    counted = outcome.counted
    unconfirmed = sum(1 for done in confirmed[:counted] if not done)
    return TableResult(
        table=table,
        names=names,
        player_ids=player_ids,
        rules=totals.rules,
        score=totals.score,
        counted=counted,
        needed=needed,
        scores=outcome.totals,
        done=outcome.done,
        unconfirmed=unconfirmed,
        winner=outcome.winner,
        first_dealer=first_dealer,
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
    tournament's sit-out score: the round's average side total, or a fixed number.

    `rounds` given are expected prefetched as `tournament_rounds` reads them (a page reads
    the night faster by `night_read.night_read`, and `standings_of` what it read)."""
    entries = tournament_entries(tournament) if entries is None else entries
    rounds = tournament_rounds(tournament) if rounds is None else rounds
    return standings_of(
        tournament,
        [
            EntryRow(e.pk, e.player_id, e.pair_number, e.last_round is not None, e.player.name)
            for e in entries
        ],
        rounds,
        {round_.number: round_results(tournament, round_) for round_ in rounds},
        {round_.number: [s.entry_id for s in round_.sitouts.all()] for round_ in rounds},
    )


def unit_key(entry: EntryRow, pairs: bool) -> int:
    """The standings row an entry counts in: its pair's number (fixed pairs), else its own."""
    return entry.pair_number if pairs and entry.pair_number is not None else entry.pk


def standings_of(
    tournament: Tournament,
    entries: Iterable[EntryRow],
    rounds: list[TournamentRound],
    results: dict[int, list[TableResult]],
    sitouts: dict[int, list[int]],
    name_order: Callable[[str], Any] | None = None,
) -> Standings:
    """`tournament_standings` of what was read: the entries in their order, the rounds in
    order, each round's table results and sit-outs' entry ids by round number; `name_order`
    the sort key of a name (`name_key` by default)."""
    pairs = tournament.fixed_pairs
    rows: dict[int, Standing] = {}
    unit_of: dict[int, int] = {}  # entry id -> standing key
    player_unit: dict[int, int] = {}  # player id -> standing key
    for entry in entries:
        key = unit_key(entry, pairs)
        unit_of[entry.pk] = key
        player_unit[entry.player_id] = key
        row = rows.get(key)
        if row is None:
            row = rows[key] = Standing(key=key, name=entry.name, entry_ids=[entry.pk])
        else:
            row.name = f"{row.name} & {entry.name}"
            row.entry_ids.append(entry.pk)
        row.withdrawn = row.withdrawn or entry.withdrawn
    sitout_scores: dict[int, int] = {}
    for round_ in rounds:
        side_totals: list[int] = []
        for result in results[round_.number]:
            if not result.counted and not result.done:
                continue
            sides = result.rules.sides
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
        for unit in {unit_of[e] for e in sitouts.get(round_.number, ()) if e in unit_of}:
            rows[unit].sitouts += 1
            rows[unit].sitout_points += sitout
            rows[unit].points += sitout
    ordered = ranking.standings_rank(list(rows.values()), pairs, name_order or name_key)
    return Standings(ordered, rounds, results, sitout_scores, tiebreak_text(tournament))


class EntryRow(NamedTuple):
    """An entry as the standings read it: its row's values and its player's name."""

    pk: int
    player_id: int
    pair_number: int | None
    withdrawn: bool
    name: str
