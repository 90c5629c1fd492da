"""The hand submit's posted form read and entered (`scorecards.table_views.hand_submit`, whose
access check's read of the game serves as the write's locked read: one statement, not two)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.http import JsonResponse
from django.utils.translation import gettext as _

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from scorecards.access import GameAccess
from scorecards.handform import HandForm, hand_form_parse
from scorecards.services import HandConflict
from scorecards.services.submit import HandEntered, hand_enter
from scorecards.table_phone import (
    account_name,
    held_seat,
    json_refusal,
    phone_id,
    wants_json,
)


@dataclass
class HandAttempt:
    """One try at entering the posted hand: what was read, and what came of it."""

    access: GameAccess | None = None
    form: HandForm | None = None
    entered: HandEntered | None = None
    refused: Exception | None = None  # HandConflict, HandRefused or the engine's KaiserError


def posted_key(request: HtmxHttpRequest) -> uuid.UUID | None:
    """The posted idempotency key, read ahead of the form so the game's locked read asks
    whether it is spent (None when it is no key: the form refuses it, or the service asks)."""
    raw = request.POST.get("idempotency_key", "").strip()
    if not raw.isascii() or len(raw) > 45:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


def hand_posted(request: HtmxHttpRequest, attempt: HandAttempt, *, locked: bool) -> None:
    """Read the posted form against the game `attempt.access` holds and enter its hand
    (`locked`: that game is the write's locked read, in the caller's transaction). Leaves the
    form, and the entered hand when the form reads; raises what the service refuses."""
    access = attempt.access
    assert access is not None
    game = access.game
    rules = game.rules_value
    form = attempt.form = hand_form_parse(request.POST, rules, dealer=game.next_dealer)
    if form.hand is None:
        return
    user = request.user if request.user.is_authenticated else None
    held = held_seat(request.session, game)
    data = request.POST
    named = number_or_none(data, "entered_as", minimum=0, maximum=rules.seats - 1)
    # The phone that enters a hand is kept with it: it never confirms that hand. (An account is
    # one person already: its hands are never its own to confirm, from any browser.) A seat
    # named for the first time is claimed for this phone, which needs an id too.
    phone = phone_id(request.session, create=user is None or (held is None and named is not None))
    attempt.entered = hand_enter(
        game=game,
        hand=form.hand,
        idempotency_key=form.idempotency_key,
        number=form.number,
        by=user,
        by_name=account_name(user),
        phone=phone if held is None and named is not None else None,
        seat_held=held,
        seat_named=named,
        member_seat=access.user_seat if access.membership is not None else None,
        table_link=access.via_table_token,
        entered_phone=phone or "",
        rows=bool(request.htmx) and not wants_json(request),
        locked=locked,
    )


def conflict_json(conflict: HandConflict) -> JsonResponse:
    """The outbox's answer when another phone entered this hand number first: 409 conflict,
    with the hand that is there."""
    existing = conflict.existing
    return json_refusal(
        "conflict",
        _("%(error)s: check the sheet before entering the next hand.") % {"error": conflict},
        409,
        error=str(conflict),
        hand={
            "number": existing.number,
            "record": existing.record,
            "entered_by": existing.entered_by_name,
        },
    )
