"""A finished game's share link: making it or stopping it (members, from the sheet), and the
public read-only record it opens (/s/<token>, no sign-in)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from kaiser_league.http import HtmxHttpRequest
from leagues.clubs.roles import GAME_SHARE
from scorecards.access import game_for_member
from scorecards.game_end import game_end
from scorecards.models import Game, GameStatus
from scorecards.presentation import winner_text
from scorecards.rules.catalogue import rules_describe
from scorecards.selectors import game_hands, game_scored, seat_names
from scorecards.services import HandRefused
from scorecards.services.share import game_share, game_share_stop
from scorecards.sheet import sheet_rows, side_names
from scorecards.table_phone import redirect_303
from scorecards.table_views import refused_answer


@require_POST
def game_share_view(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Share the finished game (`action=share`) or stop sharing it (`action=stop`), then back
    to the sheet, where the link shows. 404 for outsiders, 403 without the power (a table
    link); a game not finished is answered with the sheet and the reason."""
    access = game_for_member(request, game_id, GAME_SHARE, place=False)
    user = request.user if request.user.is_authenticated else None
    write = game_share_stop if request.POST.get("action") == "stop" else game_share
    try:
        write(game=access.game, by=user, table_link=access.via_table_token)
    except HandRefused as refusal:
        return refused_answer(request, access, refusal)
    response = redirect_303("game_sheet", game_id=game_id)
    response["Location"] += "#game-end"
    return response


@require_GET
def game_shared(request: HttpRequest, token: str) -> HttpResponse:
    """The public record of a shared finished game: its summary and its sheet's rows, nothing
    to change and nothing only members see (no pot, no history, no names of who entered or
    confirmed). 404 for an unknown or stopped link, or a game no longer finished."""
    game = Game.objects.select_related("club").filter(share_token=token).first() if token else None
    if game is None or game.status != GameStatus.FINISHED:
        raise Http404("No such shared game")
    hands = list(game_hands(game))
    score = game_scored(game, hands)
    names = seat_names(game)
    sides = side_names(score.rules, names)
    context = {
        "game": game,
        "summary": game_end(score, names),
        "banner": winner_text(score, sides),
        "sides": sides,
        "rows": sheet_rows(score, hands, names),
        "rules_words": rules_describe(score.rules),
    }
    response = render(request, "scorecards/game_shared.html", context)
    # A link shared on purpose, not a page for search engines; its token stays out of the
    # Referer of any page it links to.
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response
