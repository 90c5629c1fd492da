"""The project's URLs plus a stand-in for the hand-entry endpoint of issue #3, written to its
contract, so the load-night client can be tested end to end before that endpoint is merged.
Once the real endpoint exists it comes first in the project's URLs and this stand-in is unused."""

from __future__ import annotations

import json
import uuid

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.http import require_POST

from kaiser_league.urls import urlpatterns as project_urlpatterns
from leagues.roles import GAME_START
from scorecards.access import game_for_member
from scorecards.rules import HandError, HandInput
from scorecards.services import HandConflict, hand_record


@require_POST
def hand_enter_stub(request: HttpRequest, game_id: int) -> JsonResponse:
    game = game_for_member(request, game_id, GAME_START).game
    post = request.POST
    try:
        key = uuid.UUID(post["idempotency_key"])
        number = int(post["number"])
        hand = HandInput(
            bidder=int(post["bidder"]),
            bid=int(post["bid"]),
            kind=post["kind"],
            tricks=(int(post["tricks_0"]), int(post["tricks_1"])),
            five_hearts=int(post["five_hearts"]),
            three_spades=int(post["three_spades"]),
        )
        recorded = hand_record(game=game, hand=hand, idempotency_key=key, number=number)
    except HandConflict as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    except (KeyError, ValueError, HandError) as exc:
        return JsonResponse({"error": json.dumps(str(exc))}, status=422)
    return JsonResponse({"number": recorded.hand.number}, status=201 if recorded.created else 200)


urlpatterns = [
    *project_urlpatterns,
    path("games/<int:game_id>/hands/", hand_enter_stub),
]
