"""A night called off or removed: cancelling a night before any of its games finished (what is
still playing is abandoned, the night takes no more draws), and deleting a night none of whose
tables has a hand. Owners and directors only, checked here; each refusal says why."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs.access import club_actor
from leagues.clubs.policy import may
from leagues.clubs.policy.nights import NightFacts
from leagues.clubs.roles import NIGHT_CANCEL, NIGHT_DELETE
from leagues.tournaments.models import (
    RoundStatus,
    Tournament,
    TournamentStatus,
    TournamentTable,
)
from leagues.tournaments.night_state import night_facts
from leagues.tournaments.season_nights import night_changed_announce
from leagues.tournaments.services import TournamentError
from scorecards.models import GameStatus
from scorecards.services import game_abandon_by_night, games_delete


@dataclass(frozen=True)
class NightFate:
    """What may still happen to a night: each refusal is the sentence shown (empty: allowed)."""

    cancel_refusal: str
    delete_refusal: str
    in_progress: int  # tables still playing, abandoned by a cancel
    tables: int

    @property
    def can_cancel(self) -> bool:
        return not self.cancel_refusal

    @property
    def can_delete(self) -> bool:
        return not self.delete_refusal


def _tables(tournament: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("round", "game")
        .order_by("round__number", "number")
    )


def _label(table: TournamentTable) -> str:
    return _("round %(round)s, table %(table)s") % {
        "round": table.round.number,
        "table": table.number,
    }


def _fate(tournament: Tournament, tables: list[TournamentTable]) -> NightFate:
    finished = [t for t in tables if t.game.status == GameStatus.FINISHED]
    with_hands = [t for t in tables if t.game.hand_count > 0]
    if tournament.status == TournamentStatus.CANCELLED:
        cancel = _("This night is cancelled already.")
    elif tournament.status == TournamentStatus.FINISHED:
        cancel = _("This night is over and its games count: it can no longer be cancelled.")
    elif finished:
        cancel = _(
            "A game of this night has finished (%(table)s) and counts: the night can no longer "
            "be cancelled. End the night instead."
        ) % {"table": _label(finished[0])}
    else:
        cancel = ""
    delete = ""
    if with_hands:
        delete = _(
            "Hands were played at %(table)s: a night with a hand can no longer be deleted."
        ) % {"table": _label(with_hands[0])}
        if not cancel:
            delete += " " + _("Cancel it instead.")
    return NightFate(
        cancel_refusal=cancel,
        delete_refusal=delete,
        in_progress=sum(1 for t in tables if t.game.status == GameStatus.IN_PROGRESS),
        tables=len(tables),
    )


def night_fate(tournament: Tournament) -> NightFate:
    """Whether the night may be cancelled or deleted now, and why not (one query)."""
    return _fate(tournament, _tables(tournament))


def fate_facts(tournament: Tournament, fate: NightFate) -> NightFacts:
    """The night as the policy reads it, with what its tables say of cancelling or deleting."""
    rounds = list(tournament.round_set.order_by("number"))
    return night_facts(
        tournament,
        rounds,
        cancel_refusal=fate.cancel_refusal,
        delete_refusal=fate.delete_refusal,
    )


def _decide(tournament: Tournament, by: User | None, action: str, fate: NightFate) -> None:
    """Ask the policy about `action` (its refusal says why) on the locked night."""
    decision = may(club_actor(tournament.club_id, by), action, fate_facts(tournament, fate))
    if not decision:
        raise TournamentError(decision.reason)


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, by: User | None) -> Tournament:
    """Call the night off while none of its games has finished: every table still playing is
    abandoned with the reason "Night cancelled", the rounds are closed, and the night is
    cancelled: it takes no more registration, draw or hand, and none of its games counts.
    TournamentError (saying why) for a night that is over, cancelled already, has a finished
    game, or for someone who is not an owner or director of the club."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tables = _tables(locked)
    _decide(locked, by, NIGHT_CANCEL, _fate(locked, tables))
    reason = _("Night cancelled")
    for table in tables:
        if table.game.status == GameStatus.IN_PROGRESS:
            game_abandon_by_night(game=table.game, reason=reason)
    locked.round_set.filter(status=RoundStatus.PLAYING).update(
        status=RoundStatus.CLOSED, closed_at=timezone.now()
    )
    locked.status = TournamentStatus.CANCELLED
    locked.save(update_fields=["status"])
    night_changed_announce(tournament=locked, games_count_changed=True)
    return locked


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by: User | None) -> int:
    """Delete the night, its entries, rounds and tables, and the tables' games, while none of
    them has a hand (a night set up by mistake, or drawn and called off at once). The players
    it added to the club stay. Returns how many games went. TournamentError (saying why) for a
    night with a hand, or for someone who is not an owner or director of the club."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tables = _tables(locked)
    _decide(locked, by, NIGHT_DELETE, _fate(locked, tables))
    games = [table.game for table in tables]
    night_changed_announce(tournament=locked, games_count_changed=False)
    # The tables protect their games: the night (and its tables) goes first.
    locked.delete()
    return games_delete(games=games)
