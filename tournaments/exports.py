"""Tables as CSV, XLSX and JSON files that are safe to open in a spreadsheet.

A player may call themselves `=HYPERLINK("http://evil","Click")`: a spreadsheet that opens
the export would run that as a formula. Every text cell that begins with a formula
character is therefore neutralised (CSV: a leading apostrophe, which spreadsheets read as
"this is text" ; XLSX: a text cell marked with the quote prefix, which shows the name as it
is and keeps it text when edited). Numbers are written as numbers in every format: the
match points exactly, the rank as a whole number.

The files are django-tables2's exports (`TableExport`, the table's `as_values()` written by
tablib); `SafeExport` adds only what safety and exact numbers need.

Each export is cached under the event's results token, like the standings themselves, so
that asking for the same file again costs no more than a cached page.

CSV and XLSX headers are in the language of the page the file was asked from; the JSON
export is for scripts, so its keys (and its words) are always English.
"""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal

import tablib
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django_tables2.export import TableExport
from tablib.formats import registry

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CONTENT_TYPES = {name: TableExport.FORMATS[name] for name in ("csv", "xlsx", "json")}
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


# Characters an XLSX cell cannot hold at all (openpyxl refuses them); tab, line feed and
# carriage return may stay.
NOT_IN_XLSX = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Column widths of the XLSX sheet, in characters: the longest cell, within bounds.
MAX_WIDTH = 60
WIDTH_MARGIN = 2


def number_format(value: Decimal) -> str:
    """The format that shows a decimal with its own places: "0.0" for -83.0, "0" for 5.

    >>> number_format(Decimal("-83.0")), number_format(Decimal("2.33")), number_format(Decimal(5))
    ('0.0', '0.00', '0')
    """
    places = max(0, -value.as_tuple().exponent)
    return "0." + "0" * places if places else "0"


class SafeXLSX(registry.get_format("xlsx")):
    """tablib's XLSX sheet, with text that looks like a formula kept as text (marked with
    the quote prefix, as Excel marks text typed after an apostrophe), decimals shown with
    their own places, and each column as wide as its longest cell."""

    @classmethod
    def dset_sheet(cls, dataset, ws, freeze_panes=True, escape=False):
        super().dset_sheet(dataset, ws, freeze_panes=freeze_panes, escape=escape)
        widths = [len(str(header)) for header in dataset.headers]
        for row in ws.iter_rows(min_row=2):
            for index, cell in enumerate(row):
                value = cell.value
                if isinstance(value, str):
                    # Text, never a formula ("=1+2") or an error value ("#N/A").
                    cell.data_type = "s"
                    if is_formula_like(value):
                        cell.quotePrefix = True
                elif isinstance(value, Decimal):
                    cell.number_format = number_format(value)
                elif value is None:
                    continue
                widths[index] = max(widths[index], len(str(value)))
        for header, width in zip(ws[1], widths, strict=False):
            ws.column_dimensions[header.column_letter].width = min(width, MAX_WIDTH) + WIDTH_MARGIN


class SafeExport(TableExport):
    """django-tables2's export of a table, safe to open in a spreadsheet: CSV cells that
    look like formulas get a leading apostrophe (and the file the mark that makes Excel
    read it as UTF-8), XLSX cells are marked as text (`SafeXLSX`), and JSON keeps names
    exactly and numbers as numbers, with English keys."""

    def __init__(self, export_format: str, table, *, title: str):
        language = "en" if export_format == "json" else translation.get_language()
        with translation.override(language):
            super().__init__(export_format, table, dataset_kwargs={"title": title[:31]})

    def export(self) -> bytes:
        dataset = self.dataset
        if self.format == "csv":
            safe = tablib.Dataset(
                *([neutralise(value) for value in row] for row in dataset),
                headers=[neutralise(header) for header in dataset.headers],
            )
            return (BOM + safe.export("csv")).encode("utf-8")
        if self.format == "xlsx":
            if any(isinstance(v, str) and NOT_IN_XLSX.search(v) for r in dataset for v in r):
                dataset = tablib.Dataset(
                    *([_xlsx_text(value) for value in row] for row in dataset),
                    headers=dataset.headers,
                    title=dataset.title,
                )
            return SafeXLSX.export_set(dataset, column_width=None)
        if self.format == "json":
            return json.dumps(dataset.dict, default=_json_number, ensure_ascii=False).encode()
        raise ValueError(f"unknown export format {self.format!r}")


def _xlsx_text(value):
    return NOT_IN_XLSX.sub("", value) if isinstance(value, str) else value


def table_file(table, export_format: str, title: str) -> bytes:
    """The table (every row, in its current order) as a file of the given format."""
    return SafeExport(export_format, table, title=str(title)).export()


def export_key(
    event, table, *, export_format: str, name: str, variant: str = "", version: str = ""
) -> str:
    """The cache key of a table's file.

    It holds what the file depends on and nothing else: the table's order as
    django-tables2 understood it (an unknown `?sort=` is the default order), `variant`
    (the view's cleaned filters) and the language of the headers. An address with extra
    parameters therefore finds the same file instead of building a new one.
    """
    order = ",".join(str(alias) for alias in table.order_by or ())
    shape = hashlib.sha256(f"{order}|{variant}".encode()).hexdigest()[:32]
    # The headers of a CSV or XLSX file are in the page's language; JSON is always English.
    language = "en" if export_format == "json" else translation.get_language()
    # A table that counts games still going gives the play token as its `version`.
    version = version or event.results_token
    return f"export:{event.pk}:{version}:{name}:{export_format}:{language}:{shape}"


def cached_response(
    event, table, *, export_format: str, name: str, variant: str = "", version: str = ""
):
    """The file as a download if it was built already for this state of results, else
    None. `table` need only know its columns and order, not its rows."""
    key = export_key(
        event, table, export_format=export_format, name=name, variant=variant, version=version
    )
    content = cache.get(key)
    return None if content is None else download(content, export_format, name)


def export_response(
    request,
    event,
    table,
    *,
    export_format: str,
    name: str,
    title: str,
    variant: str = "",
    version: str = "",
    key: str = "",
):
    """The table as a download, cached for this state of the event's results (under `key`
    when the view worked it out already, from a table without rows)."""
    key = key or export_key(
        event, table, export_format=export_format, name=name, variant=variant, version=version
    )
    content = cache.get(key)
    if content is None:
        content = table_file(table, export_format, title)
        cache.set(key, content, CACHE_SECONDS)
    return download(content, export_format, name)


def download(content: bytes, export_format: str, name: str) -> HttpResponse:
    """The file `content` as an attachment called `name`."""
    response = HttpResponse(content, content_type=CONTENT_TYPES[export_format])
    response["Content-Disposition"] = f'attachment; filename="{name}.{export_format}"'
    return response
