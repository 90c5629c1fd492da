"""The standings and ratings tables as files a club secretary opens in a spreadsheet, and the
one rounding that the page and the files share.

- A decimal figure is rounded once, half up to the decimals shown, with `Decimal` (`shown`):
  the page, the CSV and the XLSX show the same number (4.6917 shown to one place is 4.7 in all
  three).
- Numbers stay numbers. Only text is guarded against formula injection (OWASP "CSV injection"):
  a text starting with = + - @, a tab or a carriage return gets a leading single quote in CSV,
  and is stored as a text cell in XLSX. A negative number is a number, never guarded.
- CSV: UTF-8 with a byte order mark (without it Excel reads the file in the machine's code page:
  "BenoÃ®t"); the language's decimal mark and the list separator that goes with it, as Excel set
  up for that language reads them: "," between cells and "." in numbers in English, ";" between
  cells and "," in numbers in French. Dates are ISO (2026-09-14), which Excel reads as dates.
- XLSX: numbers as number cells, formatted with the decimals the page shows; dates as date cells
  with a date format.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from urllib.parse import quote

from django.http import HttpResponse
from django.utils import timezone
from django.utils.formats import get_format
from django_tables2 import Table

EXPORT_FORMATS = ("csv", "xlsx")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# A spreadsheet reads a text cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
XLSX_DATE = "yyyy-mm-dd"
XLSX_DATETIME = "yyyy-mm-dd hh:mm"


def shown(value: float | int | Decimal, places: int) -> Decimal:
    """`value` as the tables show it: rounded half up to `places` decimals. The float's shortest
    text is what is rounded (2.675 gives 2.68, where binary rounding gives 2.67), and a figure
    that rounds to zero has no sign (-0.04 to one place is 0.0, not -0.0)."""
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    if not exact.is_finite():
        return exact
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return rounded if rounded else rounded.copy_abs()


def decimal_mark() -> str:
    """The active language's decimal mark ("." in English, "," in French)."""
    return str(get_format("DECIMAL_SEPARATOR"))


def csv_delimiter() -> str:
    """The cell separator a spreadsheet of the active language expects: ";" where the decimal
    mark is a comma (a comma cannot be both), "," otherwise."""
    return ";" if decimal_mark() == "," else ","


def export_value(value: Any) -> Any:
    """A cell as the files take it: text, a whole number, a `Decimal` already rounded to the
    places shown, or a date; nothing else (None is an empty text)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | Decimal | datetime.date):
        return value
    if isinstance(value, float):
        # A float the table did not round: its shortest text, as the page would print it.
        return Decimal(repr(value))
    return "" if value is None else str(value)


def _csv_cell(value: Any, mark: str) -> str:
    if isinstance(value, str):
        # A leading single quote makes a spreadsheet show the text, never run it.
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, Decimal):
        return format(value, "f").replace(".", mark)
    if isinstance(value, datetime.datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return local.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def csv_bytes(rows: list[list[Any]]) -> bytes:
    """`rows` (of `export_value` cells) as CSV for the active language, UTF-8 with a BOM."""
    mark = decimal_mark()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=csv_delimiter(), quoting=csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([_csv_cell(value, mark) for value in row])
    return out.getvalue().encode("utf-8-sig")


def _xlsx_cell(cell: Any, value: Any) -> None:
    """Set an openpyxl cell to `value` with the format that shows it as the page does."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, TYPE_STRING

    if isinstance(value, str):
        cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
        # openpyxl reads a text starting with "=" as a formula; store it as the text it is.
        cell.data_type = TYPE_STRING
    elif isinstance(value, Decimal):
        places = max(0, -int(value.as_tuple().exponent))
        cell.value = float(value)
        cell.number_format = "0." + "0" * places if places else "0"
    elif isinstance(value, datetime.datetime):
        if timezone.is_aware(value):
            value = timezone.make_naive(value)
        cell.value = value
        cell.number_format = XLSX_DATETIME
    elif isinstance(value, datetime.date):
        cell.value = value
        cell.number_format = XLSX_DATE
    else:
        cell.value = value


def xlsx_bytes(rows: list[list[Any]], title: str) -> bytes:
    """`rows` (of `export_value` cells) as one XLSX sheet named `title`, the header row frozen."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = re.sub(r"[\\/*?:\[\]]", "-", title)[:31] or "Export"
    widths: dict[int, int] = {}
    for row_number, row in enumerate(rows, start=1):
        for column_number, value in enumerate(row, start=1):
            cell = sheet.cell(row=row_number, column=column_number)
            _xlsx_cell(cell, value)
            if row_number == 1:
                cell.font = Font(bold=True)
            shown_width = len(_csv_cell(value, "."))
            widths[column_number] = max(widths.get(column_number, 0), shown_width)
    for column_number, width in widths.items():
        # Wide enough for the longest cell: a date in a narrow column shows as "#####".
        sheet.column_dimensions[get_column_letter(column_number)].width = min(width + 2, 50)
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


def table_rows(table: Table) -> list[list[Any]]:
    """The whole table (every row in its sort order, not one page), header first, each cell as
    its column's `value` gives it (`export_value`)."""
    columns = [c for c in table.columns.iterall() if not c.column.exclude_from_export]
    rows = [[str(column.header) for column in columns]]
    for row in table.rows:
        rows.append([export_value(row.get_cell_value(column.name)) for column in columns])
    return rows


def table_export(
    table: Table,
    export_format: str,
    name: str,
    apart: Table | None = None,
    apart_heading: str = "",
) -> HttpResponse:
    """The table as a CSV or XLSX download named `name`.ext (see the module's docstring).
    With `apart` (the players not yet ranked, listed apart as on the page): after the table, a
    row holding `apart_heading` alone, then that table, its header again."""
    rows = table_rows(table)
    if apart is not None:
        rows += [[apart_heading], *table_rows(apart)]
    if export_format == "xlsx":
        body = xlsx_bytes(rows, str(table.Meta.model._meta.verbose_name_plural).title())
    else:
        body = csv_bytes(rows)
    response = HttpResponse(body, content_type=CONTENT_TYPES[export_format])
    response["Content-Disposition"] = attachment_header(f"{name}.{export_format}")
    return response
