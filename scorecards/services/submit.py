"""A hand entered from the table's sheet: the phone's seat claim and the hand, together."""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from scorecards.models import Game
from scorecards.rules import HandInput
from scorecards.selectors import seat_names
from scorecards.services.hands import hand_record
from scorecards.services.refusals import HandRecorded, HandRefused
from scorecards.services.seats import seat_claim


@dataclass(frozen=True)
class HandEntered:
    recorded: HandRecorded
    # The seat this phone claimed with this hand (None: it held one already, or named none,
    # or the seat was another phone's): the caller remembers it in the phone's session.
    claimed: int | None


def hand_enter(
    *,
    game: Game,
    hand: HandInput,
    idempotency_key: uuid.UUID | None,
    number: int | None,
    by: AbstractBaseUser | None,
    by_name: str,
    phone: str | None,
    seat_held: int | None,
    seat_named: int | None,
    member_seat: int | None = None,
    table_link: bool = False,
    entered_phone: str = "",
    rows: bool = True,
    locked: bool = False,
) -> HandEntered:
    """Record `hand` as the sheet's phone enters it, in one transaction with the seat it names.

    The phone's seat is the one it holds (`seat_held`), else `seat_named` when that seat is
    free (claimed on the server for the whole game, `seat_claim`), else the signed-in member's
    own seat (`member_seat`). The hand is signed with that seat's name, else `by_name` (the
    account, or "a phone at the table"), and keeps the phone that entered it (`entered_phone`,
    this browser's phone id), which never confirms it. A refused hand (HandRefused,
    HandConflict, the engine's KaiserError) leaves no claim behind: nothing of this call is
    written. `rows=False`: the answer needs no Hand rows (`HandRecorded.hands` left empty).
    `locked=True`: `game` is read and locked in the caller's transaction (`hand_record`).
    """
    claiming = seat_held is None and seat_named is not None and bool(phone)
    # Only a seat claim needs a transaction around the hand's own (which is one already): a
    # plain hand spares the savepoint.
    with transaction.atomic() if claiming else nullcontext():
        seat, claimed = seat_held, None
        if claiming and seat_named is not None and phone:
            try:
                # The hand saves the game row: that changes the version.
                claim = seat_claim(game=game, seat=seat_named, phone=phone, user=by, touch=False)  # type: ignore[arg-type]
            except HandRefused:
                claim = None  # the game takes no hand either: hand_record says why
            if claim is not None:
                seat = claimed = claim.seat
        name = by_name
        if seat is not None:
            names = seat_names(game)
            if 0 <= seat < len(names):
                name = names[seat]
        if seat is None:
            seat = member_seat
        recorded = hand_record(
            game=game,
            hand=hand,
            idempotency_key=idempotency_key,
            number=number,
            entered_by=by,  # type: ignore[arg-type]
            entered_by_name=name,
            entered_seat=seat,
            table_link=table_link,
            entered_phone=entered_phone or phone or "",
            rows=rows,
            locked=locked,
        )
    return HandEntered(recorded=recorded, claimed=claimed)
