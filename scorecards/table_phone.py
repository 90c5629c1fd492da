"""The phone at the table as the server knows it: its id and seat claim (in the server-side
session), the name it signs with, and the JSON refusals the sheet's outbox reads."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from kaiser_league.inputs import number_or_none
from kaiser_league.query_memo import compiled_once
from scorecards.access import SESSION_TABLE_TOKENS
from scorecards.models import Game, Hand, Seat, SeatClaim
from scorecards.selectors import game_corrected_numbers, seat_names
from scorecards.services import (
    seat_claim,
)

# {str(game_id): seat}: a mirror of this phone's SeatClaim rows. A new key, so a seat that an
# older session merely named (before claims were kept on the server) counts for nothing.
SESSION_SEATS = "table_seat_claims"


SESSION_PHONE = "table_phone"  # a random id of this phone, the key of its seat claims


def json_refusal(status: str, message: str, code: int, **details: Any) -> JsonResponse:
    """Every non-success JSON answer of the hand endpoints has this shape: a machine word, a
    translated sentence saying what happened and what to do next, and details."""
    return JsonResponse({"status": status, "message": message, **details}, status=code)


def json_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the outbox (`Accept: application/json`): a refused access answers JSON too. A phone
    whose table link was revoked (or replaced) is told so (403 revoked); no power is 403
    forbidden; an unknown game 404 not_found."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, game_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
        except Http404:
            if not wants_json(request):
                raise
            if str(game_id) in request.session.get(SESSION_TABLE_TOKENS, {}):
                return json_refusal(
                    "revoked",
                    _("This table link no longer works: ask for the new one (scan its QR code)."),
                    403,
                )
            return json_refusal(
                "not_found", _("There is no such game for you: check the link."), 404
            )
        except PermissionDenied:
            if not wants_json(request):
                raise
            return json_refusal(
                "forbidden", _("You may not do this in this game: ask a scorer."), 403
            )

    return wrapped


def phone_id(session: SessionBase, *, create: bool = False) -> str | None:
    """This phone's random id, kept in its server-side session (made now when `create`)."""
    phone = session.get(SESSION_PHONE)
    if not isinstance(phone, str) and create:
        phone = secrets.token_urlsafe(16)
        session[SESSION_PHONE] = phone
    return phone if isinstance(phone, str) else None


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


# Where `game_names` keeps what it read on the game object (one request's copy of the game).
_NAMES_READ = "_kaiser_seat_names"


def game_names(game: Game) -> list[str]:
    """The seat names in seat order, as the database holds them now: from the prefetched seats,
    else read once for this game object (one query, then kept on the object for the rest of
    the request). Never from a per-process cache: a seat renamed through one web process must
    show on the next page drawn by any other."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return seat_names(game)
    names: list[str] | None = game.__dict__.get(_NAMES_READ)
    if names is None:
        read = compiled_once("seat_names", _seat_names, game_id=(1, 2))
        names = game.__dict__[_NAMES_READ] = [name for (name,) in read.values(game_id=game.pk)]
    return list(names)


def _seat_names(game_id: int) -> QuerySet[Seat, tuple[str]]:
    # order_by(): a seat's default order joins its game, which one game's seats never need.
    return Seat.objects.filter(game_id=game_id).order_by("seat").values_list("name")


def corrected_numbers(game: Game, hands: list[Hand]) -> set[int]:
    """The numbers of the corrected hands, marked on the sheet: from the hands when they carry
    the mark (read by `game_hands`), else read from the database (hands handed back by a
    service after a new entry). Never from a per-process cache, which another web process's
    correction would leave stale."""
    if hands and hasattr(hands[0], "corrected"):
        return {hand.number for hand in hands if getattr(hand, "corrected", False)}
    return game_corrected_numbers(game) if hands else set()


# Where `game_claims` keeps what it read on the game object (one request's reading).
_CLAIMS_READ = "_kaiser_seat_claims"


def game_claims(game: Game) -> list[SeatClaim]:
    """The game's seat claims in seat order, read once per request and kept on the game object
    (the phone's own claim and the sheet's seat board share the one query); forgotten when this
    request changes a claim (`seat_keep`, `seat_forget`)."""
    claims: list[SeatClaim] | None = game.__dict__.get(_CLAIMS_READ)
    if claims is None:
        claims = game.__dict__[_CLAIMS_READ] = list(
            SeatClaim.objects.filter(game_id=game.pk).order_by("seat")
        )
    return claims


def held_seat(session: SessionBase, game: Game) -> int | None:
    """The seat this phone claimed in `game`: its server-side session's mirror, checked against
    the SeatClaim rows (`game_claims`, read only when the mirror names a seat). A claim given
    back or released by a scorer elsewhere is forgotten here, so a phone never signs or enters
    hands as a seat it no longer holds."""
    seat = session.get(SESSION_SEATS, {}).get(str(game.pk))
    if not isinstance(seat, int):
        return None
    phone = phone_id(session)
    held = next((claim.seat for claim in game_claims(game) if phone and claim.phone == phone), None)
    if held != seat:
        if held is None:
            seat_forget(session, game, seat)
        else:
            seat_keep(session, game, held)
    return held


def seat_forget(session: SessionBase, game: Game, seat: int) -> None:
    """Drop the session's mirror of this phone's claim of `seat` in `game` (given back or
    released); a mirror of another seat stays."""
    seats = dict(session.get(SESSION_SEATS, {}))
    if seats.get(str(game.pk)) == seat:
        del seats[str(game.pk)]
        session[SESSION_SEATS] = seats
    game.__dict__.pop(_CLAIMS_READ, None)


def phone_seat(game: Game, *, held: int | None, user: Any) -> int | None:
    """This phone's seat as the server knows it: its claim (`held`, see `held_seat`) or, on a
    page that read the seats, the seat of the signed-in member's player."""
    if held is not None:
        return held
    if user.is_authenticated and "seats" in getattr(game, "_prefetched_objects_cache", {}):
        for row in game.seats.all():
            if row.player is not None and row.player.user_id == user.pk:
                return row.seat
    return None


def account_name(user: Any) -> str:
    """How a hand entered by no known seat is signed: the account, else "a phone at the
    table"."""
    if user is not None and user.is_authenticated:
        return str(user.get_full_name() or user.get_username())
    return _("a phone at the table")


def seat_keep(session: SessionBase, game: Game, seat: int) -> None:
    """Mirror in the phone's server-side session a seat it claimed (a SeatClaim row)."""
    seats = dict(session.get(SESSION_SEATS, {}))
    seats[str(game.pk)] = seat
    session[SESSION_SEATS] = seats
    game.__dict__.pop(_CLAIMS_READ, None)


def signature(game: Game, *, seat: int | None, user: Any, names: list[str] | None = None) -> str:
    """Who entered a hand, as the sheet says it ("hand 5 was already entered by Ann"): the
    player holding this phone (`seat`, see `phone_seat`) if it said so, else the account."""
    if seat is not None:
        names = game_names(game) if names is None else names
        if 0 <= seat < len(names):
            return names[seat]
    return account_name(user)


def seat_remember(session: SessionBase, game: Game, raw: str, user: Any) -> int | None:
    """The seat holding this phone: its earlier claim, else the one it names now if that seat is
    free (claimed on the server, and mirrored in its `session`). A phone moves to another seat
    only after giving its seat back (`scorecards.services.seat_release`)."""
    held = held_seat(session, game)
    if held is not None:
        return held
    seat = number_or_none({"seat": raw}, "seat", minimum=0, maximum=game.rules_value.seats - 1)
    if seat is None:
        return None
    user = user if user is not None and user.is_authenticated else None
    claim = seat_claim(game=game, seat=seat, phone=phone_id(session, create=True) or "", user=user)
    if claim is None:
        return None
    seat_keep(session, game, claim.seat)
    return claim.seat


def redirect_303(name: str, **kwargs: Any) -> HttpResponse:
    response = redirect(reverse(name, kwargs=kwargs))
    response.status_code = 303
    return response
