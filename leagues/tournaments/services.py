"""Writes of tournament nights (set-up, registration, draws, rounds): one transaction each. The
seating is `seating`; the tables are `scorecards` games; cancel or delete a night: `lifecycle`."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.access import club_actor
from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.policy import Decision, may, refused
from leagues.clubs.policy.clubs import UNCHANGED, ClubFacts
from leagues.clubs.roles import (
    NIGHT_CHECK_IN,
    NIGHT_CREATE,
    NIGHT_DRAW,
    NIGHT_FINISH,
    NIGHT_REGISTER,
    NIGHT_WITHDRAW,
    ROUND_CLOSE,
)
from leagues.clubs.selectors import club_current_season, players_by_name
from leagues.tournaments.access import night_decide
from leagues.tournaments.draws import pairs_draw, rotating
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
from leagues.tournaments.night_state import entry_facts, night_facts, round_facts
from leagues.tournaments.season_nights import night_changed_announce
from leagues.tournaments.seating import SeatingError
from leagues.tournaments.selectors import (
    TableResult,
    round_results,
    tournament_entries,
    tournament_rounds,
    tournament_standings,
)
from scorecards.rules import KaiserError, Rules, rules_build
from scorecards.services import game_close_by_round, game_start, game_token_issue
from scorecards.table_label import table_label_stored


class TournamentError(ValueError):
    """A refused tournament action; the message is for the director."""


def _rounds(tournament: Tournament) -> list[TournamentRound]:
    return list(tournament.round_set.order_by("number"))


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
    alone) must be a game of four in two pairs. `created_by`, when given, must be allowed
    to run the club's nights."""
    if created_by is not None and not may(
        club_actor(club.pk, created_by), NIGHT_CREATE, ClubFacts(club_id=club.pk)
    ):
        raise TournamentError(_("Only an owner or a director of the club does this."))
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
    by: User | None = None,
) -> list[TournamentEntry]:
    """Register a member (a Player) or a walk-in (a name: found or created among the club's
    players), if the policy lets `by` do it now (never once the night is over). Fixed pairs
    register two partners together. Registering after the first draw is a late arrival: the
    entry plays from the next round and is checked in."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    facts = night_facts(tournament, _rounds(tournament))
    decision = night_decide(by, tournament.club_id, NIGHT_REGISTER, facts)
    if not decision:
        raise TournamentError(decision.reason)
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
    current = facts.rounds_drawn
    late = current > 0
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


def _entry_decide(entry: TournamentEntry, by: User | None, action: str) -> Decision:
    """Lock the entry's night and ask the policy about `action` on the entry as it is now."""
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    locked = TournamentEntry.objects.filter(pk=entry.pk).first()
    if locked is None:
        return refused(_("This player is no longer registered."), UNCHANGED)
    facts = entry_facts(night_facts(tournament, _rounds(tournament)), locked)
    return night_decide(by, tournament.club_id, action, facts)


@transaction.atomic
def entry_check_in(
    *, entry: TournamentEntry, checked_in: bool = True, by: User | None = None
) -> TournamentEntry:
    """Mark a registered player present (or not), if the policy lets `by` do it now: never on
    a night that is over, nor for a player who withdrew. In fixed pairs both partners."""
    decision = _entry_decide(entry, by, NIGHT_CHECK_IN)
    if not decision:
        raise TournamentError(decision.reason)
    entries = TournamentEntry.objects.filter(pk=entry.pk)
    if entry.pair_number is not None:
        entries = TournamentEntry.objects.filter(
            tournament_id=entry.tournament_id, pair_number=entry.pair_number
        )
    entries.update(checked_in=checked_in)
    entry.checked_in = checked_in
    return entry


@transaction.atomic
def entry_withdraw(*, entry: TournamentEntry, by: User | None = None) -> TournamentEntry:
    """Withdraw between rounds, if the policy lets `by` do it now (never once the night is
    over): the player (the pair, in fixed pairs) keeps the rounds played and is not seated
    again. Their standing stays, marked withdrawn. Withdrawing twice changes nothing."""
    decision = _entry_decide(entry, by, NIGHT_WITHDRAW)
    if decision.status == UNCHANGED:
        return entry
    if not decision:
        raise TournamentError(decision.reason)
    tournament = Tournament.objects.get(pk=entry.tournament_id)
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
    rounds = tournament_rounds(tournament)
    facts = night_facts(tournament, rounds)
    decision = night_decide(by, tournament.club_id, NIGHT_DRAW, facts)
    stale = number is not None and number != len(rounds) + 1
    # A resent form of a round drawn meanwhile says so rather than "every round is drawn".
    if not decision and (decision.status != "closed" or facts.over or not stale):
        raise TournamentError(decision.reason)
    if stale:
        raise TournamentError(
            _("Round %(number)s has already been drawn.")
            % {"number": min(number or 0, len(rounds))}
        )
    current = rounds[-1] if rounds else None
    if facts.round_open and current is not None:
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
            draw = pairs_draw(tournament, present, rounds, order, entries)
        else:
            draw = rotating(tournament, present, rounds, order)
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
                # Canonical words, shown in each viewer's language (`table_words`).
                table_label=table_label_stored(number, table_number),
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
def round_close(*, round: TournamentRound, by: User | None = None) -> TournamentRound:
    """Close a round (the time limit is up, or every table is done), if the policy lets `by`
    do it now: unfinished tables count as they stand. Closing a closed round changes nothing;
    a night that is over is refused (TournamentError)."""
    tournament = Tournament.objects.select_for_update().get(pk=round.tournament_id)
    locked = TournamentRound.objects.select_for_update().get(pk=round.pk)
    facts = round_facts(night_facts(tournament, _rounds(tournament)), locked)
    decision = night_decide(by, tournament.club_id, ROUND_CLOSE, facts)
    if decision.status == UNCHANGED:
        return locked
    if not decision:
        raise TournamentError(decision.reason)
    _close(locked)
    return locked


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: User | None = None) -> Tournament:
    """Close the last round and end the night, if the policy lets `by` do it now (a night
    that runs): the standings are final. Ending an ended night changes nothing."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == TournamentStatus.FINISHED:
        return tournament
    facts = night_facts(tournament, _rounds(tournament))
    decision = night_decide(by, tournament.club_id, NIGHT_FINISH, facts)
    if not decision:
        raise TournamentError(decision.reason)
    for round_ in tournament.round_set.filter(status=RoundStatus.PLAYING):
        _close(round_)
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    night_changed_announce(tournament=tournament, games_count_changed=False)
    return tournament
