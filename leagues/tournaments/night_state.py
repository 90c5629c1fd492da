"""Where a night stands, written once: is it over, is it running, is its round open, and so what
it accepts now (through `leagues.clubs.policy.nights`). Pure: it reads the rows it is given and
asks the database nothing, so a service decides on its locked rows and a page on the ones it
shows, with the same answer."""

from __future__ import annotations

from collections.abc import Sequence

from leagues.clubs.policy import Actor, Decision, may
from leagues.clubs.policy.nights import NIGHT_ACTIONS, EntryFacts, NightFacts, RoundFacts
from leagues.clubs.roles import NIGHT_CHECK_IN, NIGHT_WITHDRAW, ROUND_CLOSE
from leagues.tournaments.models import (
    RoundStatus,
    Tournament,
    TournamentEntry,
    TournamentFormat,
    TournamentRound,
    TournamentStatus,
)


def round_is_open(round_: TournamentRound | None) -> bool:
    """Whether the round still plays (drawn and not closed)."""
    return round_ is not None and round_.status == RoundStatus.PLAYING


def night_is_over(tournament: Tournament) -> bool:
    """Whether the night takes nothing more: ended or cancelled."""
    return tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def night_facts(
    tournament: Tournament,
    rounds: Sequence[TournamentRound],
    *,
    cancel_refusal: str = "",
    delete_refusal: str = "",
) -> NightFacts:
    """The night as the policy reads it, from the night and its drawn rounds (in order); the
    refusals of cancelling or deleting it come from its tables (`lifecycle.night_fate`)."""
    current = rounds[-1] if rounds else None
    return NightFacts(
        club_id=tournament.club_id,
        over=tournament.over_message,
        running=tournament.status == TournamentStatus.RUNNING,
        rounds_planned=tournament.rounds,
        rounds_drawn=len(rounds),
        round_open=round_is_open(current),
        late_arrivals=tournament.format != TournamentFormat.ROUND_ROBIN,
        cancel_refusal=cancel_refusal,
        delete_refusal=delete_refusal,
    )


def entry_facts(night: NightFacts, entry: TournamentEntry) -> EntryFacts:
    return EntryFacts(night=night, withdrawn=entry.last_round is not None)


def round_facts(night: NightFacts, round_: TournamentRound) -> RoundFacts:
    return RoundFacts(night=night, open=round_is_open(round_))


def night_offers(actor: Actor, night: NightFacts) -> dict[str, bool]:
    """What the night's pages offer `actor`, by action name (for the templates)."""
    return {action: bool(may(actor, action, night)) for action in NIGHT_ACTIONS}


def entry_offers(actor: Actor, night: NightFacts, entry: TournamentEntry) -> dict[str, bool]:
    facts = entry_facts(night, entry)
    return {action: bool(may(actor, action, facts)) for action in (NIGHT_CHECK_IN, NIGHT_WITHDRAW)}


def round_offer(actor: Actor, night: NightFacts, round_: TournamentRound | None) -> Decision:
    """Whether `actor` may close `round_` now (refused when there is no round)."""
    if round_ is None:
        return may(actor, ROUND_CLOSE, RoundFacts(night=night, open=False))
    return may(actor, ROUND_CLOSE, round_facts(night, round_))
