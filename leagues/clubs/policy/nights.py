"""The policy for a tournament night, its entries and rounds: the director's power (the role
table of `leagues.clubs.roles`) and what the night accepts now (`night_accepts`, the one
reading of a night's state), from plain facts built by the tournaments room
(`leagues.tournaments.night_state`). This package imports nothing of that room."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from leagues.clubs.policy import decider_register
from leagues.clubs.policy.base import ALLOWED, Actor, Decision, refused
from leagues.clubs.policy.clubs import UNCHANGED
from leagues.clubs.roles import (
    NIGHT_CANCEL,
    NIGHT_CHECK_IN,
    NIGHT_DELETE,
    NIGHT_DRAW,
    NIGHT_FINISH,
    NIGHT_REGISTER,
    NIGHT_WITHDRAW,
    ROUND_CLOSE,
    role_can,
)

NIGHT_ACTIONS = (
    NIGHT_REGISTER,
    NIGHT_CHECK_IN,
    NIGHT_WITHDRAW,
    NIGHT_DRAW,
    NIGHT_FINISH,
    NIGHT_CANCEL,
    NIGHT_DELETE,
    ROUND_CLOSE,
)


@dataclass(frozen=True)
class NightFacts:
    """A night as it stands: `over` why it takes nothing more (ended or cancelled; empty
    while it goes on), `running` whether a round was drawn and it has not ended, the rounds
    planned and drawn, whether the last drawn round still plays, whether a player may join
    once a round is drawn (not in a round robin, whose pairs are fixed), and why it cannot be
    cancelled or deleted (empty: it can; read from its tables by the tournaments room)."""

    club_id: int
    over: str
    running: bool
    rounds_planned: int
    rounds_drawn: int
    round_open: bool
    late_arrivals: bool = True
    cancel_refusal: str = ""
    delete_refusal: str = ""


@dataclass(frozen=True)
class EntryFacts:
    """A registered player (or pair) of the night: whether they withdrew."""

    night: NightFacts
    withdrawn: bool


@dataclass(frozen=True)
class RoundFacts:
    """A drawn round of the night: whether it still plays."""

    night: NightFacts
    open: bool


def night_accepts(action: str, facts: NightFacts) -> Decision:
    """What the night accepts now, whoever asks: nothing once it is over but deleting a night
    without a hand; registration, check-in and withdrawal while it goes on (a late arrival
    only where pairs are not fixed by the first draw), a draw while rounds are left, ending
    the night once it runs, cancelling it while no game of it finished."""
    if action == NIGHT_DELETE:
        return refused(facts.delete_refusal, "busy") if facts.delete_refusal else ALLOWED
    if action == NIGHT_CANCEL:
        return refused(facts.cancel_refusal, "closed") if facts.cancel_refusal else ALLOWED
    if action not in NIGHT_ACTIONS:
        return refused(_("Unknown action."))
    if facts.over:
        return refused(facts.over, "closed")
    if action == NIGHT_REGISTER and facts.rounds_drawn and not facts.late_arrivals:
        return refused(
            _("A round robin's pairs are fixed once the first round is drawn."), "closed"
        )
    if action == NIGHT_DRAW and facts.rounds_drawn >= facts.rounds_planned:
        return refused(_("Every round has been drawn."), "closed")
    if action == NIGHT_FINISH and not facts.running:
        return refused(_("The night has not started: draw its first round."), "closed")
    return ALLOWED


def entry_accepts(action: str, facts: EntryFacts) -> Decision:
    """What an entry accepts now: the night's answer, and nothing more once withdrawn."""
    if action not in (NIGHT_CHECK_IN, NIGHT_WITHDRAW):
        return refused(_("Unknown action."))
    night = night_accepts(action, facts.night)
    if not night:
        return night
    if facts.withdrawn:
        return refused(_("This player has withdrawn."), UNCHANGED)
    return ALLOWED


def round_accepts(action: str, facts: RoundFacts) -> Decision:
    """What a round accepts now: closing while it plays and its night goes on."""
    if action != ROUND_CLOSE:
        return refused(_("Unknown action."))
    night = night_accepts(action, facts.night)
    if not night:
        return night
    if not facts.open:
        return refused(_("This round is closed already."), UNCHANGED)
    return ALLOWED


def facts_accept(action: str, facts: NightFacts | EntryFacts | RoundFacts) -> Decision:
    """What the night, entry or round accepts now, whoever asks."""
    if isinstance(facts, EntryFacts):
        return entry_accepts(action, facts)
    if isinstance(facts, RoundFacts):
        return round_accepts(action, facts)
    return night_accepts(action, facts)


def _power(actor: Actor, action: str) -> Decision:
    if not role_can(actor.role, action):
        return refused(_("Only an owner or a director of the club does this."))
    return ALLOWED


def night_decide(actor: Actor, action: str, facts: NightFacts) -> Decision:
    return _power(actor, action) and night_accepts(action, facts)


def entry_decide(actor: Actor, action: str, facts: EntryFacts) -> Decision:
    return _power(actor, action) and entry_accepts(action, facts)


def round_decide(actor: Actor, action: str, facts: RoundFacts) -> Decision:
    return _power(actor, action) and round_accepts(action, facts)


decider_register(NightFacts, night_decide)
decider_register(EntryFacts, entry_decide)
decider_register(RoundFacts, round_decide)
