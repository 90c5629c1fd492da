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

from kaiser_league.inputs import InputError, name_check, number_or_none, number_parse
from leagues.access import club_for_member
from leagues.models import Club, Player, Season
from leagues.roles import GAME_START
from leagues.selectors import club_current_season, club_players_recent_first
from scorecards.rules import PRESETS, KaiserError, Rules, rules_build
from scorecards.services import game_start, game_token_issue

SEASON = "season"
MAX_OVERRIDES = 2000  # characters of the rules overrides box
MAX_SEAT_NAME = 80  # Seat.name
MAX_TABLE_LABEL = 40  # Game.table_label


def _text(data: Any, name: str) -> str:
    value = data.get(name)
    return value.strip() if isinstance(value, str) else ""


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
    names = [_text(data, f"seat_{seat}") for seat in range(rules.seats)]
    move = number_or_none(data, "move", minimum=1, maximum=rules.seats - 1)
    if request.method == "POST" and move is not None:
        # Tap order: the arrow moves a player one seat up (works without JavaScript).
        names[move - 1], names[move] = names[move], names[move - 1]
    first_dealer = 0
    if _text(data, "first_dealer"):
        try:
            first_dealer = number_parse(
                data.get("first_dealer"), field="first_dealer", minimum=0, maximum=rules.seats - 1
            )
        except InputError as error:
            errors["first_dealer"] = [_("Choose the first dealer."), error.message]
    table_label = _text(data, "table_label")
    if table_label:
        try:
            name_check(table_label, field="table_label", max_length=MAX_TABLE_LABEL)
        except InputError as error:
            errors["table_label"] = [error.message]
    starting = request.method == "POST" and "start" in data and not errors
    if starting:
        for seat, name in enumerate(names):
            if name:
                try:
                    name_check(name, field=f"seat_{seat}", max_length=MAX_SEAT_NAME)
                except InputError as error:
                    errors.setdefault("seats", []).append(
                        _("Seat %(n)s: %(error)s") % {"n": seat + 1, "error": error.message}
                    )
    if starting and not errors:
        by_name = {player.name.lower(): player for player in players}
        seats: list[Player | str] = [by_name.get(name.lower(), name) for name in names]
        if any(not name for name in names):
            errors["seats"] = [_("Every seat needs a player.")]
        elif len({name.lower() for name in names}) != len(names):
            errors["seats"] = [_("A player can sit in only one seat.")]
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
