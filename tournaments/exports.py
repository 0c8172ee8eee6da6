"""Tables as CSV, XLSX and JSON files that are safe to open in a spreadsheet.

A player may call themselves `=HYPERLINK("http://evil","Click")`: a spreadsheet that opens
the export would run that as a formula. Every text cell that begins with a formula
character is therefore neutralised (CSV: a leading apostrophe, which spreadsheets read as
"this is text" ; XLSX: a text cell marked with the quote prefix, which shows the name as it
is and keeps it text when edited). Numbers are written as numbers in every format: the
match points exactly, the rank as a whole number.

Each export is cached under the event's results token, like the standings themselves, so
that asking for the same file again costs no more than a cached page.

CSV and XLSX headers are in the language of the page the file was asked from; the JSON
export is for scripts, so its keys (and its words) are always English.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from decimal import Decimal

from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "json": "application/json",
}
CACHE_SECONDS = 60 * 60
# Excel reads a CSV as UTF-8 only when it starts with this mark; without it, "Ōno" and
# "山田" come out garbled.
BOM = "\ufeff"


# "-12.5", "+3", "-1,000": a signed number a spreadsheet may read as a number, harmlessly.
SIGNED_NUMBER = re.compile(r"[+-](\d[\d,]*(\.\d+)?|\.\d+)")


def is_formula_like(value) -> bool:
    """True for text a spreadsheet would take as a formula.

    >>> is_formula_like("=1+1"), is_formula_like("-12.5"), is_formula_like("-x"), is_formula_like(3)
    (True, False, True, False)
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return False
    if SIGNED_NUMBER.fullmatch(value):
        return False
    return True


def neutralise(value):
    """A CSV cell that a spreadsheet shows as text: "=1+1" -> "'=1+1"; numbers unchanged.

    >>> neutralise("=1+1"), neutralise("@SUM(A1)"), neutralise("Aki"), neutralise(-3)
    ("'=1+1", "'@SUM(A1)", 'Aki', -3)
    """
    return "'" + value if is_formula_like(value) else value


def _json_number(value):
    if isinstance(value, Decimal):
        # A tenth or a hundredth survives the trip through float: repr() prints the
        # shortest decimal that reads back as the same float, which is the one we had.
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _csv(headers, rows) -> bytes:
    stream = io.StringIO()
    stream.write(BOM)
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow([neutralise(header) for header in headers])
    for row in rows:
        writer.writerow([neutralise(value) for value in row])
    return stream.getvalue().encode("utf-8")


def _xlsx(title: str, headers, rows) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = (title or "Export")[:31]
    widths = [len(str(header)) for header in headers]
    for row_number, row in enumerate([headers, *rows], start=1):
        for column, value in enumerate(row, start=1):
            cell = sheet.cell(row=row_number, column=column)
            if isinstance(value, Decimal):
                cell.value = value
                places = max(0, -value.as_tuple().exponent)
                cell.number_format = "0." + "0" * places if places else "0"
            elif isinstance(value, str):
                cell.value = value
                cell.data_type = "s"  # never a formula, whatever it starts with
                if is_formula_like(value):
                    cell.quotePrefix = True
            else:
                cell.value = value
            if row_number == 1:
                cell.font = Font(bold=True)
            widths[column - 1] = max(widths[column - 1], len(str(value or "")))
    sheet.freeze_panes = "A2"
    for column, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = min(width, 60) + 2
    stream = io.BytesIO()
    workbook.save(stream)
    return stream.getvalue()


def table_file(table, export_format: str, title: str) -> bytes:
    """The table (every row, in its current order) as a file of the given format."""
    if export_format == "json":
        with translation.override("en"):
            headers, rows = _values(table)
        records = [dict(zip(headers, row, strict=True)) for row in rows]
        return json.dumps(records, default=_json_number, ensure_ascii=False).encode("utf-8")
    headers, rows = _values(table)
    if export_format == "csv":
        return _csv(headers, rows)
    if export_format == "xlsx":
        return _xlsx(str(title), headers, rows)
    raise ValueError(f"unknown export format {export_format!r}")


def _values(table) -> tuple[list[str], list[list]]:
    """The headers (worded in the active language) and the rows of every cell's value."""
    values = list(table.as_values())
    return [str(header) for header in values[0]], values[1:]


def export_response(request, event, table, *, export_format: str, name: str, title: str):
    """The table as a download, cached for this state of the event's results and this
    exact query (filters, order)."""
    query = hashlib.sha256(request.GET.urlencode().encode()).hexdigest()[:32]
    # The headers of a CSV or XLSX file are in the page's language; JSON is always English.
    language = "en" if export_format == "json" else translation.get_language()
    key = f"export:{event.pk}:{event.results_token}:{name}:{export_format}:{language}:{query}"
    content = cache.get(key)
    if content is None:
        content = table_file(table, export_format, title)
        cache.set(key, content, CACHE_SECONDS)
    response = HttpResponse(content, content_type=CONTENT_TYPES[export_format])
    response["Content-Disposition"] = f'attachment; filename="{name}.{export_format}"'
    return response
