"""The standings widget: a season's ranked players on a page without the site's frame (no
navigation, one small stylesheet), for a club's own web site to show in an <iframe>.

It opens only while the club's standings are public (before, Http404, or for a member a redirect
to the standings page, which no other site may frame: a frame never shows a sign-in page or a
member's view), and shows the same to everyone: in another site's frame the browser usually
sends no session cookie. Framing is allowed only to the sites the club listed
(`Club.embed_sites`): the response's Content-Security-Policy says `frame-ancestors` with those
origins ('none' when none), and no X-Frame-Options is sent for this page alone (DENY would
forbid every frame, whatever the policy says)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.middleware import SignInRequired, frame_ancestors_policy
from leagues.clubs.access import club_for_viewer
from leagues.clubs.embed import embed_origins
from leagues.standings import selectors
from leagues.standings.attendance import ranked_split
from leagues.standings.tables import name_ordered_rows

# The widget is small: the leaders, not the whole club.
WIDGET_ROWS = 20


@require_GET
@xframe_options_exempt
def standings_widget(request: HtmxHttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The season's ranked players, best first (wins, then win %, then name), up to
    WIDGET_ROWS, with a link to the full public standings. Three queries."""
    try:
        access = club_for_viewer(request, slug)
    except SignInRequired:
        raise Http404("No such club") from None
    club = access.club
    if not club.standings_public:
        if access.membership is not None:
            # A member who opens the address is shown the standings page, where the owner
            # turns the public standings on; that page refuses every frame.
            return redirect("standings", slug=club.slug)
        raise Http404("No such club")
    season = club.seasons.select_related("standings").filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season")
    rows = name_ordered_rows(selectors.season_player_standings(season), lambda r: r.player.name)
    ranked, apart = ranked_split(rows, season.min_nights)
    ranked.sort(key=lambda row: (-row.wins, -row.win_pct))
    response = render(
        request,
        "leagues/standings_widget.html",
        {
            "club": club,
            "season": season,
            "rows": ranked[:WIDGET_ROWS],
            "more": max(len(ranked) - WIDGET_ROWS, 0),
            "apart": len(apart),
            "snapshot": getattr(season, "standings", None),
        },
    )
    response["Content-Security-Policy"] = frame_ancestors_policy(embed_origins(club.embed_sites))
    return response
