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

import django_tables2 as tables
from django.core.cache import cache
from django.core.exceptions import FieldDoesNotExist, FieldError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils import translation
from django.utils.encoding import force_str
from django.utils.hashable import make_hashable
from django_tables2 import A
from django_tables2.utils import signature

from . import xlsx

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


# Table rows without django-tables2's per-cell work. `Table.as_values()` looks up the
# signature of a column's value function for every cell, which costs about a quarter of a
# millisecond each: seconds for a league's results. The same values are read here with the
# signature looked up once per column, and a queryset is read with one `values_list()`.

CELL_ARGUMENTS = frozenset({"value", "record", "column", "bound_column", "table"})
# What `force_str(value, strings_only=True)` leaves as it is, as django-tables2 exports it.
KEPT_TYPES = frozenset({str, int, float, Decimal, bool, type(None)})


def as_is(function):
    """Mark a column's `value` method as one that exports the value unchanged, so that
    exports skip calling it."""
    function.exports_value_as_is = True
    return function


def of_value(function):
    """Mark a column's `value(self, value, **kwargs)` as depending on the value alone, so
    that exports call it with the value only."""
    function.exports_value_only = True
    return function


class SlowColumn(Exception):
    """A column whose value needs what only django-tables2's own rows give."""


def _converter(table, bound_column, *, records_are_rows: bool):
    """How to export one column: None (the value as it is), or (function, wants_record)
    with function(value) or function(value, record). The column's value function is
    looked at once, here, not once per cell as `as_values()` does."""
    function = bound_column.value
    plain = getattr(function, "__func__", function)
    column = bound_column.column
    if getattr(plain, "exports_value_as_is", False):
        return None
    if plain is tables.Column.value:
        if getattr(column.render, "__func__", None) is tables.Column.render:
            return None
        function = column.render  # what Column.value calls
        plain = getattr(function, "__func__", function)
    names, catch_all = signature(function)
    if getattr(plain, "exports_value_only", False) or (names == ("value",) and not catch_all):
        return function, False
    if not catch_all and not set(names) <= CELL_ARGUMENTS:
        raise SlowColumn(bound_column.name)
    if records_are_rows and (catch_all or "record" in names):
        raise SlowColumn(bound_column.name)
    fixed = {"column": column, "bound_column": bound_column, "table": table}
    if catch_all:
        fixed["bound_row"] = None
    else:
        fixed = {name: fixed[name] for name in names if name in fixed}
    wants_value = catch_all or "value" in names
    wants_record = catch_all or "record" in names

    def call(value, record):
        arguments = dict(fixed)
        if wants_value:
            arguments["value"] = value
        if wants_record:
            arguments["record"] = record
        return function(**arguments)

    return call, True


def _choices(queryset, accessor) -> dict | None:
    """The display names of a field with choices, as django-tables2 shows them."""
    field = accessor.get_field(queryset.model)
    if field is None or not getattr(field, "choices", None):
        return None
    return {make_hashable(key): force_str(label) for key, label in field.flatchoices}


EMPTY = object()  # a cell django-tables2 counts as empty: exported as None, never converted


def _column(values: list, records, empty_values, converter) -> list:
    """One column's exported values, as `as_values()` gives them cell by cell."""
    if tuple(empty_values) == (None, ""):
        # The usual empties, found without comparing every number with "".
        values = [
            EMPTY if value is None or (value.__class__ is str and not value) else value
            for value in values
        ]
    else:
        values = [EMPTY if value in empty_values else value for value in values]
    if converter is None:
        values = [None if value is EMPTY else value for value in values]
    else:
        function, wants_record = converter
        if wants_record:
            values = [
                None if value is EMPTY else function(value, record)
                for value, record in zip(values, records, strict=True)
            ]
        else:
            values = [None if value is EMPTY else function(value) for value in values]
    if not set(map(type, values)) <= KEPT_TYPES:
        values = [force_str(value, strings_only=True) for value in values]
    return values


def table_values(table) -> tuple[list, list]:
    """The headers and rows of `table.as_values()`, in the table's current order, read
    fast: a queryset with one query of plain values, a list of dicts as it is."""
    columns = [c for c in table.columns.iterall() if not c.column.exclude_from_export]
    headers = [force_str(c.header, strings_only=True) for c in columns]
    data = table.data.data
    try:
        if isinstance(data, QuerySet):
            rows = _queryset_rows(table, columns, data)
        else:
            rows = _record_rows(table, columns, list(data))
    except SlowColumn:
        values = list(table.as_values())
        return values[0], values[1:]
    return headers, rows


def _queryset_rows(table, columns, queryset) -> list:
    accessors = [A(bound_column.accessor) for bound_column in columns]
    converters = [_converter(table, c, records_are_rows=True) for c in columns]
    try:
        rows = list(queryset.values_list(*("__".join(a.bits) for a in accessors)))
    except (FieldError, FieldDoesNotExist) as err:
        raise SlowColumn(str(err)) from err
    if not rows:
        return []
    exported = []
    for values, accessor, bound_column, converter in zip(
        zip(*rows, strict=True), accessors, columns, converters, strict=True
    ):
        display = _choices(queryset, accessor)
        if display is not None:
            values = [
                value if value is None else display.get(make_hashable(value), value)
                for value in values
            ]
        exported.append(_column(values, None, bound_column.column.empty_values, converter))
    return list(zip(*exported, strict=True))


def _record_rows(table, columns, records: list) -> list:
    if not records:
        return []
    if not all(isinstance(record, dict) for record in records):
        # Model instances may show a field's choices by name: django-tables2 knows how.
        raise SlowColumn("records that are not dicts")
    exported = []
    for bound_column in columns:
        accessor = A(bound_column.accessor)
        if len(accessor.bits) == 1:
            values = [record.get(accessor) for record in records]
        else:
            values = []
            for record in records:
                try:
                    values.append(accessor.resolve(record))
                except Exception:  # as django-tables2 does: a missing value is empty
                    values.append(None)
        converter = _converter(table, bound_column, records_are_rows=False)
        exported.append(_column(values, records, bound_column.column.empty_values, converter))
    return list(zip(*exported, strict=True))


def _csv(headers, rows) -> bytes:
    stream = io.StringIO()
    stream.write(BOM)
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow([neutralise(header) for header in headers])
    writer.writerows(
        [
            "'" + value if value.__class__ is str and is_formula_like(value) else value
            for value in row
        ]
        for row in rows
    )
    return stream.getvalue().encode("utf-8")


def _xlsx(title: str, headers, rows) -> bytes:
    widths = [len(str(header)) for header in headers]
    for row in rows:
        for column, value in enumerate(row):
            length = len(str(value or ""))
            if length > widths[column]:
                widths[column] = length
    return xlsx.sheet(
        (title or "Export")[:31],
        headers,
        rows,
        widths=[min(width, 60) + 2 for width in widths],
        quoted=is_formula_like,
    )


def table_file(table, export_format: str, title: str) -> bytes:
    """The table (every row, in its current order) as a file of the given format."""
    if export_format == "json":
        with translation.override("en"):
            headers, rows = table_values(table)
        headers = [str(header) for header in headers]
        records = [dict(zip(headers, row, strict=True)) for row in rows]
        return json.dumps(records, default=_json_number, ensure_ascii=False).encode("utf-8")
    headers, rows = table_values(table)
    headers = [str(header) for header in headers]
    if export_format == "csv":
        return _csv(headers, rows)
    if export_format == "xlsx":
        return _xlsx(str(title), headers, rows)
    raise ValueError(f"unknown export format {export_format!r}")


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
