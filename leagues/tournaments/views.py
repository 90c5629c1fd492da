"""Pages of tournament nights: set-up and registration, draw and table cards, the director's
console (the standings, projector and table pages are in `board_views`). Thin views: access
helper, form, service."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kaiser_league.http import HtmxHttpRequest, signed_in
from kaiser_league.inputs import number_or_none
from leagues.clubs.access import club_for_member
from leagues.clubs.policy import may
from leagues.clubs.policy.clubs import ClubFacts
from leagues.clubs.roles import (
    NIGHT_CREATE,
    NIGHT_DRAW,
    NIGHT_FINISH,
    NIGHT_REGISTER,
    TOURNAMENTS_RUN,
)
from leagues.clubs.selectors import club_current_season
from leagues.tournaments.access import tournament_for_member
from leagues.tournaments.forms import EntryForm, TournamentForm
from leagues.tournaments.models import (
    RoundEnd,
    Tournament,
    TournamentEntry,
)
from leagues.tournaments.night_links import night_links
from leagues.tournaments.night_state import entry_offers, night_facts, night_offers, round_offer
from leagues.tournaments.selectors import (
    PLAYING,
    WAITING,
    TableResult,
    round_results,
    tournament_entries,
    tournament_rounds,
)
from leagues.tournaments.services import (
    RoundUnfinished,
    TournamentError,
    entry_check_in,
    entry_register,
    entry_withdraw,
    round_close,
    round_draw,
    tournament_create,
    tournament_finish,
)
from scorecards.qr import qr_svg, table_link
from scorecards.rules_form import RulesForm

MAX_ROUND_NUMBER = 1000  # far beyond any night; a bigger "number" is no round at all


def _fragment(request: HtmxHttpRequest, template: str, fragment: str) -> str:
    return f"{template}#{fragment}" if request.htmx else template


@require_http_methods(["GET", "POST"])
def tournament_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's tournaments; directors create one here."""
    action = TOURNAMENTS_RUN if request.method == "POST" else "view"
    access = club_for_member(request, slug, action)
    club = access.club
    form = rules_form = None
    if may(access.actor, NIGHT_CREATE, ClubFacts(club_id=club.pk)):
        form = TournamentForm(request.POST or None, club=club)
        # A night starts from the rules of the club's current season.
        season = club_current_season(club)
        rules_form = RulesForm(request.POST or None, base=season.rules if season else None)
    status = 200
    if request.method == "POST" and form is not None and rules_form is not None:
        if all([form.is_valid(), rules_form.is_valid()]):
            data = form.cleaned_data
            try:
                tournament = tournament_create(
                    club=club,
                    name=data["name"],
                    date=data["date"],
                    format=data["format"],
                    rounds=data["rounds"],
                    round_end=data["round_end"],
                    hands_per_round=data["hands_per_round"],
                    extra_hand_on_tie=data["extra_hand_on_tie"],
                    minutes_per_round=data["minutes_per_round"],
                    rules=rules_form.record(),
                    hands_need_confirmation=data["hands_need_confirmation"],
                    movement=data["movement"],
                    sitout_score=data["sitout_score"],
                    sitout_points=data["sitout_points"] or 0,
                    season=data["season"],
                    created_by=signed_in(request),
                )
            except TournamentError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect(tournament)
        status = 422
    tournaments = list(Tournament.objects.filter(club=club).order_by("-date", "-pk"))
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "access": access,
            "tournaments": tournaments,
            "form": form,
            "rules_form": rules_form,
        },
        status=status,
    )


def _detail_context(
    request: HtmxHttpRequest, access, entry_form=None, here: bool | None = None
) -> dict:
    """The tournament page. `here`: the registration form's "Here now" box, as the director
    left it on the last registration (else as the `here` query parameter says), so a row of
    players arriving together is registered without ticking it again each time."""
    tournament = access.tournament
    entries = tournament_entries(tournament)
    rounds = list(tournament.round_set.order_by("number"))
    night = night_facts(tournament, rounds)
    offers = night_offers(access.actor, night)
    if entry_form is None and offers[NIGHT_REGISTER]:
        if here is None:
            here = request.GET.get("here") == "1"
        entry_form = EntryForm(tournament=tournament, initial={"checked_in": here})
    return {
        "access": access,
        "tournament": tournament,
        "club": tournament.club,
        "entries": entries,
        "entry_rows": [(e, entry_offers(access.actor, night, e)) for e in entries],
        "offers": offers,
        "present": sum(1 for e in entries if e.checked_in and e.last_round is None),
        "rounds": rounds,
        "current": rounds[-1] if rounds else None,
        "next_number": len(rounds) + 1,
        "entry_form": entry_form if offers[NIGHT_REGISTER] else None,
        "can_draw": offers[NIGHT_DRAW],
        "night_links": night_links(tournament, can_run=access.can_run),
    }


@require_GET
def tournament_detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id)
    context = _detail_context(request, access)
    return render(request, _fragment(request, "tournaments/detail.html", "entries"), context)


@require_POST
def entry_add(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    tournament = access.tournament
    form = EntryForm(request.POST, tournament=tournament)
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry_register(
                tournament=tournament,
                player=data["who"],
                partner=data.get("with"),
                checked_in=data["checked_in"],
                by=signed_in(request),
            )
        except TournamentError as exc:
            form.add_error(None, str(exc))
        else:
            here = data["checked_in"]
            if request.htmx:
                context = _detail_context(request, access, here=here)
                return render(request, "tournaments/detail.html#entries", context)
            return redirect(f"{tournament.get_absolute_url()}?here={int(here)}#register")
    context = _detail_context(request, access, form)
    return render(
        request,
        _fragment(request, "tournaments/detail.html", "entries"),
        context,
        status=422,
    )


def _entry(access, entry_id: int) -> TournamentEntry:
    entry = access.tournament.entries.filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such entry")
    return entry


def _back_to_entries(request: HtmxHttpRequest, access, error: str = "") -> HttpResponse:
    """The night's players again; a refusal is shown there (409 for htmx)."""
    if request.htmx:
        context = _detail_context(request, access) | {"entries_error": error}
        return render(
            request, "tournaments/detail.html#entries", context, status=409 if error else 200
        )
    if error:
        messages.error(request, error)
    return redirect(access.tournament)


@require_POST
def entry_check_in_view(
    request: HtmxHttpRequest, tournament_id: int, entry_id: int
) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    entry = _entry(access, entry_id)
    try:
        entry_check_in(
            entry=entry, checked_in=request.POST.get("checked_in") != "0", by=signed_in(request)
        )
    except TournamentError as exc:
        return _back_to_entries(request, access, str(exc))
    return _back_to_entries(request, access)


@require_POST
def entry_withdraw_view(
    request: HtmxHttpRequest, tournament_id: int, entry_id: int
) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    try:
        entry_withdraw(entry=_entry(access, entry_id), by=signed_in(request))
    except TournamentError as exc:
        return _back_to_entries(request, access, str(exc))
    return _back_to_entries(request, access)


@require_POST
def round_draw_view(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Draw the next round. With tables still playing or waiting for confirmation, show them
    and ask again (the form posts `confirm=1`)."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    tournament = access.tournament
    try:
        made = round_draw(
            tournament=tournament,
            by=signed_in(request),
            confirm=request.POST.get("confirm") == "1",
            number=number_or_none(request.POST, "number", minimum=1, maximum=MAX_ROUND_NUMBER),
        )
    except RoundUnfinished as exc:
        return render(
            request,
            "tournaments/draw_confirm.html",
            {
                "tournament": tournament,
                "tables": exc.tables,
                "number": tournament.round_set.count() + 1,
            },
            status=409,
        )
    except TournamentError as exc:
        messages.error(request, str(exc))
        return redirect(tournament)
    return redirect("tournament_cards", tournament_id=tournament.pk, number=made.round.number)


@require_POST
def round_close_view(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    round_ = access.tournament.round_set.filter(number=number).first()
    if round_ is None:
        raise Http404("No such round")
    try:
        round_close(round=round_, by=signed_in(request))
    except TournamentError as exc:  # the night is over
        messages.error(request, str(exc))
    return redirect("tournament_console", tournament_id=tournament_id)


@require_POST
def tournament_finish_view(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    try:
        tournament_finish(tournament=access.tournament, by=signed_in(request))
    except TournamentError as exc:  # a cancelled night stays cancelled
        messages.error(request, str(exc))
        return redirect(access.tournament)
    return redirect("tournament_standings", tournament_id=tournament_id)


@require_GET
def round_cards(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Printable table cards: table, seats, partners, and the QR code of the table link."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    tournament = access.tournament
    round_ = (
        tournament.round_set.filter(number=number)
        .prefetch_related("tables__game__seats", "sitouts__entry__player")
        .first()
    )
    if round_ is None:
        raise Http404("No such round")
    cards = []
    for table in round_.tables.all():
        seats = sorted(table.game.seats.all(), key=lambda s: s.seat)
        link = table_link(request, table.game)
        dealer = next((s for s in seats if s.seat == table.game.first_dealer), None)
        cards.append(
            {
                "table": table,
                "seats": seats,
                "dealer": dealer.name if dealer else "",
                "pairs": [
                    [seats[seat].name for seat in side] for side in table.game.rules_value.sides
                ],
                "link": link,
                "qr": qr_svg(link) if link else "",
            }
        )
    return render(
        request,
        "tournaments/cards.html",
        {"tournament": tournament, "round": round_, "cards": cards},
    )


def console_next_action(
    *,
    tournament: Tournament,
    results: list[TableResult],
    round_open: bool,
    all_done: bool,
    can_draw: bool,
    can_finish: bool,
) -> dict | None:
    """What the director does next, shown as the console's one big button: during a round, the
    first table whose hands wait for confirmation (its table page), else the first table still
    playing (its score sheet, to enter hands); once every table is done (or before the first
    round), drawing the next round; after the last round, ending the night."""
    if round_open and not all_done and results:
        waiting = next((r for r in results if r.state == WAITING), None)
        if waiting is not None:
            return {"kind": "confirm", "result": waiting}
        playing = next((r for r in results if r.state == PLAYING), None)
        if playing is not None:
            return {"kind": "enter", "result": playing}
    if can_draw:
        return {"kind": "draw"}
    if can_finish:
        return {"kind": "finish"}
    return None


@require_GET
def tournament_console(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The director's console: every table of the round live; polls itself with htmx."""
    access = tournament_for_member(request, tournament_id, TOURNAMENTS_RUN)
    tournament = access.tournament
    rounds = tournament_rounds(tournament)
    current = rounds[-1] if rounds else None
    results = round_results(tournament, current) if current else []
    all_done = bool(results) and all(r.state == "done" for r in results)
    offers = night_offers(access.actor, night_facts(tournament, rounds))
    can_draw, can_finish = offers[NIGHT_DRAW], offers[NIGHT_FINISH]
    round_open = bool(round_offer(access.actor, night_facts(tournament, rounds), current))
    context = {
        "tournament": tournament,
        "current": current,
        "results": results,
        "all_done": all_done,
        "playing": sum(1 for r in results if r.state == "playing"),
        "can_draw": can_draw,
        "can_finish": can_finish,
        "round_open": round_open,
        "next_action": console_next_action(
            tournament=tournament,
            results=results,
            round_open=round_open,
            all_done=all_done,
            can_draw=can_draw,
            can_finish=can_finish,
        ),
        "next_number": len(rounds) + 1,
        "ends_at": current.drawn_at + datetime.timedelta(minutes=tournament.minutes_per_round)
        if current is not None
        and tournament.round_end == RoundEnd.TIME
        and tournament.minutes_per_round
        else None,
    }
    return render(request, _fragment(request, "tournaments/console.html", "tables"), context)
