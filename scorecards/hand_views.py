"""Pages and actions around one hand or the game as a whole: undo, confirmation, seat claims,
a hand's history and correction, abandon and delete, and the table link (the print view:
`scorecards.print_views`).

Thin views, as in `scorecards.table_views`: access through `game_for_member`, writes through
the services."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from leagues.clubs.policy import Decision
from leagues.clubs.roles import (
    GAME_ABANDON,
    GAME_DELETE,
    HAND_CORRECT,
    HAND_ENTER,
    TABLE_LINK_MANAGE,
)
from scorecards.access import GameAccess, game_for_member
from scorecards.game_state import game_now_of
from scorecards.habits import habits_text
from scorecards.handform import (
    engine_message,
    hand_form_initial,
    hand_form_parse,
)
from scorecards.presentation import record_text
from scorecards.rules import MAX_HANDS, HandError, KaiserError
from scorecards.seat_board import hand_seats_history
from scorecards.selectors import (
    game_hands,
    game_scored,
    hand_versions,
    table_place,
)
from scorecards.services import (
    HandRefused,
    game_abandon,
    game_delete,
    game_token_issue,
    game_token_revoke,
    hand_confirm,
    hand_correct,
    hand_undo,
)
from scorecards.sheet_context import TEMPLATE, entry_context, sheet_context
from scorecards.table_phone import (
    game_names,
    held_seat,
    json_refusal,
    json_refusals,
    phone_id,
    redirect_303,
    seat_remember,
    signature,
    wants_json,
)
from scorecards.table_views import refused_answer


@require_POST
@json_refusals
def hand_undo_last(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Take back the last hand (kept in its history; its key stays spent). Refused once the game
    is over (409 closed), when the hand was confirmed (409 confirmed), or when there is none
    (409 nothing)."""
    access = game_for_member(request, game_id, HAND_ENTER)
    game = access.game
    user = request.user if request.user.is_authenticated else None
    try:
        hand_undo(
            game=game,
            by=user,
            by_name=signature(game, seat=held_seat(request.session, game), user=request.user),
            table_link=access.via_table_token,
        )
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    if wants_json(request):
        game.refresh_from_db(fields=["hand_count"])
        return JsonResponse({"status": "undone", "hand_count": game.hand_count})
    if request.htmx:
        game.refresh_from_db(fields=["updated_at", "hand_count"])
        return render(request, TEMPLATE + "#submitted", sheet_context(request, access))
    return redirect_303("game_sheet", game_id=game.pk)


@require_POST
@json_refusals
def hand_confirm_view(request: HtmxHttpRequest, game_id: int, number: int) -> HttpResponse:
    """A player of the other side confirms hand `number`. Who confirms is what the server knows
    of this phone (its seat claim) or of the signed-in player, never a seat the form names. A
    plain post naming `history_page` (the history page's ✓) is sent back to that page."""
    access = game_for_member(request, game_id, HAND_ENTER)
    game = access.game
    user = request.user if request.user.is_authenticated else None
    try:
        hand = hand_confirm(
            game=game,
            number=number,
            by=user,
            phone=phone_id(request.session),
            table_link=access.via_table_token,
        )
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    except HandError:
        if wants_json(request):
            return json_refusal("not_found", _("There is no such hand in this game."), 404)
        raise Http404("No such hand") from None
    if wants_json(request):
        return JsonResponse(
            {"status": "confirmed", "number": hand.number, "by": hand.confirmed_by_name}
        )
    if request.htmx:
        game.refresh_from_db(fields=["updated_at"])
        return render(request, TEMPLATE + "#sheet", sheet_context(request, access))
    # A ✓ of the history page goes back to its page, at the confirmed hand's row.
    back = number_or_none(request.POST, "history_page", minimum=1, maximum=MAX_HANDS)
    if back is not None:
        url = reverse("game_history", args=[game.pk])
        response = redirect(f"{url}?page={back}#hand-{hand.number}")
        response.status_code = 303
        return response
    return redirect_303("game_sheet", game_id=game.pk)


@require_POST
@json_refusals
def game_seat_claim(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """This phone says which seat holds it (`seat`), once for the game: kept on the server, it is
    what lets the phone confirm the other side's hands later. 409 taken when another phone holds
    that seat, 409 claimed when this phone holds another one."""
    access = game_for_member(request, game_id, HAND_ENTER, seats=False)
    game = access.game
    raw = request.POST.get("seat", "")
    held = held_seat(request.session, game)
    try:
        seat = seat_remember(request.session, game, raw, request.user)
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    if seat is None or (held is None and raw != str(seat)):
        message = (
            _("Another phone holds that seat: choose your own seat, or ask a scorer to release it.")
            if raw
            else _("Choose who holds this phone, then tap “That’s me”.")
        )
        if wants_json(request):
            status, code = ("taken", 409) if raw else ("invalid", 422)
            return json_refusal(status, message, code)
        context = sheet_context(request, access, message=message)
        context["refusal"] = message
        return render(request, TEMPLATE, context, status=409)
    if held is not None and raw != str(held) and wants_json(request):
        return json_refusal(
            "claimed", _("This phone already holds a seat in this game: it keeps it."), 409
        )
    if wants_json(request):
        return JsonResponse({"status": "claimed", "seat": seat})
    return redirect_303("game_sheet", game_id=game.pk)


def _stop_offers(access: GameAccess) -> tuple[Decision, Decision]:
    """Whether this person may abandon the game, and delete it, now (the policy's answers,
    on the game as it stands, hands taken back included)."""
    game = access.game
    had = game.hand_count > 0 or game.spent_keys.exists()
    now = game_now_of(game, table_place(game), had_hands=had)
    return access.may(GAME_ABANDON, now), access.may(GAME_DELETE, now)


def _stop_page(
    request: HtmxHttpRequest, access: GameAccess, error: str = "", status: int = 200
) -> HttpResponse:
    abandon, delete = _stop_offers(access)
    context = {
        "game": access.game,
        "error": error or ("" if abandon or delete else abandon.reason),
        "can_abandon": bool(abandon),
        "can_delete": bool(delete),
    }
    return render(request, "scorecards/game_abandon.html", context, status=status)


@require_http_methods(["GET", "POST"])
def game_abandon_view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A scorer or director stops a game that will not be finished, with a reason (a page with
    the reason field, then 303 to the sheet). The page offers what the policy allows now and
    says why when it allows nothing."""
    access = game_for_member(request, game_id)
    if not (access.can(GAME_ABANDON) or access.can(GAME_DELETE)):
        raise PermissionDenied
    game = access.game
    if request.method == "POST":
        user = request.user if request.user.is_authenticated else None
        try:
            game_abandon(game=game, by=user, reason=request.POST.get("reason", ""))
        except HandRefused as refusal:
            game.refresh_from_db()
            return _stop_page(request, access, str(refusal), 422)
        return redirect_303("game_sheet", game_id=game.pk)
    return _stop_page(request, access)


@require_POST
def game_delete_view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Delete a game that has no hand (started by mistake); 303 to the club's page."""
    access = game_for_member(request, game_id)
    if not access.can(GAME_DELETE):
        raise PermissionDenied
    game = access.game
    user = request.user if request.user.is_authenticated else None
    club = game.club
    try:
        game_delete(game=game, by=user)
    except HandRefused as refusal:
        game.refresh_from_db()
        return _stop_page(request, access, str(refusal), 409)
    response = redirect(reverse("club_detail", args=[club.slug]) if club else reverse("home"))
    response.status_code = 303
    return response


@require_http_methods(["GET", "POST"])
def hand_detail(request: HtmxHttpRequest, game_id: int, number: int) -> HttpResponse:
    """One hand: its history (every version: who, when, before and after) and, for those who
    may, the form to correct it. Later hands are re-checked by the engine."""
    access = game_for_member(request, game_id)
    game = access.game
    hands = list(game_hands(game))
    hand = next((h for h in hands if h.number == number), None)
    if hand is None:
        raise Http404("No such hand")
    rules = game.rules_value
    names = game_names(game)
    score = game_scored(game, hands)
    values = hand_form_initial(
        {**hand.record, "bidder": hand.bidder, "bid": hand.bid, "tricks": hand.tricks}
        | ({"kind": hand.kind} if hand.kind else {}),
        rules,
        dealer=hand.dealer,
    )
    errors: dict[str, list[str]] = {}
    status = 200
    now = game_now_of(game, table_place(game, score), hands)
    correct = access.may(HAND_CORRECT, now)
    refusal_text = ""
    if request.method == "POST" and not correct:
        if not access.can(HAND_CORRECT):
            raise PermissionDenied
        # Not offered on this page: say why, on the page.
        refusal_text, status = correct.reason, 403
    elif request.method == "POST":
        form = hand_form_parse(request.POST, rules, key_required=False, dealer=hand.dealer)
        if form.hand is not None:
            user = request.user if request.user.is_authenticated else None
            try:
                hand_correct(
                    game=game,
                    number=number,
                    hand=form.hand,
                    by=user,
                    by_name=signature(
                        game, seat=held_seat(request.session, game), user=request.user, names=names
                    ),
                    reason=request.POST.get("reason", ""),
                )
            except HandRefused as refusal:
                if refusal.http_status == 403:
                    refusal_text = str(refusal)
                else:
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
            record_text(version.before, names, rules),
            record_text(version.after, names, rules),
        )
        for version in hand_versions(game, number)
    ]
    entry = entry_context(game, rules, score, names, values=values, errors=errors, number=number)
    context = {
        # The seats claimed and let go, and the claim behind the hand's confirmation.
        **hand_seats_history(game, hand),
        # Exactly what the service takes: the form, and a reason once the game is over.
        "can_correct": bool(correct) and not refusal_text,
        "needs_reason": now.reason_needed,
        "refusal": refusal_text,
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


@require_POST
def game_table_link(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Issue a new table link (the old one stops working) or revoke it."""
    access = game_for_member(request, game_id)
    if not access.can(TABLE_LINK_MANAGE):
        raise PermissionDenied
    user = request.user if request.user.is_authenticated else None
    try:
        if request.POST.get("action") == "revoke":
            game_token_revoke(game=access.game, by=user)
        else:
            game_token_issue(game=access.game, by=user)
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    return redirect_303("game_sheet", game_id=game_id)
