"""Starting a game: at a club (its players, the season's rules by default) or a quick game with
typed names and no club. Every game gets a table link (and QR code) for the other phones."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues.access import club_for_member
from leagues.models import Club, Player, Season, name_key
from leagues.roles import GAME_START
from leagues.selectors import club_current_season, club_players_recent_first
from scorecards.rules import PRESETS, KaiserError, Rules, rules_build
from scorecards.services import game_start, game_token_issue

SEASON = "season"
MAX_OVERRIDES = 2000  # characters of the rules overrides box


def _rules_choices(season: Season | None) -> list[tuple[str, str]]:
    choices = []
    if season is not None:
        preset = (season.rules or {}).get("preset", "standard")
        choices.append(
            (SEASON, _("%(season)s rules (%(preset)s)") % {"season": season, "preset": preset})
        )
    return choices + [(name, name) for name in PRESETS]


def _rules_from(data: dict[str, Any], season: Season | None, errors: dict) -> Rules:
    """The rules chosen on the form (a preset or the season's, plus JSON overrides). On a bad
    choice the error is noted and the default rules are returned, so the form still shows."""
    choice = data.get("rules") or (SEASON if season is not None else "standard")
    base: dict[str, Any] = {}
    if choice == SEASON and season is not None:
        base = dict(season.rules or {})
    elif choice in PRESETS:
        base = {"preset": choice}
    else:
        errors["rules"] = [_("Choose one of the rules offered.")]
    raw = (data.get("overrides") or "").strip()
    if raw:
        try:
            overrides = json.loads(raw) if len(raw) <= MAX_OVERRIDES else None
        except ValueError:
            overrides = None
        if not isinstance(overrides, dict):
            errors["overrides"] = [_('Write the changes as {"setting": value, ...}.')]
        else:
            base |= {key: value for key, value in overrides.items() if key != "preset"}
    try:
        return rules_build(base)
    except KaiserError as error:
        errors["overrides"] = [str(error)]
        return rules_build(
            {"preset": base.get("preset", "standard")} if base.get("preset") in PRESETS else {}
        )


def _seat_labels(rules: Rules) -> list[str]:
    letters = "ABCDEF"
    return [
        _("Seat %(n)s · side %(side)s") % {"n": seat + 1, "side": letters[rules.side_of(seat)]}
        for seat in range(rules.seats)
    ]


def _partners_text(rules: Rules) -> str:
    if rules.side_count == rules.seats:
        return _("Everyone plays for themselves.")
    groups = [" & ".join(str(seat + 1) for seat in side) for side in rules.sides]
    return _("Partners (sitting opposite): seats %(groups)s.") % {"groups": "; ".join(groups)}


def _game_new(request: HttpRequest, club: Club | None) -> HttpResponse:
    season = club_current_season(club) if club is not None else None
    players = list(club_players_recent_first(club)) if club is not None else []
    data = request.POST if request.method == "POST" else request.GET
    errors: dict[str, list[str]] = {}
    rules = _rules_from(data, season, errors)
    names = [(data.get(f"seat_{seat}") or "").strip()[:80] for seat in range(rules.seats)]
    move = data.get("move", "")
    if request.method == "POST" and move.isdigit() and 0 < int(move) < rules.seats:
        # Tap order: the arrow moves a player one seat up (works without JavaScript).
        i = int(move)
        names[i - 1], names[i] = names[i], names[i - 1]
    raw_dealer = data.get("first_dealer", "0")
    first_dealer = int(raw_dealer) if raw_dealer.isdigit() else 0
    table_label = (data.get("table_label") or "").strip()[:40]
    starting = request.method == "POST" and "start" in data and not errors
    if starting:
        by_name = {player.name_key: player for player in players}
        seats: list[Player | str] = [by_name.get(name_key(name), name) for name in names]
        if any(not name for name in names):
            errors["seats"] = [_("Every seat needs a player.")]
        elif len({name_key(name) for name in names}) != len(names):
            errors["seats"] = [_("A player can sit in only one seat.")]
        elif not 0 <= first_dealer < rules.seats:
            errors["first_dealer"] = [_("Choose the first dealer.")]
        else:
            try:
                game = game_start(
                    seats=seats,
                    rules=rules,
                    club=club,
                    season=season,
                    first_dealer=first_dealer,
                    table_label=table_label,
                    created_by=request.user,
                )
            except KaiserError as error:
                errors[error.field or "seats"] = [error.message]
            else:
                game_token_issue(game=game)
                response = redirect("game_sheet", game_id=game.pk)
                response.status_code = 303
                return response
    context = {
        "club": club,
        "players": players,
        "rules_choices": _rules_choices(season),
        "rules_choice": data.get("rules") or (SEASON if season is not None else "standard"),
        "overrides": data.get("overrides", ""),
        "rules": rules,
        "seats": [
            (seat, label, name, rules.side_of(seat))
            for seat, (label, name) in enumerate(zip(_seat_labels(rules), names, strict=True))
        ],
        "partners": _partners_text(rules),
        "first_dealer": first_dealer,
        "table_label": table_label,
        "errors": errors,
    }
    status = 422 if starting and errors else 200
    template = "scorecards/game_new.html"
    if request.htmx:
        template += "#game-form"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def club_game_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a game at a club: its players (recent first) or walk-ins by name."""
    access = club_for_member(request, slug, GAME_START)
    return _game_new(request, access.club)


@require_http_methods(["GET", "POST"])
def quick_game_new(request: HttpRequest) -> HttpResponse:
    """A quick game for any signed-in user: typed names, no club."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _game_new(request, None)
