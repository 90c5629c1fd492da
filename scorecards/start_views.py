"""Starting a game: at a club (its players, the season's rules by default) or a quick game with
typed names and no club. Every game gets a table link (and QR code) for the other phones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import InputError, name_check, number_or_none, number_parse
from leagues.clubs.access import club_for_member
from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.name_match import players_alike
from leagues.clubs.roles import GAME_START
from leagues.clubs.selectors import club_current_season, club_players_recent_first
from scorecards.habits import GameHabitsForm, passing_choices
from scorecards.played_on import played_on_latest, played_on_read
from scorecards.pot import cents_decimal
from scorecards.rules import KaiserError, Rules, rules_build
from scorecards.rules.catalogue import rules_describe
from scorecards.rules_form import RulesForm
from scorecards.services import game_start, game_token_issue

MAX_SEAT_NAME = 80  # Seat.name
MAX_TABLE_LABEL = 40  # Game.table_label


def _text(data: Any, name: str) -> str:
    value = data.get(name)
    return value.strip() if isinstance(value, str) else ""


def _rules_form(data, season: Season | None, bound: bool) -> RulesForm:
    """The rules form, starting from the season's rules (standard for a quick game)."""
    base = dict(season.rules or {}) if season is not None else None
    return RulesForm(data if bound else None, base=base)


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


@dataclass(frozen=True)
class SeatAsk:
    """A walk-in name that looks like players of the club (`players_alike`): who sits there?"""

    seat: int
    name: str
    players: list[Player]


def _walk_ins_settle(
    club: Club, data: Any, names: list[str], seats: list[Player | str]
) -> list[SeatAsk]:
    """Settle, in `seats` (and `names`), each walk-in name that looks like a player of the club
    ("Jerome" for "Jérôme") by the form's answer: `same_<seat>` is the chosen player's id or
    "new", given for the name in `same_<seat>_for` (an answer given for another name, e.g.
    before seats moved, is asked again). Returns the seats still asked about (SeatAsk)."""
    typed = [name for seat, name in zip(seats, names, strict=True) if isinstance(seat, str)]
    alike = players_alike(club, typed)
    asks: list[SeatAsk] = []
    for index, seat in enumerate(seats):
        name = names[index]
        if not isinstance(seat, str) or name not in alike:
            continue
        answer = _text(data, f"same_{index}") if _text(data, f"same_{index}_for") == name else ""
        if answer == "new":
            continue
        picked = next((p for p in alike[name] if answer == str(p.pk)), None)
        if picked is not None:
            seats[index], names[index] = picked, picked.name
        else:
            asks.append(SeatAsk(index, name, alike[name]))
    return asks


def _game_new(request: HtmxHttpRequest, club: Club | None) -> HttpResponse:
    season = club_current_season(club) if club is not None else None
    players = list(club_players_recent_first(club)) if club is not None else []
    data = request.POST if request.method == "POST" else request.GET
    errors: dict[str, list[str]] = {}
    # A GET shows the season's rules; any POST (a refresh or the start) reads the form.
    rules_form = _rules_form(data, season, bound=request.method == "POST")
    fallback = rules_build(dict(season.rules or {})) if season is not None else Rules()
    rules = rules_form.rules_or(fallback)
    if rules_form.is_bound and rules_form.errors:
        errors["rules"] = [_("Check the rules.")]
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
    # The day played: today (the club's day) unless the scorer says otherwise, e.g. a game
    # typed in from paper the morning after.
    played_on_text = _text(data, "played_on")
    played_on = timezone.localdate()
    if played_on_text:
        try:
            played_on = played_on_read(played_on_text)
        except KaiserError as error:
            errors["played_on"] = [error.message]
    pot = club.pot_per_set if club is not None else None
    habits_form = GameHabitsForm(
        data if request.method == "POST" else None,
        initial={"pot_per_set": None if pot is None else cents_decimal(pot)},
    )
    if habits_form.is_bound and not habits_form.is_valid():
        errors["habits"] = [_("Check the card passing and the pot.")]
    wants_start = request.method == "POST" and "start" in data
    starting = wants_start and not errors
    if starting:
        for seat, name in enumerate(names):
            if name:
                try:
                    name_check(name, field=f"seat_{seat}", max_length=MAX_SEAT_NAME)
                except InputError as error:
                    errors.setdefault("seats", []).append(
                        _("Seat %(n)s: %(error)s") % {"n": seat + 1, "error": error.message}
                    )
    # The key from the name (loaded), not the stored `name_key` (deferred: one query each).
    by_name = {name_key(player.name): player for player in players}
    seats: list[Player | str] = [by_name.get(name_key(name), name) for name in names]
    asks: list[SeatAsk] = []
    if club is not None and request.method == "POST":
        asks = _walk_ins_settle(club, data, names, seats)
    if starting and not errors and not asks:
        # game_start refuses an empty seat and one person in two seats.
        try:
            game = game_start(
                seats=seats,
                rules=rules,
                club=club,
                season=season,
                first_dealer=first_dealer,
                table_label=table_label,
                created_by=request.user if request.user.is_authenticated else None,
                habits=habits_form.habits(),
                played_on=played_on,
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
        "rules_form": rules_form,
        "habits_form": habits_form,
        "passings": passing_choices(),
        "season_rules": (
            _("The rules of %(season)s: %(rules)s")
            % {"season": season, "rules": rules_describe(fallback)}
            if season is not None
            else ""
        ),
        "rules": rules,
        "seats": [
            (seat, label, name, rules.side_of(seat))
            for seat, (label, name) in enumerate(zip(_seat_labels(rules), names, strict=True))
        ],
        "partners": _partners_text(rules),
        "first_dealer": first_dealer,
        "table_label": table_label,
        "asks": asks,
        "played_on": played_on_text if "played_on" in errors else played_on.isoformat(),
        "played_on_latest": played_on_latest().isoformat(),
        "errors": errors,
    }
    status = 422 if wants_start and errors else 200
    template = "scorecards/game_new.html"
    if request.htmx:
        template += "#game-form"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def club_game_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Start a game at a club: its players (recent first) or walk-ins by name."""
    access = club_for_member(request, slug, GAME_START)
    return _game_new(request, access.club)


@require_http_methods(["GET", "POST"])
def quick_game_new(request: HtmxHttpRequest) -> HttpResponse:
    """A quick game for any signed-in user: typed names, no club."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _game_new(request, None)
