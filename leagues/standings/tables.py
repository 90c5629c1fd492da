"""django-tables2 tables of the standings and ratings snapshots (sortable, paginated, exported
to CSV and XLSX). They only display stored snapshot rows: nothing is computed here."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from kaiser_league.collation import name_key
from leagues.standings.exports import shown
from leagues.standings.models import PartnershipStanding, PlayerRating, PlayerStanding

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def name_ordered_rows(rows: Iterable[Any], name: Callable[[Any], str]) -> list[Any]:
    """The rows as a list in name order (`name_key`), each with a `name_sort` key that the name
    column sorts by. The tables sort a list stably, so rows tied on the figures they are ordered
    by stay in name order."""
    rows = list(rows)
    for row in rows:
        row.name_sort = name_key(name(row))
    rows.sort(key=lambda row: row.name_sort)
    return rows


PER_PAGE = 25


def _order_set(table: tables.Table, value: Any) -> None:
    """The table's order from `?sort=`, with every alias that holds a "." dropped first: no
    column's name has one, and django-tables2 would read it as an old-style accessor path
    (warning that it will refuse it in its next version) before finding no such column."""
    aliases = value.split(",") if isinstance(value, str) else (value or ())
    tables.Table.order_by.fset(table, [a for a in aliases if "." not in a])


class _Sortable(tables.Table):
    """A table sorted by `?sort=` alone through its columns' names, a hostile value ignored."""

    order_by = property(tables.Table.order_by.fget, _order_set)


class _Streak(tables.Column):
    def render(self, value: int) -> str:
        if value > 0:
            return _("W%(n)s") % {"n": value}
        if value < 0:
            return _("L%(n)s") % {"n": -value}
        return "–"

    def value(self, value: int) -> int:
        return value


class _Number(tables.Column):
    """A decimal figure rounded once (`exports.shown`: half up to `places` decimals): on the page
    in the language's number format ("4.7", "4,7"), in the exports as that rounded number."""

    def __init__(self, *args: Any, places: int, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)
        self.places = places

    def render(self, value: float) -> str:
        return number_format(shown(value, self.places), self.places, use_l10n=True)

    def value(self, value: float) -> Decimal:
        return shown(value, self.places)


class _Day(tables.Column):
    """A day: the language's short date on the page, the date itself in the exports (a date
    cell in XLSX). A row without one shows a dash and exports an empty cell."""

    empty_values = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)

    def render(self, value: datetime.date | None) -> str:
        return date_format(value, "SHORT_DATE_FORMAT") if value else "–"

    def value(self, value: datetime.date | None) -> datetime.date | None:
        return value


class _Figures(_Sortable):
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    wins = tables.Column(verbose_name=_("Wins"), attrs=NUM)
    draws = tables.Column(verbose_name=_("Draws"), attrs=NUM)
    win_pct = _Number(verbose_name=_("Win %"), places=1)
    points_for = tables.Column(verbose_name=_("Pts for"), attrs=NUM)
    points_against = tables.Column(verbose_name=_("Pts against"), attrs=NUM)
    avg_points = _Number(verbose_name=_("Avg pts/hand"), places=2)
    bids_made = tables.Column(verbose_name=_("Bids made"), attrs=NUM)
    bids_attempted = tables.Column(verbose_name=_("Bids tried"), attrs=NUM)
    nt_bids_made = tables.Column(verbose_name=_("No-trump made"), attrs=NUM)
    times_set = tables.Column(verbose_name=_("Times set"), attrs=NUM)
    kaisers = tables.Column(verbose_name=_("Kaisers"), attrs=NUM)
    streak = _Streak(verbose_name=_("Streak"), attrs=NUM)
    # The day of the row's latest counted game of the season (set on each row by the view).
    last_played = _Day(verbose_name=_("Last game"), orderable=False)

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No counted games yet.")
        order_by = ("-wins", "-win_pct")


def _player_link(club_slug: str, player_id: int, name: str) -> str:
    url = reverse("player_detail", kwargs={"slug": club_slug, "player_id": player_id})
    return format_html('<a href="{}">{}</a>', url, name)


class PlayerStandingTable(_Figures):
    player = tables.Column(verbose_name=_("Player"), order_by=("name_sort",))
    nights = tables.Column(verbose_name=_("Nights"), attrs=NUM)
    night_wins = tables.Column(verbose_name=_("Night wins"), attrs=NUM)

    class Meta(_Figures.Meta):
        model = PlayerStanding
        fields = ("player",)
        sequence = ("player", "...", "streak", "nights", "night_wins", "last_played")

    def render_player(self, record: PlayerStanding) -> str:
        return _player_link(self.club_slug, record.player_id, record.player.name)

    def value_player(self, record: PlayerStanding) -> str:
        return record.player.name


class PartnershipStandingTable(_Figures):
    partnership = tables.Column(
        verbose_name=_("Partnership"), accessor="first__name", order_by=("name_sort",)
    )

    class Meta(_Figures.Meta):
        model = PartnershipStanding
        fields = ()
        sequence = ("partnership", "...", "streak", "last_played")

    def render_partnership(self, record: PartnershipStanding) -> str:
        return format_html(
            "{} &amp; {}",
            _player_link(self.club_slug, record.first_id, record.first.name),
            _player_link(self.club_slug, record.second_id, record.second.name),
        )

    def value_partnership(self, record: PartnershipStanding) -> str:
        return f"{record.first.name} & {record.second.name}"


class PlayerRatingTable(_Sortable):
    player = tables.Column(verbose_name=_("Player"), order_by=("name_sort",))
    ordinal = _Number(verbose_name=_("Rating"), places=1)
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    mu = _Number(verbose_name="μ", places=2)
    sigma = _Number(verbose_name="σ", places=2)

    class Meta:
        model = PlayerRating
        fields = ("player", "ordinal", "games", "mu", "sigma")
        attrs = {"class": "standings"}
        empty_text = _("No counted games yet.")
        order_by = ("-ordinal",)

    def render_player(self, record: PlayerRating) -> str:
        return _player_link(self.club_slug, record.player_id, record.player.name)

    def value_player(self, record: PlayerRating) -> str:
        return record.player.name
