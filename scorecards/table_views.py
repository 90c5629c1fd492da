"""The table score sheet: the sheet itself, entering a hand (with its live preview), undo,
correction, confirmation, polling for other phones, the print view and the table link.

Thin views: access through `game_for_member`, reads through selectors, writes through services,
scores only from the rules engine. Every form works without JavaScript; with htmx the views
answer with fragments of `scorecards/game_sheet.html`.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from kaiser_league.http import HtmxHttpRequest
from leagues.clubs.policy.games import state_decide
from leagues.clubs.roles import HAND_ENTER
from scorecards import poll
from scorecards.access import GameAccess, Locking, game_for_member
from scorecards.game_state import game_facts, game_now_of
from scorecards.hand_try import HandAttempt, conflict_json, hand_posted, posted_key
from scorecards.handform import (
    HandForm,
    hand_form_parse,
    missing_label,
)
from scorecards.hooks import place_values
from scorecards.models import Game
from scorecards.presentation import record_text, winner_text
from scorecards.rules import HandError, HandInput, KaiserError
from scorecards.selectors import (
    game_preview,
    game_scored,
    table_place,
)
from scorecards.services import (
    HandConflict,
    HandRecorded,
    HandRefused,
    refusal_of,
)
from scorecards.sheet import (
    rows_html,
    sheet_notices,
    sheet_version,
    side_names,
)
from scorecards.sheet_context import TEMPLATE, phone_rows, sheet_context
from scorecards.table_phone import (
    game_names,
    json_refusal,
    json_refusals,
    redirect_303,
    seat_keep,
    wants_json,
)


def _named_error(game: Game, hand: HandInput, error: KaiserError) -> KaiserError:
    """The engine's refusal said again with the players' names instead of side numbers. The
    service scores without names (a submit stays at its few queries), so only a refused hand
    pays for this second look."""
    try:
        game_preview(game_scored(game), hand, seat_names=game_names(game))
    except KaiserError as named:
        return named
    return error


@require_GET
def game_sheet(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    access = game_for_member(request, game_id)
    context = sheet_context(request, access, page=True)
    template = TEMPLATE + "#sheet" if request.htmx else TEMPLATE
    return render(request, template, context)


@require_GET
def game_poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """For the other phones at the table: 204 (nothing rendered) while the game is unchanged
    since version `v`; once it changed, the rows after the phone's `n` first ones while those
    read as they did (fingerprint `h`), else the whole sheet; and a fresh entry form when hands
    were added or removed since `n`. A browser holding this game's poll token, whose `v` is
    the version in the shared cache, is answered 204 with no query (`scorecards.poll`)."""
    if poll.poll_unchanged(request, game_id):  # when the middleware did not answer it
        return poll.unchanged_answer()
    access = game_for_member(request, game_id, seats=False)
    game = access.game
    if request.GET.get("v") == sheet_version(game):
        # Unchanged, read the long way: the next polls may take the short one.
        return poll.token_give(request, HttpResponse(status=204), game_id)
    context = sheet_context(request, access)
    new_hands = request.GET.get("n") != str(game.hand_count)
    seen = sheet_seen(request.GET, context)
    if seen is not None:
        # The phone's taps of a hand another phone entered first are cleared with the form.
        return rows_answer(request, context, seen, whole_entry=new_hands, seats=True)
    context["entry_oob"] = new_hands
    response = render(request, TEMPLATE + "#polled", context)
    response["HX-Retarget"] = "#sheet"
    response["HX-Reswap"] = "outerHTML"
    return response


def _invalid(
    request: HtmxHttpRequest,
    access: GameAccess,
    form: HandForm,
    *,
    status: int = 422,
    message: str = "",
) -> HttpResponse:
    if wants_json(request):
        return json_refusal(
            "invalid",
            message
            or _("This hand cannot be saved as it is: fix the fields marked and send again."),
            status,
            errors=form.errors,
        )
    context = sheet_context(
        request,
        access,
        values=form.values,
        errors=form.errors,
        message=message,
        key=form.idempotency_key,
    )
    if request.htmx:
        # A refused form is swapped in place (base.html lets htmx swap a 422).
        response = render(request, TEMPLATE + "#entry", context, status=status)
        response["HX-Retarget"] = "#entry"
        response["HX-Reswap"] = "outerHTML"
        return response
    return render(request, TEMPLATE, context, status=status)


def refused_answer(
    request: HtmxHttpRequest, access: GameAccess, refusal: HandRefused
) -> HttpResponse:
    """A write refused by a service (game over, round over, undone, not allowed...): JSON for
    the outbox, else the sheet with the sentence in place of the entry form."""
    if wants_json(request):
        return json_refusal(refusal.status, str(refusal), refusal.http_status, **refusal.details)
    access.game.refresh_from_db()
    context = sheet_context(request, access, message=str(refusal))
    context["refusal"] = str(refusal)
    if request.htmx:
        return _whole(request, context)
    return render(request, TEMPLATE, context, status=refusal.http_status)


def _hand_try(request: HtmxHttpRequest, game_id: int, *, sheet: bool, locked: bool) -> HandAttempt:
    """Check access and enter the posted hand. `locked`: the access check's read is the write's
    locked read, in one transaction (a key used already breaks it: the caller tries again
    without); else the service reads and locks the game again. A refusal rolls back whatever
    this try wrote (a seat claim)."""
    attempt = HandAttempt()
    # The posted form, the session and the account are read before the transaction, which on
    # SQLite holds the database's write lock from its start: forty phones at a round's end
    # wait for one another's writes only, not for one another's reading.
    key = posted_key(request)
    request.user.is_authenticated  # noqa: B018 (loads the session and the account now)
    try:
        with transaction.atomic() if locked else nullcontext():
            attempt.access = game_for_member(
                request,
                game_id,
                HAND_ENTER,
                seats=False,
                place=False,
                user_seat=True,
                related=sheet,
                lock=Locking(key, hands=not sheet) if locked else None,
            )
            hand_posted(request, attempt, locked=locked)
    except (HandConflict, HandRefused, KaiserError) as refused:
        attempt.refused = refused
    return attempt


@require_POST
@json_refusals
def hand_submit(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Enter the next hand (the contract is in scorecards/handform.py and the README of the
    issue): 201/200/409/422 JSON for the outbox, fragments for htmx, 303 for a plain post."""
    # Only an htmx answer shows the sheet (its rows, the club's words): JSON and the plain
    # post's redirect read neither the club nor the hands' rows.
    sheet = bool(request.htmx) and not wants_json(request)
    try:
        attempt = _hand_try(request, game_id, sheet=sheet, locked=True)
    except IntegrityError:
        # The key was used already (another game's, or a request that raced this one): the
        # long way, whose service answers with the hand that holds it.
        attempt = _hand_try(request, game_id, sheet=sheet, locked=False)
    access, form = attempt.access, attempt.form
    assert access is not None and form is not None
    game = access.game
    refused = attempt.refused
    if isinstance(refused, HandConflict):
        if wants_json(request):
            return conflict_json(refused)
        form.errors.clear()
        return _conflict(request, access, refused)
    if isinstance(refused, HandRefused):
        return refused_answer(request, access, refused)
    if isinstance(refused, KaiserError):
        assert form.hand is not None
        form.add_engine_error(_named_error(game, form.hand, refused))
        return _invalid(request, access, form)
    if attempt.entered is None:
        return _invalid(request, access, form)
    recorded = attempt.entered.recorded
    claimed = attempt.entered.claimed
    if claimed is not None:
        seat_keep(request.session, game, claimed)
    if wants_json(request):
        body = {
            "status": "created" if recorded.created else "duplicate",
            "number": recorded.hand.number,
            "scores": list(recorded.score.scores),
            "finished": recorded.score.finished,
        }
        return JsonResponse(body, status=201 if recorded.created else 200)
    if request.htmx:
        return _added(request, access, recorded, seat_changed=claimed is not None)
    return redirect_303("game_sheet", game_id=game.pk)


def _whole(request: HtmxHttpRequest, context: dict[str, Any]) -> HttpResponse:
    """The whole sheet in place of the phone's, and a fresh entry form (the hand form swaps
    nothing by itself: its small answers are all out of band)."""
    response = render(request, TEMPLATE + "#submitted", context)
    response["HX-Retarget"] = "#sheet"
    response["HX-Reswap"] = "outerHTML"
    return response


def _added(
    request: HtmxHttpRequest, access: GameAccess, recorded: HandRecorded, *, seat_changed: bool
) -> HttpResponse:
    """The htmx answer to a saved hand: its row and the parts around it (status, totals, the
    entry's head), out of band, when the phone's sheet showed every hand before it as they
    stand (`sheet_seen`); else the whole sheet and a fresh entry."""
    game = access.game
    # The locked copy the service saved: the new version for polling, and where the table
    # stands in its round, without a read.
    if recorded.created:
        saved = recorded.hand.game
        game.updated_at = saved.updated_at
        game.hand_count = saved.hand_count
        game.status = saved.status
        for name, value in (place_values(saved) or {}).items():
            setattr(game, name, value)
    else:
        game.refresh_from_db(fields=["updated_at", "hand_count", "status"])
    context = sheet_context(request, access, hands=list(recorded.hands), score=recorded.score)
    seen = sheet_seen(request.POST, context)
    if not recorded.created or seen != recorded.hand.number - 1:
        context["seat_oob"] = seat_changed
        return _whole(request, context)
    return rows_answer(
        request,
        context,
        seen,
        whole_entry=bool(request.POST.get("redraw")),
        seat_changed=seat_changed,
    )


def sheet_seen(data: QueryDict, context: dict[str, Any]) -> int | None:
    """How many rows the phone's sheet shows as they stand now (`n`, when the mark `h` of the
    rows it shows is that of the same rows now), None when a row it shows has changed or it
    says nothing (`scorecards.sheet_context.phone_rows`)."""
    return phone_rows(data, context)


def rows_answer(
    request: HtmxHttpRequest,
    context: dict[str, Any],
    seen: int,
    *,
    whole_entry: bool = False,
    seat_changed: bool = False,
    seats: bool = False,
) -> HttpResponse:
    """The rows after the phone's `seen` first ones, with the sheet's status, totals and state
    out of band, and the entry's head (the whole entry when `whole_entry` or the form closed);
    the seat board, for this phone, on a poll (`seats`) or a hand that claimed a seat."""
    rows = context["rows"]
    context["added_html"] = rows_html(context["game"].pk, rows[seen:], context["marks"])
    context["added_first"] = seen == 0 and bool(rows)
    context["entry_oob"] = whole_entry or not context["entry_open"]
    context["entry_parts"] = not context["entry_oob"]
    context["seat_claimed"] = seat_changed
    context["seat_oob"] = seats or seat_changed
    return render(request, TEMPLATE + "#added", context)


def _conflict(request: HtmxHttpRequest, access: GameAccess, conflict: HandConflict) -> HttpResponse:
    """Another phone entered this hand first: say who, and what they entered."""
    game = access.game
    existing = conflict.existing
    what = record_text(existing.record, game_names(game), game.rules_value)
    message = _(
        "Your hand %(number)s was not saved: %(who)s entered hand %(number)s first (%(hand)s)."
    ) % {
        "number": existing.number,
        "who": existing.entered_by_name or _("another phone"),
        "hand": what,
    }
    context = sheet_context(request, access, message=message)
    context["entry"]["conflict_url"] = (
        reverse("hand_detail", kwargs={"game_id": game.pk, "number": existing.number})
        if access.can_correct
        else ""
    )
    if request.htmx:
        return _whole(request, context)
    return render(request, TEMPLATE, context, status=409)


@require_POST
@json_refusals
def hand_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The live preview while the hand is tapped in: what the engine makes of it so far (points,
    made or set, new totals, notices) or the field it refuses, shown beside that field. A game
    that takes no more hands answers 409 closed / round_over (JSON) or says so in the preview."""
    access = game_for_member(request, game_id, HAND_ENTER)
    game = access.game
    rules = game.rules_value
    closed = entry_closed(game)
    if closed is not None:
        if wants_json(request):
            return json_refusal(closed.status, str(closed), closed.http_status)
        return HttpResponse(
            format_html('<p class="refused" role="alert">{}</p>', str(closed)), status=409
        )
    form = hand_form_parse(request.POST, rules, key_required=False, dealer=game.next_dealer)
    names = game_names(game)
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


def entry_closed(game: Game) -> HandRefused | None:
    """Why this game takes no more hands (None while it does): the policy's answer to a hand
    entry (`state_decide`, as `hand_record` checks it), read for the preview (which writes
    nothing)."""
    facts = game_facts(game, game_now_of(game, table_place(game)))
    decision = state_decide(HAND_ENTER, facts)
    return None if decision else refusal_of(decision, facts)
