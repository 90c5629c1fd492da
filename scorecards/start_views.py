"""Starting a game: at a club (its players, the season's rules by default) or a quick game with
typed names and no club. Every game gets a table link (and QR code) for the other phones.
Thin views: the forms (`GameStartForm`, `RulesForm`, `GameHabitsForm`) read the page, one
service call (`game_open`) starts the game with its link in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kaiser_league.http import HtmxHttpRequest
from kaiser_league.inputs import number_or_none
from leagues.clubs.access import club_for_member
from leagues.clubs.models import Club, Player, Season, name_key
from leagues.clubs.name_match import players_alike
from leagues.clubs.roles import GAME_START
from leagues.clubs.selectors import club_current_season
from scorecards.habits import GameHabitsForm, passing_choices
from scorecards.list_words import semicolon_join
from scorecards.models import Game
from scorecards.played_on import played_on_latest
from scorecards.pot import cents_decimal
from scorecards.rules import KaiserError, Rules, rules_build
from scorecards.rules.catalogue import rules_describe
from scorecards.rules_form import RulesForm
from scorecards.selectors import club_players_recent_first, rules_compact
from scorecards.services.start import game_open
from scorecards.start_forms import GameStartForm, rematch_data


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
    return _("Partners (sitting opposite): seats %(groups)s.") % {"groups": semicolon_join(groups)}


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


def _earlier_game(request: HtmxHttpRequest, club: Club | None) -> Game | None:
    """The game named by `after` (a rematch: "new game, same seats"), if this person may start
    its like: a game of this club (the caller checked the club's membership), or a quick game
    this account started. None when no game is named; Http404 for anyone else's."""
    game_id = number_or_none(request.GET, "after", minimum=1, maximum=2**31 - 1)
    if game_id is None:
        return None
    games = Game.objects.prefetch_related("seats__player")
    if club is not None:
        game = games.filter(pk=game_id, club=club).first()
    else:
        game = games.filter(pk=game_id, club__isnull=True, created_by_id=request.user.pk).first()
    if game is None:
        raise Http404("No such game")
    return game


def _game_new(request: HtmxHttpRequest, club: Club | None) -> HttpResponse:
    season = club_current_season(club) if club is not None else None
    players = club_players_recent_first(club) if club is not None else []
    posted = request.method == "POST"
    data: Any = request.POST if posted else request.GET
    earlier = None if posted else _earlier_game(request, club)
    # A GET shows the season's rules (a rematch: the earlier game's, its seats and habits, the
    # deal moved on); any POST (a refresh or the start) reads the forms.
    rules_form = _rules_form(data, season, bound=posted)
    fallback = rules_build(dict(season.rules or {})) if season is not None else Rules()
    rules = rules_form.rules_or(fallback)
    habits_initial = {}
    if earlier is not None:
        rules_form = RulesForm(None, base=rules_compact(earlier.rules))
        rules = earlier.rules_value
        data = QueryDict(mutable=True)
        data.update(rematch_data(earlier, rules))
        habits_initial = {"passing": earlier.passing, "kitty": earlier.kitty}
    wants_start = posted and "start" in data
    form = GameStartForm(data, seats=rules.seats, starting=wants_start)
    form.is_valid()
    pot = club.pot_per_set if club is not None else None
    if earlier is not None:
        pot = earlier.pot_per_set
    habits_form = GameHabitsForm(
        data if posted else None,
        initial={"pot_per_set": None if pot is None else cents_decimal(pot), **habits_initial},
    )
    errors = form.errors_by_part()
    if rules_form.is_bound and rules_form.errors:
        errors["rules"] = [_("Check the rules.")]
    if habits_form.is_bound and not habits_form.is_valid():
        errors["habits"] = [_("Check the card passing and the pot.")]
    names = [_text(data, f"seat_{seat}") for seat in range(rules.seats)]
    move = form.value("move")
    if posted and move is not None:
        # Tap order: the arrow moves a player one seat up (works without JavaScript).
        names[move - 1], names[move] = names[move], names[move - 1]
    first_dealer = form.value("first_dealer") or 0
    table_label = form.value("table_label", _text(data, "table_label"))
    played_on = form.value("played_on", timezone.localdate())
    # The key from the name (loaded), not the stored `name_key` (deferred: one query each).
    by_name = {name_key(player.name): player for player in players}
    seats: list[Player | str] = [by_name.get(name_key(name), name) for name in names]
    asks: list[SeatAsk] = []
    if club is not None and posted:
        asks = _walk_ins_settle(club, data, names, seats)
    if wants_start and not errors and not asks:
        # One service call, one transaction: the game, its seats and its table link.
        try:
            game = game_open(
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
        "played_on": _text(data, "played_on") if "played_on" in errors else played_on.isoformat(),
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
