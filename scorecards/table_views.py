"""The table score sheet: the sheet itself, entering a hand (with its live preview), undo,
correction, confirmation, polling for other phones, the print view and the table link.

Thin views: access through `game_for_member`, reads through selectors, writes through services,
scores only from the rules engine. Every form works without JavaScript; with htmx the views
answer with fragments of `scorecards/game_sheet.html`.
"""

from __future__ import annotations

import functools
import secrets
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kaiser_league.inputs import number_or_none
from leagues.clubs.roles import GAME_START
from scorecards.access import SESSION_TABLE_TOKENS, GameAccess, game_for_member
from scorecards.habits import entry_table_habits, habits_text
from scorecards.handform import (
    HandForm,
    engine_message,
    hand_form_initial,
    hand_form_parse,
    missing_label,
)
from scorecards.models import FinishReason, Game, Hand
from scorecards.pot import cents_text
from scorecards.qr import qr_svg, table_link
from scorecards.rules import GameScore, HandError, HandInput, KaiserError, Rules
from scorecards.rules.catalogue import rules_describe
from scorecards.selectors import (
    game_hands,
    game_needs_confirmation,
    game_pot_of,
    game_preview,
    game_scored,
    hand_versions,
    seat_names,
    table_place,
)
from scorecards.services import (
    HandConflict,
    HandRefused,
    _closed_message,
    game_abandon,
    game_delete,
    game_token_issue,
    game_token_revoke,
    hand_confirm,
    hand_correct,
    hand_record,
    hand_undo,
    seat_claim,
)
from scorecards.sheet import (
    bid_text,
    score_chart,
    sheet_notices,
    sheet_rows,
    sheet_version,
    side_names,
)

TEMPLATE = "scorecards/game_sheet.html"
SEAT_NAMES_SECONDS = 6 * 3600
# {str(game_id): seat}: a mirror of this phone's SeatClaim rows. A new key, so a seat that an
# older session merely named (before claims were kept on the server) counts for nothing.
SESSION_SEATS = "table_seat_claims"
SESSION_PHONE = "table_phone"  # a random id of this phone, the key of its seat claims


def _refusal(status: str, message: str, code: int, **details: Any) -> JsonResponse:
    """Every non-success JSON answer of the hand endpoints has this shape: a machine word, a
    translated sentence saying what happened and what to do next, and details."""
    return JsonResponse({"status": status, "message": message, **details}, status=code)


def _json_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the outbox (`Accept: application/json`): a refused access answers JSON too. A phone
    whose table link was revoked (or replaced) is told so (403 revoked); no power is 403
    forbidden; an unknown game 404 not_found."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, game_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
        except Http404:
            if not _wants_json(request):
                raise
            if str(game_id) in request.session.get(SESSION_TABLE_TOKENS, {}):
                return _refusal(
                    "revoked",
                    _("This table link no longer works: ask for the new one (scan its QR code)."),
                    403,
                )
            return _refusal("not_found", _("There is no such game for you: check the link."), 404)
        except PermissionDenied:
            if not _wants_json(request):
                raise
            return _refusal("forbidden", _("You may not do this in this game: ask a scorer."), 403)

    return wrapped


def _phone_id(request: HttpRequest, *, create: bool = False) -> str | None:
    phone = request.session.get(SESSION_PHONE)
    if not isinstance(phone, str) and create:
        phone = secrets.token_urlsafe(16)
        request.session[SESSION_PHONE] = phone
    return phone if isinstance(phone, str) else None


def _kind_label(kind: str) -> str:
    labels = {
        "trump": _("Trump"),
        "no": _("No trump"),
        "low": _("Low"),
        "kaiser": _("Kaiser"),
        "kaiser40": _("Kaiser 40"),
    }
    return labels[kind]


@functools.lru_cache(maxsize=256)
def _table_qr(link: str) -> str:
    return qr_svg(link)


def winner_text(score: GameScore, sides: list[str]) -> str:
    """The game-over banner in words that read right: who won, and why, naming the sides
    ("Ann & Cat win: Bob & Dan fell to -52")."""
    if score.winner is None:
        return ""
    winner = sides[score.winner]
    losers = [name for side, name in enumerate(sides) if side != score.winner]
    loser = " / ".join(losers)
    if score.reason == FinishReason.MINUS:
        fallen = [
            (name, total)
            for side, (name, total) in enumerate(zip(sides, score.scores, strict=True))
            if side != score.winner and total <= min(score.scores)
        ]
        name, total = fallen[0] if fallen else (loser, min(score.scores))
        return _("%(winner)s win: %(loser)s fell to %(score)s.") % {
            "winner": winner,
            "loser": name,
            "score": total,
        }
    if score.reason == FinishReason.TARGET:
        return _("%(winner)s win: they reached %(score)s.") % {
            "winner": winner,
            "score": score.scores[score.winner],
        }
    if score.reason == FinishReason.KAISER:
        return _("%(winner)s win with a kaiser bid.") % {"winner": winner}
    if score.reason == FinishReason.HEART:
        return _("%(winner)s win: %(loser)s, at the bid-out, took the five of hearts.") % {
            "winner": winner,
            "loser": loser,
        }
    return _("%(winner)s win.") % {"winner": winner}


def sheet_texts() -> dict[str, str]:
    """The phone's own messages (the outbox in sheet.js), translated here and handed to the page
    as JSON: a fallback for each kind of answer that carries no message of its own."""
    return {
        "waiting_one": _("1 hand waiting to send. It goes as soon as the signal returns."),
        "waiting_many": _("__N__ hands waiting to send. They go as soon as the signal returns."),
        "sent": _("Hand __N__ sent and saved."),
        "saved": _("Hand __N__ saved."),
        "conflict": _(
            "Your hand __N__ was not saved: __WHO__ entered hand __N__ first. "
            "Enter yours as a correction, or discard it."
        ),
        "correct": _("Enter yours as a correction"),
        "discard": _("Discard"),
        "retry": _("Try again"),
        "ok": _("OK"),
        "csrf": _(
            "Not sent: this page is too old to send hands. Reload the page; "
            "your hand is kept and sent after."
        ),
        "signed_out": _(
            "Not sent: this phone is signed out. Sign in again or open the table link; "
            "your hand is kept."
        ),
        "403": _(
            "Not saved: this phone may no longer enter hands in this game (the table link "
            "was changed or revoked). Ask the scorer for the new link."
        ),
        "404": _("Not saved: this game no longer exists. Discard the hand."),
        "409": _(
            "Not saved: the sheet changed on another phone. Check the sheet and enter "
            "the hand again if it is missing."
        ),
        "422": _("Not saved: the hand is not valid. Enter it again."),
        "429": _("Not sent yet: too many tries. It is tried again in a moment."),
        "4xx": _("Not saved: the server refused the hand (error __CODE__). Enter it again."),
        "5xx": _(
            "Not sent yet: the server had a problem (error __CODE__). Your hand is kept and "
            "tried again in a moment."
        ),
    }


def _named_error(game: Game, hand: HandInput, error: KaiserError) -> KaiserError:
    """The engine's refusal said again with the players' names instead of side numbers. The
    service scores without names (a submit stays at its few queries), so only a refused hand
    pays for this second look."""
    try:
        game_preview(game_scored(game), hand, seat_names=_names(game))
    except KaiserError as named:
        return named
    return error


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _names(game: Game) -> list[str]:
    """The seat names in seat order: from the prefetched seats, else from the cache (seats
    never change once a game has started, so this saves a read on every hand submit)."""
    key = f"kaiser:seat-names:{game.pk}:{game.created_at.timestamp()}"
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        names = seat_names(game)
        cache.set(key, names, SEAT_NAMES_SECONDS)  # the phone that shows the sheet warms it
        return names
    return cache.get_or_set(key, lambda: seat_names(game), SEAT_NAMES_SECONDS)


def _corrected_key(game: Game) -> str:
    return f"kaiser:corrected:{game.pk}:{game.created_at.timestamp()}"


def _corrected(game: Game, hands: list[Hand]) -> set[int]:
    """The numbers of the corrected hands, marked on the sheet. Hands read by `game_hands`
    carry the mark (and refresh the cached set); hands handed back by a service after a new
    entry do not, and a new entry corrects nothing: the cached set stands for them."""
    if hands and not hasattr(hands[0], "corrected"):
        return cache.get(_corrected_key(game)) or set()
    numbers = {hand.number for hand in hands if getattr(hand, "corrected", False)}
    cache.set(_corrected_key(game), numbers, SEAT_NAMES_SECONDS)
    return numbers


def _phone_seat(request: HttpRequest, game: Game) -> int | None:
    """This phone's seat as the server knows it: its claim (mirrored in the server-side session)
    or, on a page that read the seats, the seat of the signed-in member's player."""
    seat = request.session.get(SESSION_SEATS, {}).get(str(game.pk))
    if isinstance(seat, int):
        return seat
    user = request.user
    if user.is_authenticated and "seats" in getattr(game, "_prefetched_objects_cache", {}):
        for row in game.seats.all():
            if row.player is not None and row.player.user_id == user.pk:
                return row.seat
    return None


def _signature(request: HttpRequest, game: Game, names: list[str] | None = None) -> str:
    """Who entered a hand, as the sheet says it ("hand 5 was already entered by Ann"): the
    player holding this phone if it said so, else the account."""
    seat = _phone_seat(request, game)
    if seat is not None:
        names = _names(game) if names is None else names
        if 0 <= seat < len(names):
            return names[seat]
    user = request.user
    if user.is_authenticated:
        return user.get_full_name() or user.get_username()
    return _("a phone at the table")


def _remember_seat(request: HttpRequest, game: Game, raw: str) -> int | None:
    """The seat holding this phone: its earlier claim, else the one it names now if that seat is
    free (claimed on the server, once for the game). A phone never moves to another seat."""
    held = request.session.get(SESSION_SEATS, {}).get(str(game.pk))
    if isinstance(held, int):
        return held
    seat = number_or_none({"seat": raw}, "seat", minimum=0, maximum=game.rules_value.seats - 1)
    if seat is None:
        return None
    user = request.user if request.user.is_authenticated else None
    claim = seat_claim(game=game, seat=seat, phone=_phone_id(request, create=True) or "", user=user)
    if claim is None:
        return None
    seats = dict(request.session.get(SESSION_SEATS, {}))
    seats[str(game.pk)] = claim.seat
    request.session[SESSION_SEATS] = seats
    return claim.seat


def _entry(
    game: Game,
    rules: Rules,
    score: GameScore,
    names: list[str],
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, list[str]] | None = None,
    message: str = "",
    key: uuid.UUID | None = None,
    phone_seat: int | None = None,
    number: int | None = None,
) -> dict[str, Any]:
    """Everything the hand entry form needs (blank, or re-shown with the values and errors)."""
    dealer = score.next_dealer
    if number is not None and number <= len(score.hands):
        dealer = score.hands[number - 1].dealer
    sides = side_names(rules, names)
    kinds = rules.kinds_allowed()
    order = (
        [] if dealer is None else [(dealer + k) % rules.seats for k in range(1, rules.seats + 1)]
    )
    values = values or {}
    auction = list(values.get("auction") or [])
    tricks = list(values.get("tricks") or [None] * rules.side_count)
    seat_tricks = list(values.get("seat_tricks") or [None] * rules.seats)
    return {
        "number": number or len(score.hands) + 1,
        "key": key or uuid.uuid4(),
        "dealer": dealer,
        "dealer_name": "" if dealer is None else names[dealer],
        "seats": list(enumerate(names)),
        "sides": list(enumerate(sides)),
        "totals": [
            (side, name, total)
            for side, (name, total) in enumerate(zip(sides, score.scores, strict=True))
        ],
        "two_sides": rules.side_count == 2,
        "kinds": [(kind, _kind_label(kind)) for kind in kinds],
        "bids": range(rules.min_bid, rules.max_bid + 1),
        "tricks": range(rules.tricks_per_hand + 1),
        "seat_tricks": "kaiser40" in kinds or rules.kaiser_bid == "solo",
        "side_tricks": [(side, name, tricks[side]) for side, name in enumerate(sides)],
        "seat_rows": [(seat, name, seat_tricks[seat]) for seat, name in enumerate(names)],
        "joffre": rules.joffre_insult,
        **entry_table_habits(rules),
        "auction": [
            (seat, names[seat], auction[i] if i < len(auction) else "")
            for i, seat in enumerate(order)
        ],
        "values": values,
        "errors": errors or {},
        "message": message,
        "phone_seat": phone_seat,
    }


def _sheet_context(
    request: HttpRequest,
    access: GameAccess,
    *,
    hands: list[Hand] | None = None,
    score: GameScore | None = None,
    **entry: Any,
) -> dict[str, Any]:
    game = access.game
    hands = list(game_hands(game)) if hands is None else list(hands)
    score = game_scored(game, hands) if score is None else score
    rules = score.rules
    names = _names(game)
    sides = side_names(rules, names)
    needs_confirming = game_needs_confirmation(game)
    # Whoever may enter hands may show the table link to the others at the table; only those
    # who may correct hands make a new one or revoke it.
    link = table_link(request, game) if access.can_enter else None
    last = score.hands[-1] if score.hands else None
    place = table_place(game, score)
    return {
        "place": place,
        "can_stop": _may_stop(request, access),
        "entry_open": access.can_enter
        and game.status == "in_progress"
        and not score.finished
        and not (place and place.round_over),
        "access": access,
        "game": game,
        "score": score,
        "rules_words": rules_describe(rules),
        "names": names,
        "sides": sides,
        "rows": sheet_rows(score, hands, names),
        "notices": sheet_notices(score, sides, raised=bool(last and last.target_raised)),
        "chart": score_chart(score),
        "version": sheet_version(game),
        "winner_name": sides[score.winner] if score.winner is not None else "",
        "finish_reason": FinishReason(score.reason).label if score.reason else "",
        "game_over": winner_text(score, sides),
        "corrected": _corrected(game, hands),
        "sheet_texts": sheet_texts(),
        "needs_confirming": needs_confirming,
        "unconfirmed": needs_confirming and any(h.confirmed_at is None for h in hands),
        "table_link": link,
        # The QR code shows on the full page only (not in fragments), and costs ~10 ms to draw.
        "table_qr": _table_qr(link) if link and not request.htmx else "",
        "entry": _entry(game, rules, score, names, phone_seat=_phone_seat(request, game), **entry),
        "pot": _pot_context(game, score, names),
    }


def _pot_context(game: Game, score: GameScore, names: list[str]) -> dict[str, Any] | None:
    """The pot as the sheet shows it: its total, who fed it and who collected it."""
    pot = game_pot_of(game, score)
    if pot is None:
        return None
    fed: Counter[int] = Counter(seat for _number, seat in pot.fed)
    return {
        "per_set": cents_text(pot.per_set),
        "total": cents_text(pot.total),
        "fed": [(names[seat], cents_text(n * pot.per_set)) for seat, n in sorted(fed.items())],
        "collected": [
            (names[seat], cents_text(pot.balance[seat] + fed[seat] * pot.per_set))
            for seat in pot.winners or ()
        ],
    }


@require_GET
def game_sheet(request: HttpRequest, game_id: int) -> HttpResponse:
    access = game_for_member(request, game_id)
    context = _sheet_context(request, access)
    template = TEMPLATE + "#sheet" if request.htmx else TEMPLATE
    return render(request, template, context)


@require_GET
def game_poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """For the other phones at the table: 204 (nothing rendered) while the game is unchanged
    since version `v`; the sheet fragment (and a fresh entry form if hands were added or
    removed since `n`) once it changed."""
    access = game_for_member(request, game_id, seats=False)
    game = access.game
    if request.GET.get("v") == sheet_version(game):
        return HttpResponse(status=204)
    context = _sheet_context(request, access)
    context["entry_oob"] = request.GET.get("n") != str(game.hand_count)
    return render(request, TEMPLATE + "#polled", context)


def _invalid(
    request: HttpRequest,
    access: GameAccess,
    form: HandForm,
    *,
    status: int = 422,
    message: str = "",
) -> HttpResponse:
    if _wants_json(request):
        return _refusal(
            "invalid",
            message
            or _("This hand cannot be saved as it is: fix the fields marked and send again."),
            status,
            errors=form.errors,
        )
    context = _sheet_context(
        request,
        access,
        values=form.values,
        errors=form.errors,
        message=message,
        key=form.idempotency_key,
    )
    if request.htmx:
        # htmx swaps only 2xx answers: show the form and its errors in place.
        response = render(request, TEMPLATE + "#entry", context)
        response["HX-Retarget"] = "#entry"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, TEMPLATE, context, status=status)


def _refused(request: HttpRequest, access: GameAccess, refusal: HandRefused) -> HttpResponse:
    """A write refused by a service (game over, round over, undone, not allowed...): JSON for
    the outbox, else the sheet with the sentence in place of the entry form."""
    if _wants_json(request):
        return _refusal(refusal.status, str(refusal), refusal.http_status, **refusal.details)
    access.game.refresh_from_db()
    context = _sheet_context(request, access, message=str(refusal))
    context["refusal"] = str(refusal)
    if request.htmx:
        return render(request, TEMPLATE + "#submitted", context)
    return render(request, TEMPLATE, context, status=refusal.http_status)


@require_POST
@_json_refusals
def hand_submit(request: HttpRequest, game_id: int) -> HttpResponse:
    """Enter the next hand (the contract is in scorecards/handform.py and the README of the
    issue): 201/200/409/422 JSON for the outbox, fragments for htmx, 303 for a plain post."""
    access = game_for_member(request, game_id, GAME_START, seats=False)
    game = access.game
    rules = game.rules_value
    form = hand_form_parse(request.POST, rules, dealer=game.next_dealer)
    if form.hand is None:
        return _invalid(request, access, form)
    try:
        user = request.user if request.user.is_authenticated else None
        seats_before = request.session.get(SESSION_SEATS)
        try:
            # The seat this phone names is claimed together with its hand: a refused hand leaves
            # no claim behind, on the server or in the session.
            with transaction.atomic():
                try:
                    seat = _remember_seat(request, game, request.POST.get("entered_as", ""))
                except HandRefused:
                    seat = None  # the game takes no hand either: hand_record says why
                if seat is None and access.membership is not None:
                    seat = getattr(game, "_user_seat", None)  # the signed-in member's own seat
                recorded = hand_record(
                    game=game,
                    hand=form.hand,
                    idempotency_key=form.idempotency_key,
                    number=form.number,
                    entered_by=user,
                    entered_by_name=_signature(request, game),
                    entered_seat=seat,
                )
        except (HandConflict, HandRefused, KaiserError):
            if seats_before is None:
                request.session.pop(SESSION_SEATS, None)
            else:
                request.session[SESSION_SEATS] = seats_before
            raise
    except HandConflict as conflict:
        existing = conflict.existing
        if _wants_json(request):
            return _refusal(
                "conflict",
                _("%(error)s: check the sheet before entering the next hand.")
                % {"error": conflict},
                409,
                error=str(conflict),
                hand={
                    "number": existing.number,
                    "record": existing.record,
                    "entered_by": existing.entered_by_name,
                },
            )
        form.errors.clear()
        return _conflict(request, access, conflict)
    except HandRefused as refusal:
        return _refused(request, access, refusal)
    except KaiserError as error:
        form.add_engine_error(_named_error(game, form.hand, error))
        return _invalid(request, access, form)
    if _wants_json(request):
        body = {
            "status": "created" if recorded.created else "duplicate",
            "number": recorded.hand.number,
            "scores": list(recorded.score.scores),
            "finished": recorded.score.finished,
        }
        return JsonResponse(body, status=201 if recorded.created else 200)
    if request.htmx:
        if recorded.created:
            # The locked copy the service saved: the new version for polling, without a read.
            game.updated_at = recorded.hand.game.updated_at
            game.hand_count = recorded.hand.game.hand_count
            game.status = recorded.hand.game.status
        else:
            game.refresh_from_db(fields=["updated_at", "hand_count", "status"])
        context = _sheet_context(request, access, hands=list(recorded.hands), score=recorded.score)
        return render(request, TEMPLATE + "#submitted", context)
    return redirect_303("game_sheet", game_id=game.pk)


def _conflict(request: HttpRequest, access: GameAccess, conflict: HandConflict) -> HttpResponse:
    """Another phone entered this hand first: say who, and what they entered."""
    game = access.game
    existing = conflict.existing
    what = _record_text(existing.record, _names(game), game.rules_value)
    message = _(
        "Your hand %(number)s was not saved: %(who)s entered hand %(number)s first (%(hand)s)."
    ) % {
        "number": existing.number,
        "who": existing.entered_by_name or _("another phone"),
        "hand": what,
    }
    context = _sheet_context(request, access, message=message)
    context["entry"]["conflict_url"] = (
        reverse("hand_detail", kwargs={"game_id": game.pk, "number": existing.number})
        if access.can_correct
        else ""
    )
    if request.htmx:
        return render(request, TEMPLATE + "#submitted", context)
    return render(request, TEMPLATE, context, status=409)


def redirect_303(name: str, **kwargs: Any) -> HttpResponse:
    response = redirect(reverse(name, kwargs=kwargs))
    response.status_code = 303
    return response


@require_POST
@_json_refusals
def hand_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live preview while the hand is tapped in: what the engine makes of it so far (points,
    made or set, new totals, notices) or the field it refuses, shown beside that field. A game
    that takes no more hands answers 409 closed / round_over (JSON) or says so in the preview."""
    access = game_for_member(request, game_id, GAME_START)
    game = access.game
    rules = game.rules_value
    closed = _entry_closed(game)
    if closed is not None:
        if _wants_json(request):
            return _refusal(closed.status, str(closed), closed.http_status)
        return HttpResponse(
            format_html('<p class="refused" role="alert">{}</p>', str(closed)), status=409
        )
    form = hand_form_parse(request.POST, rules, key_required=False, dealer=game.next_dealer)
    names = _names(game)
    sides = side_names(rules, names)
    context: dict[str, Any] = {"game": game, "sides": sides, "errors": {}, "todo": ""}
    if form.hand is not None:
        score = game_scored(game)
        try:
            preview = game_preview(score, form.hand, seat_names=names)
        except HandError as error:
            field = error.field
            # A field the engine needs and the phone has not filled in yet: say what is left
            # to enter rather than show an error (the engine's message is translated, so the
            # hand itself, not the wording, tells a missing field).
            missing = getattr(form.hand, field, 0) is None
            if missing and (field not in form.filled or field in ("tricks", "seat_tricks")):
                context["todo"] = missing_label(field)
            else:
                form.add_engine_error(error)
        else:
            scored = preview.hands[-1]
            context.update(
                {
                    "scored": scored,
                    "preview": preview,
                    "cells": list(
                        zip(sides, scored.points or [], scored.delta, scored.scores, strict=False)
                    ),
                    "notices": sheet_notices(preview, sides, raised=scored.target_raised),
                    "winner_name": sides[preview.winner] if preview.winner is not None else "",
                    "ends_game": _("This hand ends the game: %(result)s")
                    % {"result": winner_text(preview, sides)},
                }
            )
    context["errors"] = form.errors
    shown = ["bidder", "bid", "kind", "tricks", "five_hearts", "three_spades", "auction"]
    if rules.dealer_sells:
        shown.append("sold")
    if "kaiser40" in rules.kinds_allowed() or rules.kaiser_bid == "solo":
        shown.append("seat_tricks")
    if rules.joffre_insult:
        shown.append("insult")
    context["field_errors"] = [(name, form.errors.get(name, [])) for name in shown]
    return render(request, "scorecards/hand_preview.html", context)


def _entry_closed(game: Game) -> HandRefused | None:
    """Why this game takes no more hands (None while it does): the services' own rule, read for
    the preview (which writes nothing)."""
    from scorecards.services import GameClosed, RoundOver, _closed_message

    place = table_place(game)
    closed = _closed_message(game, place)
    if closed:
        return GameClosed(closed)
    if place is not None and place.round_over:
        return RoundOver(place.over_message)
    return None


@require_POST
@_json_refusals
def hand_undo_last(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take back the last hand (kept in its history; its key stays spent). Refused once the game
    is over (409 closed), when the hand was confirmed (409 confirmed), or when there is none
    (409 nothing)."""
    access = game_for_member(request, game_id, GAME_START)
    game = access.game
    user = request.user if request.user.is_authenticated else None
    try:
        hand_undo(game=game, by=user, by_name=_signature(request, game))
    except HandRefused as refusal:
        return _refused(request, access, refusal)
    except HandError:
        if _wants_json(request):
            return _refusal("nothing", _("There is no hand to take back."), 409)
    if _wants_json(request):
        game.refresh_from_db(fields=["hand_count"])
        return JsonResponse({"status": "undone", "hand_count": game.hand_count})
    if request.htmx:
        game.refresh_from_db(fields=["updated_at", "hand_count"])
        return render(request, TEMPLATE + "#submitted", _sheet_context(request, access))
    return redirect_303("game_sheet", game_id=game.pk)


@require_POST
@_json_refusals
def hand_confirm_view(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """A player of the other side confirms hand `number`. Who confirms is what the server knows
    of this phone (its seat claim) or of the signed-in player, never a seat the form names."""
    access = game_for_member(request, game_id, GAME_START)
    game = access.game
    user = request.user if request.user.is_authenticated else None
    try:
        hand = hand_confirm(game=game, number=number, by=user, phone=_phone_id(request))
    except HandRefused as refusal:
        return _refused(request, access, refusal)
    except HandError:
        if _wants_json(request):
            return _refusal("not_found", _("There is no such hand in this game."), 404)
        raise Http404("No such hand") from None
    if _wants_json(request):
        return JsonResponse(
            {"status": "confirmed", "number": hand.number, "by": hand.confirmed_by_name}
        )
    if request.htmx:
        game.refresh_from_db(fields=["updated_at"])
        return render(request, TEMPLATE + "#sheet", _sheet_context(request, access))
    return redirect_303("game_sheet", game_id=game.pk)


@require_POST
@_json_refusals
def game_seat_claim(request: HttpRequest, game_id: int) -> HttpResponse:
    """This phone says which seat holds it (`seat`), once for the game: kept on the server, it is
    what lets the phone confirm the other side's hands later. 409 taken when another phone holds
    that seat, 409 claimed when this phone holds another one."""
    access = game_for_member(request, game_id, GAME_START, seats=False)
    game = access.game
    raw = request.POST.get("seat", "")
    held = _phone_seat(request, game)
    try:
        seat = _remember_seat(request, game, raw)
    except HandRefused as refusal:
        return _refused(request, access, refusal)
    if seat is None or (held is None and raw != str(seat)):
        message = _("Another phone holds that seat: choose your own seat.")
        if _wants_json(request):
            return _refusal("taken", message, 409)
        context = _sheet_context(request, access, message=message)
        context["refusal"] = message
        return render(request, TEMPLATE, context, status=409)
    if held is not None and raw != str(held) and _wants_json(request):
        return _refusal(
            "claimed", _("This phone already holds a seat in this game: it keeps it."), 409
        )
    if _wants_json(request):
        return JsonResponse({"status": "claimed", "seat": seat})
    return redirect_303("game_sheet", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def game_abandon_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """A scorer or director stops a game that will not be finished, with a reason (a page with
    the reason field, then 303 to the sheet)."""
    access = game_for_member(request, game_id)
    game = access.game
    error = ""
    if request.method == "POST":
        user = request.user if request.user.is_authenticated else None
        try:
            game_abandon(game=game, by=user, reason=request.POST.get("reason", ""))
        except HandRefused as refusal:
            if refusal.http_status == 403:
                raise PermissionDenied from None
            error = str(refusal)
        else:
            return redirect_303("game_sheet", game_id=game.pk)
    elif not _may_stop(request, access):
        raise PermissionDenied
    context = {"game": game, "error": error, "can_delete": game.hand_count == 0}
    return render(request, "scorecards/game_abandon.html", context, status=422 if error else 200)


@require_POST
def game_delete_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Delete a game that has no hand (started by mistake); 303 to the club's page."""
    access = game_for_member(request, game_id)
    game = access.game
    user = request.user if request.user.is_authenticated else None
    club = game.club
    try:
        game_delete(game=game, by=user)
    except HandRefused as refusal:
        if refusal.http_status == 403:
            raise PermissionDenied from None
        context = {"game": game, "error": str(refusal), "can_delete": False}
        return render(request, "scorecards/game_abandon.html", context, status=409)
    response = redirect(reverse("club_detail", args=[club.slug]) if club else reverse("home"))
    response.status_code = 303
    return response


def _may_stop(request: HttpRequest, access: GameAccess) -> bool:
    from leagues.clubs.roles import HAND_CORRECT_ANY

    if access.game.club_id is None:
        return access.is_starter
    return access.membership is not None and access.can(HAND_CORRECT_ANY)


@require_http_methods(["GET", "POST"])
def hand_detail(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """One hand: its history (every version: who, when, before and after) and, for those who
    may, the form to correct it. Later hands are re-checked by the engine."""
    access = game_for_member(request, game_id)
    game = access.game
    hands = list(game_hands(game))
    hand = next((h for h in hands if h.number == number), None)
    if hand is None:
        raise Http404("No such hand")
    rules = game.rules_value
    names = _names(game)
    score = game_scored(game, hands)
    values = hand_form_initial(
        {**hand.record, "bidder": hand.bidder, "bid": hand.bid, "tricks": hand.tricks}
        | ({"kind": hand.kind} if hand.kind else {}),
        rules,
        dealer=hand.dealer,
    )
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        if not access.can_correct:
            raise PermissionDenied
        form = hand_form_parse(request.POST, rules, key_required=False, dealer=hand.dealer)
        if form.hand is not None:
            user = request.user if request.user.is_authenticated else None
            try:
                hand_correct(
                    game=game,
                    number=number,
                    hand=form.hand,
                    by=user,
                    by_name=_signature(request, game, names),
                    reason=request.POST.get("reason", ""),
                )
            except HandRefused as refusal:
                if refusal.http_status == 403:
                    raise PermissionDenied from None
                form.add_error("reason", str(refusal))
            except HandError as error:
                if error.number != number:
                    form.add_error(
                        "hand",
                        _("This correction would make hand %(n)s impossible: %(why)s")
                        % {"n": error.number, "why": engine_message(error)},
                    )
                else:
                    form.add_engine_error(error)
            except KaiserError as error:
                form.add_engine_error(error)
            else:
                return redirect_303("game_sheet", game_id=game.pk)
        values = form.values | {"thrown_in": request.POST.get("thrown_in") == "1"}
        errors = form.errors
        status = 422
    versions = [
        (
            version,
            _record_text(version.before, names, rules),
            _record_text(version.after, names, rules),
        )
        for version in hand_versions(game, number)
    ]
    entry = _entry(game, rules, score, names, values=values, errors=errors, number=number)
    context = {
        "claims": [
            (claim, names[claim.seat] if claim.seat < len(names) else "?")
            for claim in game.seat_claims.order_by("at", "pk")
        ],
        # Exactly when the service asks for one (a game over, a closed round or night).
        "needs_reason": bool(_closed_message(game, table_place(game))),
        "access": access,
        "game": game,
        "hand": hand,
        "scored": score.hands[number - 1],
        "versions": versions,
        "entry": entry,
        "names": names,
        "habits": habits_text(hand.record),
    }
    return render(request, "scorecards/hand_detail.html", context, status=status)


def _record_text(record: dict[str, Any] | None, names: list[str], rules: Rules) -> str:
    """A stored hand record in words, for its history and conflicts ("Ann 8 no, tricks 6-2,
    5♥ Ann & Bob, 3♠ Cat & Dan")."""
    if not record:
        return ""
    if record.get("thrown_in"):
        return _("thrown in")
    sides = side_names(rules, names)

    def side(value: Any) -> str:
        return sides[value] if isinstance(value, int) and 0 <= value < len(sides) else "?"

    contract = []
    bidder = record.get("bidder")
    if isinstance(bidder, int) and 0 <= bidder < len(names):
        contract.append(names[bidder])
    if record.get("kind") in ("kaiser", "kaiser40"):
        contract.append(bid_text(record["kind"], record.get("bid")))
    elif record.get("bid") is not None:
        contract.append(bid_text(record.get("kind", "trump"), record["bid"]))
    parts = [" ".join(contract)] if contract else []
    if record.get("tricks"):
        parts.append(_("tricks %(tricks)s") % {"tricks": "-".join(map(str, record["tricks"]))})
    if record.get("seat_tricks"):
        parts.append(
            _("by seat %(tricks)s") % {"tricks": "-".join(map(str, record["seat_tricks"]))}
        )
    for key, label in (("five_hearts", "5♥"), ("three_spades", "3♠"), ("insult", _("insult"))):
        if record.get(key) is not None:
            parts.append(f"{label} {side(record[key])}")
    if record.get("auction"):
        parts.append("[" + ", ".join(record["auction"]) + "]")
    return ", ".join(parts)


@require_GET
def game_print(request: HttpRequest, game_id: int) -> HttpResponse:
    """The sheet laid out like the traditional paper score sheet, for printing."""
    access = game_for_member(request, game_id)
    return render(request, "scorecards/game_print.html", _sheet_context(request, access))


@require_POST
def game_table_link(request: HttpRequest, game_id: int) -> HttpResponse:
    """Issue a new table link (the old one stops working) or revoke it."""
    access = game_for_member(request, game_id)
    if not access.can_correct:
        raise PermissionDenied
    if request.POST.get("action") == "revoke":
        game_token_revoke(game=access.game)
    else:
        game_token_issue(game=access.game)
    return redirect_303("game_sheet", game_id=game_id)
