"""django-tables2 tables of the standings and ratings snapshots (sortable, paginated, exported
to CSV and XLSX). They only display stored snapshot rows: nothing is computed here."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any
from urllib.parse import quote

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from kaiser_league.collation import name_key
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
EXPORT_FORMATS = ("csv", "xlsx")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# A spreadsheet reads a cell starting with one of these as a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _export_value(value: Any) -> Any:
    """Numbers stay numbers; everything else is text."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | Decimal):
        return value
    return "" if value is None else str(value)


def _csv_text(value: Any) -> Any:
    # OWASP: a leading single quote makes a spreadsheet show the cell as text, never run it.
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_bytes(rows: list[list[Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([_csv_text(value) for value in row])
    return out.getvalue().encode()


def _xlsx_bytes(rows: list[list[Any]], title: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, TYPE_STRING

    book = Workbook(write_only=False)
    sheet = book.active
    sheet.title = re.sub(r"[\\/*?:\[\]]", "-", title)[:31] or "Export"
    for row in rows:
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in row])
    for row in sheet.iter_rows():
        for cell in row:
            if cell.data_type == "f":
                # openpyxl reads a text starting with "=" as a formula; store it as the text it is.
                cell.data_type = TYPE_STRING
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def attachment_header(filename: str) -> str:
    """A Content-Disposition value for a download named `filename`, whatever it holds (RFC 6266:
    an ASCII `filename` for old clients and the exact UTF-8 name in `filename*`). Control
    characters are dropped; quotes, backslashes and non-Latin-1 letters are safe."""
    clean = "".join(ch for ch in filename if unicodedata.category(ch)[0] != "C").strip()
    clean = clean or "export"
    ascii_name = unicodedata.normalize("NFKD", clean).encode("ascii", "ignore").decode()
    ascii_name = re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_name).strip("_.") or "export"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(clean, safe='')}"


def table_export(table: tables.Table, export_format: str, name: str) -> HttpResponse:
    """The whole table (every row, not one page) as a CSV or XLSX download named `name`.ext.
    Numbers are written as numbers; a text that a spreadsheet would run as a formula is written
    as text."""
    rows = [[_export_value(value) for value in row] for row in table.as_values()]
    if export_format == "xlsx":
        body = _xlsx_bytes(rows, str(table.Meta.model._meta.verbose_name_plural).title())
    else:
        body = _csv_bytes(rows)
    response = HttpResponse(body, content_type=CONTENT_TYPES[export_format])
    response["Content-Disposition"] = attachment_header(f"{name}.{export_format}")
    return response


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
    """A decimal figure in the language's number format ("6.8", "6,8"), on the page and in CSV;
    XLSX gets the number itself (the spreadsheet formats it for its reader)."""

    def __init__(self, *args: Any, places: int, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)
        self.places = places

    def render(self, value: float) -> str:
        return number_format(value, self.places, use_l10n=True)

    def value(self, value: float, table: tables.Table | None = None, **kwargs: Any) -> Any:
        if getattr(table, "export_format", None) == "xlsx":
            return round(value, self.places)
        return self.render(value)


class _Figures(tables.Table):
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    wins = tables.Column(verbose_name=_("Wins"), attrs=NUM)
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

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No counted games yet.")
        order_by = ("-wins", "-win_pct")


def _player_link(club_slug: str, player_id: int, name: str) -> str:
    url = reverse("player_detail", kwargs={"slug": club_slug, "player_id": player_id})
    return format_html('<a href="{}">{}</a>', url, name)


class PlayerStandingTable(_Figures):
    player = tables.Column(verbose_name=_("Player"), order_by=("name_sort",))

    class Meta(_Figures.Meta):
        model = PlayerStanding
        fields = ("player",)
        sequence = ("player", "...")

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
        sequence = ("partnership", "...")

    def render_partnership(self, record: PartnershipStanding) -> str:
        return format_html(
            "{} &amp; {}",
            _player_link(self.club_slug, record.first_id, record.first.name),
            _player_link(self.club_slug, record.second_id, record.second.name),
        )

    def value_partnership(self, record: PartnershipStanding) -> str:
        return f"{record.first.name} & {record.second.name}"


class PlayerRatingTable(tables.Table):
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
