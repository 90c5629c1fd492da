"""Writes of tournament nights (set-up, registration, draws, rounds): one transaction each. The
seating is `seating`; the tables are `scorecards` games; cancel or delete a night: `lifecycle`."""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.selectors import club_current_season, players_by_name
from leagues.tournaments.models import (
    RoundEnd,
    RoundStatus,
    SitOutScore,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentRound,
    TournamentSitOut,
    TournamentStatus,
    TournamentTable,
)
from leagues.tournaments.season_nights import night_changed_announce
from leagues.tournaments.seating import (
    Draw,
    History,
    SeatingError,
    rotating_draw,
    round_robin_draw,
    swiss_draw,
)
from leagues.tournaments.selectors import (
    TableResult,
    round_results,
    tournament_entries,
    tournament_rounds,
    tournament_standings,
)
from scorecards.rules import KaiserError, Rules, rules_build
from scorecards.services import game_close_by_round, game_start, game_token_issue


class TournamentError(ValueError):
    """A refused tournament action; the message is for the director."""


class RoundUnfinished(TournamentError):
    """Drawing the next round while tables of the current one are still playing or waiting for
    confirmation: the director must confirm. Carries those tables."""

    def __init__(self, tables: list[TableResult]) -> None:
        self.tables = tables
        super().__init__(_("Some tables have not finished the round."))


def tournament_rules(tournament: Tournament) -> Rules:
    return rules_build(tournament.rules or {"preset": "standard"})


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    format: str = TournamentFormat.ROTATING,
    rounds: int = 4,
    round_end: str = RoundEnd.HANDS,
    hands_per_round: int = 10,
    extra_hand_on_tie: bool = True,
    minutes_per_round: int | None = None,
    preset: str = "standard",
    rules: dict | None = None,
    hands_need_confirmation: bool = False,
    movement: bool = False,
    sitout_score: str = SitOutScore.AVERAGE,
    sitout_points: int = 0,
    season: Season | None = None,
    created_by: User | None = None,
) -> Tournament:
    """Create a tournament night. The rules (`rules`, a preset and its changes, else `preset`
    alone) must be a game of four in two pairs."""
    rules_data = dict(rules) if rules is not None else {"preset": preset}
    try:
        built = rules_build(rules_data)
    except KaiserError as exc:
        raise TournamentError(str(exc)) from exc
    if built.seats != 4 or built.side_count != 2:
        raise TournamentError(_("Tournaments are played by four players in two pairs."))
    if season is not None and season.club_id != club.pk:
        raise TournamentError(_("The season belongs to another club."))
    if season is None:
        # The night's games feed the standings of the season it falls in.
        season = club_current_season(club, on=date)
    if format not in TournamentFormat.values or round_end not in RoundEnd.values:
        raise TournamentError(_("Unknown format."))
    if not 1 <= rounds <= 30 or hands_per_round < 1:
        raise TournamentError(_("Between 1 and 30 rounds, and at least one hand a round."))
    return Tournament.objects.create(
        club=club,
        season=season,
        name=name.strip()[:100] or _("Tournament night"),
        date=date,
        format=format,
        rounds=rounds,
        round_end=round_end,
        hands_per_round=hands_per_round,
        extra_hand_on_tie=extra_hand_on_tie,
        minutes_per_round=minutes_per_round,
        rules=rules_data,
        hands_need_confirmation=hands_need_confirmation,
        movement=movement and format == TournamentFormat.ROTATING,
        sitout_score=sitout_score,
        sitout_points=sitout_points,
        created_by=created_by,
    )


def _current_number(tournament: Tournament) -> int:
    return tournament.round_set.aggregate(n=Max("number"))["n"] or 0


def _player(club: Club, player: Player | str) -> Player:
    if isinstance(player, Player):
        if player.club_id != club.pk:
            raise TournamentError(_("The player belongs to another club."))
        return player
    name = player.strip()[:80]
    if not name:
        raise TournamentError(_("A walk-in needs a name."))
    found = players_by_name(club, [name]).get(name_key(name))
    return found or Player.objects.create(club=club, name=name)


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player | str,
    partner: Player | str | None = None,
    checked_in: bool = False,
) -> list[TournamentEntry]:
    """Register a member (a Player) or a walk-in (a name: found or created among the club's
    players). Fixed pairs register two partners together. Registering after the first draw is a
    late arrival: the entry plays from the next round and is checked in."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.over_message:
        raise TournamentError(tournament.over_message)
    people = [_player(tournament.club, player)]
    if tournament.fixed_pairs:
        if partner is None:
            raise TournamentError(_("Fixed pairs register two partners together."))
        people.append(_player(tournament.club, partner))
        if people[0].pk == people[1].pk:
            raise TournamentError(_("A player cannot partner themselves."))
    taken = set(tournament.entries.filter(player__in=people).values_list("player__name", flat=True))
    if taken:
        raise TournamentError(
            _("Already registered: %(names)s.") % {"names": ", ".join(sorted(taken))}
        )
    current = _current_number(tournament)
    late = current > 0
    if late and tournament.format == TournamentFormat.ROUND_ROBIN:
        raise TournamentError(_("A round robin's pairs are fixed once the first round is drawn."))
    pair_number = None
    if tournament.fixed_pairs:
        pair_number = (tournament.entries.aggregate(n=Max("pair_number"))["n"] or 0) + 1
    return [
        TournamentEntry.objects.create(
            tournament=tournament,
            player=person,
            pair_number=pair_number,
            checked_in=checked_in or late,
            first_round=current + 1 if late else 1,
        )
        for person in people
    ]


@transaction.atomic
def entry_check_in(*, entry: TournamentEntry, checked_in: bool = True) -> TournamentEntry:
    """Mark a registered player present (or not). In fixed pairs both partners together."""
    entries = TournamentEntry.objects.filter(pk=entry.pk)
    if entry.pair_number is not None:
        entries = TournamentEntry.objects.filter(
            tournament_id=entry.tournament_id, pair_number=entry.pair_number
        )
    entries.update(checked_in=checked_in)
    entry.checked_in = checked_in
    return entry


@transaction.atomic
def entry_withdraw(*, entry: TournamentEntry) -> TournamentEntry:
    """Withdraw between rounds: the player (the pair, in fixed pairs) keeps the rounds played and
    is not seated again. Their standing stays, marked withdrawn."""
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    last = _current_number(tournament)
    entries = TournamentEntry.objects.filter(pk=entry.pk)
    if entry.pair_number is not None:
        entries = TournamentEntry.objects.filter(
            tournament=tournament, pair_number=entry.pair_number
        )
    entries.update(last_round=last)
    entry.last_round = last
    return entry


@dataclass(frozen=True)
class DrawMade:
    round: TournamentRound
    tables: list[TournamentTable]
    sitouts: list[TournamentEntry]


def _rotating(
    tournament: Tournament,
    present: list[TournamentEntry],
    rounds: list[TournamentRound],
    standings_order: list[int],
) -> Draw:
    by_player = {e.player_id: e.pk for e in tournament_entries(tournament)}
    history = History()
    for round_ in rounds:
        tables = []
        for table in round_.tables.all():
            seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
            tables.append(tuple(by_player[_seated(s.player_id)] for s in seats))
        history.add(Draw(tuple(tables), tuple(s.entry_id for s in round_.sitouts.all())))
    ids = [e.pk for e in present]
    ranking = standings_order if tournament.movement and rounds else None
    return rotating_draw(ids, history, seed=tournament.pk, ranking=ranking)


def _seated(value: int | None) -> int:
    """A seat's player (or an entry's pair) at a tournament table, which always has one."""
    assert value is not None, "a tournament table seats club players in pairs"
    return value


def _pairs_draw(
    tournament: Tournament,
    present: list[TournamentEntry],
    rounds: list[TournamentRound],
    standings_order: list[int],
    entries: list[TournamentEntry],
) -> Draw:
    pair_of_player = {e.player_id: _seated(e.pair_number) for e in entries}
    pair_of_entry = {e.pk: _seated(e.pair_number) for e in entries}
    here = sorted({_seated(e.pair_number) for e in present})
    # A pair plays only with both partners present.
    counts = Counter(e.pair_number for e in present)
    here = [p for p in here if counts[p] == 2]
    number = len(rounds) + 1
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        if rounds:
            field_: set[int] = set()
            for table in rounds[0].tables.all():
                field_.update(pair_of_player[_seated(s.player_id)] for s in table.game.seats.all())
            field_.update(pair_of_entry[s.entry_id] for s in rounds[0].sitouts.all())
            field_list = sorted(field_)
        else:
            field_list = here
        absent = [p for p in field_list if p not in here]
        return round_robin_draw(field_list, number, absent=absent)
    played: list[tuple[int, int]] = []
    byes: Counter = Counter()
    for round_ in rounds:
        for table in round_.tables.all():
            seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
            first, second = (pair_of_player[_seated(seat.player_id)] for seat in seats[:2])
            played.append((first, second))
        byes.update({pair_of_entry[s.entry_id] for s in round_.sitouts.all()})
    position = {key: i for i, key in enumerate(standings_order)}
    ranked = sorted(here, key=lambda p: position.get(p, len(position)))
    return swiss_draw(ranked, played, byes)


@transaction.atomic
def round_draw(
    *,
    tournament: Tournament,
    by: User | None = None,
    confirm: bool = False,
    number: int | None = None,
) -> DrawMade:
    """Close the current round and draw the next: seat the players present, start one game per
    table (a season game of the club, with a table link), record the sit-outs.

    While tables of the current round are still playing or wait for confirmation, raises
    RoundUnfinished unless `confirm`. `number`, when given, is the round the director means to
    draw: a second click (or a resent form) finds it drawn already and changes nothing. Raises
    TournamentError when the draw cannot be made."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.over_message:
        raise TournamentError(tournament.over_message)
    rounds = tournament_rounds(tournament)
    if number is not None and number != len(rounds) + 1:
        raise TournamentError(
            _("Round %(number)s has already been drawn.") % {"number": min(number, len(rounds))}
        )
    if len(rounds) >= tournament.rounds:
        raise TournamentError(_("Every round has been drawn."))
    current = rounds[-1] if rounds else None
    if current is not None and current.status == RoundStatus.PLAYING:
        waiting = [r for r in round_results(tournament, current) if r.state != "done"]
        if waiting and not confirm:
            raise RoundUnfinished(waiting)
        _close(current)
    number = len(rounds) + 1
    entries = tournament_entries(tournament)
    present = [e for e in entries if e.plays_in(number)]
    order = []
    if rounds:
        order = [row.key for row in tournament_standings(tournament, entries, rounds).rows]
    try:
        if tournament.fixed_pairs:
            draw = _pairs_draw(tournament, present, rounds, order, entries)
        else:
            draw = _rotating(tournament, present, rounds, order)
    except SeatingError as exc:
        raise TournamentError(_("The draw cannot be made: %(why)s.") % {"why": exc}) from exc
    round_ = TournamentRound.objects.create(tournament=tournament, number=number)
    by_id = {e.pk: e for e in entries}
    rules = tournament_rules(tournament)
    tables = []
    for table_number, table in enumerate(draw.tables, start=1):
        if tournament.fixed_pairs:
            first, second = ([e for e in present if e.pair_number == p] for p in table)
            seated = [first[0], second[0], first[1], second[1]]
        else:
            seated = [by_id[entry_id] for entry_id in table]
        try:
            game = game_start(
                seats=[e.player for e in seated],
                rules=rules,
                club=tournament.club,
                season=tournament.season,
                first_dealer=(number - 1) % rules.seats,
                table_label=_("Round %(round)s · Table %(table)s")
                % {"round": number, "table": table_number},
                created_by=by,
                played_on=tournament.date,  # the night's day, whenever its round is drawn
            )
        except KaiserError as exc:  # a night dated before 1900: no game can say that day
            raise TournamentError(str(exc)) from exc
        game_token_issue(game=game)
        tables.append(TournamentTable.objects.create(round=round_, number=table_number, game=game))
    if tournament.fixed_pairs:
        sitouts = [e for e in present if e.pair_number in set(draw.sitouts)]
    else:
        sitouts = [by_id[entry_id] for entry_id in draw.sitouts]
    TournamentSitOut.objects.bulk_create(
        TournamentSitOut(round=round_, entry=entry) for entry in sitouts
    )
    if tournament.status == TournamentStatus.REGISTRATION:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    return DrawMade(round_, tables, sitouts)


def _close(round_: TournamentRound) -> None:
    """Close the round and every table game still playing in it (finished as it stands, or
    abandoned when no hand was played): from now on only a correction changes them."""
    round_.status = RoundStatus.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    for table in TournamentTable.objects.filter(round=round_).select_related("game"):
        game_close_by_round(game=table.game)


@transaction.atomic
def round_close(*, round: TournamentRound) -> TournamentRound:
    """Close a round (the time limit is up, or every table is done): unfinished tables count as
    they stand. Idempotent."""
    locked = TournamentRound.objects.select_for_update().get(pk=round.pk)
    if locked.status != RoundStatus.CLOSED:
        _close(locked)
    return locked


@transaction.atomic
def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Close the last round and end the night: the standings are final."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == TournamentStatus.CANCELLED:
        raise TournamentError(tournament.over_message)
    for round_ in tournament.round_set.filter(status=RoundStatus.PLAYING):
        _close(round_)
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    night_changed_announce(tournament=tournament, games_count_changed=False)
    return tournament
