"""What a write of a game answers: the refusals a service raises (each with its machine word
and HTTP status for the outbox) and the hand it recorded."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scorecards.models import Hand
from scorecards.rules import GameScore


class HandConflict(Exception):
    """Another phone entered this hand number first. Carries the hand that is already there."""

    def __init__(self, existing: Hand) -> None:
        self.existing = existing
        who = existing.entered_by_name or _("another phone")
        super().__init__(
            _("hand %(number)s was already entered by %(who)s")
            % {"number": existing.number, "who": who}
        )


class HandRefused(Exception):
    """A write the record refuses in its present state, or to this person. `status` is the
    machine word of the JSON answer, `http_status` its status code, `str()` the sentence shown
    to the player (what happened and what to do next)."""

    status = "refused"
    http_status = 409

    def __init__(self, message: str, **details: object) -> None:
        self.message = message
        self.details = details
        super().__init__(message)


class GameClosed(HandRefused):
    """The game is over (finished or abandoned), its round closed or its night ended: only a
    correction changes its hands."""

    status = "closed"


class SeasonClosed(GameClosed):
    """The game's season is closed: an archive whose games take no hand, undo, correction or
    confirmation until an owner reopens it."""


class RoundOver(GameClosed):
    """The table has played every hand of its tournament round: no more hands are entered."""

    status = "round_over"


class HandUndone(HandRefused):
    """The hand was taken back (its idempotency key stays spent)."""

    status = "undone"


class HandConfirmed(HandRefused):
    """The hand was confirmed by the other side: only a correction changes it now."""

    status = "confirmed"


class NotAllowed(HandRefused):
    """This person may not do this (no power, not seated on the right side)."""

    status = "forbidden"
    http_status = 403


class ReasonMissing(HandRefused):
    """A correction of a game that is over, or an abandon, needs a reason."""

    status = "invalid"
    http_status = 422


@dataclass(frozen=True)
class HandRecorded:
    hand: Hand
    created: bool  # False when the idempotency key had been seen: nothing was written
    score: GameScore
    # Every hand of the game after the call, in order: the sheet renders them, read once.
    hands: tuple[Hand, ...] = ()
