"""A seat claim let go: the phone gives its own seat back, or a scorer or director releases
another phone's (what the table sees of the seats: `scorecards.seat_board`).

Thin, as the other views: access through `game_for_member`, the write through
`scorecards.services.seat_release`, every offer decided by the policy."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from leagues.clubs.roles import SEAT_CLAIM
from scorecards.access import game_for_member
from scorecards.services import HandRefused, seat_release
from scorecards.table_phone import (
    held_seat,
    json_refusal,
    json_refusals,
    phone_id,
    redirect_303,
    seat_forget,
    signature,
    wants_json,
)
from scorecards.table_views import refused_answer


@require_POST
@json_refusals
def game_seat_release(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Let the claim of `seat` go: this phone gives its own seat back, or a scorer or director
    releases another phone's (303 to the sheet; JSON `released` for the outbox). 409 closed
    once the game is over, 409 nothing when nobody holds that seat, 403 without the power."""
    access = game_for_member(request, game_id, SEAT_CLAIM, seats=False)
    game = access.game
    seat = number_or_none(request.POST, "seat", minimum=0, maximum=game.rules_value.seats - 1)
    if seat is None:
        message = _("Say which seat to let go.")
        if wants_json(request):
            return json_refusal("invalid", message, 422)
        return refused_answer(request, access, HandRefused(message))
    user = request.user if request.user.is_authenticated else None
    phone = phone_id(request.session)
    try:
        seat_release(
            game=game,
            seat=seat,
            by=user,
            by_name=signature(game, seat=held_seat(request.session, game), user=request.user),
            phone=phone,
            table_link=access.via_table_token,
        )
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    seat_forget(request.session, game, seat)
    if wants_json(request):
        return JsonResponse({"status": "released", "seat": seat})
    return redirect_303("game_sheet", game_id=game.pk)
