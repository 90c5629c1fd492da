"""Reads of tournament nights: each table's state and counted result, and the night's standings.

Every score comes from the rules engine (`scorecards.selectors.game_scored` over the stored
hands); this module only picks which hand ends a round and adds the engine's game totals up into
the night's totals. All of it is read in a fixed number of queries, whatever the size of the
night.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from kaiser_league.collation import name_key, sorted_by_name
from leagues.tournaments.models import (
    RoundEnd,
    SitOutScore,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from scorecards.models import Hand, Seat
from scorecards.rules import GameScore
from scorecards.selectors import game_scored

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
        return [f"{self.names[0]} & {self.names[2]}", f"{self.names[1]} & {self.names[3]}"]


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
    """Hands the round needs at this table (None: to the target or the time limit): one more
    when the sides are tied after the last one and the night breaks ties."""
    if tournament.round_end != RoundEnd.HANDS:
        return None
    needed = tournament.hands_per_round
    if tournament.extra_hand_on_tie and len(score.hands) >= needed:
        after = score.hands[needed - 1].scores
        if len(set(after)) == 1:
            needed += 1  # tied after the last hand: one more decides
    return needed


def table_result(
    tournament: Tournament, table: TournamentTable, round_closed: bool, need_confirm: bool
) -> TableResult:
    """The table's counted result. Expects game seats and hands prefetched."""
    game = table.game
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    score = game_scored(game, hands)
    needed = hands_needed(tournament, score)
    # Hands entered after the round's last hand do not count.
    counted = len(score.hands) if needed is None else min(len(score.hands), needed)
    # The engine may end the game (target, kaiser, ...) before the round's last hand.
    ended = score.finished and counted == len(score.hands)
    # counted is 0 only when no hand is in yet: the engine's starting scores.
    scores = score.hands[counted - 1].scores if counted else score.scores
    done = ended or (needed is not None and counted >= needed) or round_closed
    if ended:
        winner = score.winner
    elif done and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
    else:
        winner = None
    unconfirmed = sum(1 for h in hands[:counted] if h.confirmed_at is None) if need_confirm else 0
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    return TableResult(
        table=table,
        names=[s.name for s in seats],
        player_ids=[s.player_id for s in seats],
        score=score,
        counted=counted,
        needed=needed,
        scores=tuple(scores),
        done=done,
        unconfirmed=unconfirmed,
        winner=winner,
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
            Prefetch("tables__game__seats", queryset=Seat.objects.order_by("seat")),
            Prefetch("tables__game__hands", queryset=Hand.objects.order_by("number")),
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
class Standing:
    key: int  # entry id (rotating) or pair number (fixed pairs)
    name: str
    entry_ids: list[int]
    played: int = 0
    wins: Fraction = Fraction(0)  # a drawn table counts half
    points: int = 0  # engine totals of the games played, plus sit-out scores
    sitouts: int = 0
    sitout_points: int = 0
    head_to_head: Fraction = Fraction(0)  # wins against the others tied with it
    rank: int = 0
    withdrawn: bool = False
    beat: dict[int, Fraction] = field(default_factory=dict)

    @property
    def wins_text(self) -> str:
        whole, half = divmod(self.wins * 2, 2)
        return f"{int(whole)}½" if half else str(int(whole))


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


def _round_half_up(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


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
        side_totals = []
        for result in round_results_:
            if not result.counted and not result.done:
                continue
            for side, seats in enumerate(result.score.rules.sides):
                units = _units(player_unit, result.player_ids, seats)
                side_totals.append(result.scores[side])
                for unit in units:
                    row = rows[unit]
                    row.points += result.scores[side]
                    row.played += 1
                    if result.winner == side:
                        row.wins += 1
                    elif result.winner is None and result.done:
                        row.wins += Fraction(1, 2)
                    other = result.score.rules.sides[1 - side]
                    for opponent in _units(player_unit, result.player_ids, other):
                        won = (
                            Fraction(1)
                            if result.winner == side
                            else Fraction(1, 2)
                            if result.winner is None and result.done
                            else Fraction(0)
                        )
                        row.beat[opponent] = row.beat.get(opponent, Fraction(0)) + won
        if tournament.sitout_score == SitOutScore.FIXED:
            sitout = tournament.sitout_points
        else:
            sitout = (
                _round_half_up(Fraction(sum(side_totals), len(side_totals))) if side_totals else 0
            )
        sitout_scores[round_.number] = sitout
        for unit in {unit_of[s.entry_id] for s in round_.sitouts.all() if s.entry_id in unit_of}:
            rows[unit].sitouts += 1
            rows[unit].sitout_points += sitout
            rows[unit].points += sitout
    ordered = _rank(list(rows.values()), pairs)
    return Standings(ordered, rounds, results, sitout_scores, tiebreak_text(tournament))


def _rank(rows: list[Standing], pairs: bool) -> list[Standing]:
    def primary(row: Standing) -> tuple:
        return (row.wins, row.points) if pairs else (row.points, row.wins)

    groups: dict[tuple, list[Standing]] = defaultdict(list)
    for row in rows:
        groups[primary(row)].append(row)
    ordered: list[Standing] = []
    for key in sorted(groups, reverse=True):
        group = groups[key]
        members = {row.key for row in group}
        for row in group:
            row.head_to_head = sum(
                (won for other, won in row.beat.items() if other in members and other != row.key),
                Fraction(0),
            )
        group.sort(key=lambda r: (-r.head_to_head, name_key(r.name)))
        ordered.extend(group)
    previous = None
    for position, row in enumerate(ordered, start=1):
        full = (*primary(row), row.head_to_head)
        row.rank = previous[1] if previous and previous[0] == full else position
        previous = (full, row.rank)
    return ordered
