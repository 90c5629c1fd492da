"""A player's rated games explained (`explain`), read from the stored ratings and summaries:
nothing is rated or scored again here."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

from django.db.models import F, Window
from django.db.models.functions import Lead
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.standings.derived import rating_model
from leagues.standings.explain import GameExplained, RatingValue, game_explain
from leagues.standings.models import GameSummary, RatingPoint


def player_rating_points(player) -> list[RatingPoint]:
    """The player's stored ratings after each rated game, in game order (one query)."""
    return list(RatingPoint.objects.filter(player=player).order_by("seq"))


def player_explanations(
    player, points: list[RatingPoint], game_ids: Iterable[int] | None = None
) -> dict[int, GameExplained]:
    """The explanation (`explain.game_explain`) of each of the player's rated games among
    `game_ids` (all of them when None), by game id. `points` are `player_rating_points`.
    Two queries whatever the number of games: the games' summaries, and the rating of every
    other rated player of those games right before each."""
    wanted = None if game_ids is None else set(game_ids)
    numbered = [
        (number, point)
        for number, point in enumerate(points, 1)
        if wanted is None or point.game_id in wanted
    ]
    if not numbered:
        return {}
    mine_before: dict[int, RatingValue] = {}
    for previous, point in pairwise(points):
        mine_before[point.game_id] = RatingValue(previous.mu, previous.sigma, previous.ordinal)
    ids = [point.game_id for _number, point in numbered]
    summaries = {
        row["game_id"]: row
        for row in GameSummary.objects.filter(game_id__in=ids).values(
            "game_id", "players", "sides", "scores", "winner"
        )
    }
    others = {
        pk
        for row in summaries.values()
        for pk in row["players"]
        if pk is not None and pk != player.pk
    }
    seq_game = {point.seq: point.game_id for _number, point in numbered}
    before: dict[int, dict[int, RatingValue]] = {game_id: {} for game_id in ids}
    # The point right before each game of a player is the one whose next point is that game's.
    rows = (
        RatingPoint.objects.filter(player_id__in=others)
        .annotate(next_seq=Window(Lead("seq"), partition_by=[F("player_id")], order_by="seq"))
        .filter(next_seq__in=list(seq_game))
        .values_list("player_id", "next_seq", "mu", "sigma", "ordinal")
    )
    for pk, next_seq, mu, sigma, ordinal in rows:
        before[seq_game[next_seq]][pk] = RatingValue(mu, sigma, ordinal)
    model = rating_model()
    explained: dict[int, GameExplained] = {}
    for number, point in numbered:
        summary = summaries.get(point.game_id)
        if summary is None:
            continue
        game_before = before[point.game_id]
        if point.game_id in mine_before:
            game_before[player.pk] = mine_before[point.game_id]
        line = game_explain(
            model,
            game_id=point.game_id,
            player=player.pk,
            players=summary["players"],
            sides=summary["sides"],
            scores=summary["scores"],
            winner=summary["winner"],
            before=game_before,
            after=RatingValue(point.mu, point.sigma, point.ordinal),
            number=number,
        )
        if line is not None:
            explained[point.game_id] = line
    return explained


def _names(names: list[str]) -> str:
    names = [name for name in names if name]
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _percent(share: float) -> str:
    return _("%(number)s%%") % {"number": number_format(round(100 * share))}


def rating_change_text(change: float) -> str:
    """The change of the shown rating, signed, one decimal ("+1.4", "−0.3", "±0.0")."""
    shown = round(change, 1)
    number = number_format(abs(shown), decimal_pos=1)
    if shown > 0:
        return f"+{number}"
    return f"\u2212{number}" if shown < 0 else f"\u00b1{number}"


def explanation_text(
    line: GameExplained, partners: list[str], opponents: list[str], name: str, you: bool
) -> str:
    """The explanation in words: "You and Cat were expected to take 46% of the points against
    Bob and Dan; you took 71%: +1.4" (`you`: the viewer is the player), or with the player's
    `name`."""
    values = {
        "side": _names(partners),
        "others": _names(opponents),
        "par": _percent(line.par),
        "took": _percent(line.took),
        "change": rating_change_text(line.change),
        "name": name,
    }
    if you and partners:
        text = _(
            "You and %(side)s were expected to take %(par)s of the points against %(others)s; "
            "you took %(took)s: %(change)s"
        )
    elif you:
        text = _(
            "You were expected to take %(par)s of the points against %(others)s; "
            "you took %(took)s: %(change)s"
        )
    else:
        count = len(partners) + 1
        values["side"] = _names([name, *partners])
        text = ngettext(
            "%(side)s was expected to take %(par)s of the points against %(others)s, "
            "and took %(took)s: %(change)s",
            "%(side)s were expected to take %(par)s of the points against %(others)s, "
            "and took %(took)s: %(change)s",
            count,
        )
    return text % values
