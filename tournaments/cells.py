"""django-tables2's table, column and row, with the work django-tables2 does for every
cell from its column alone done once per table: the listings of `tables` are made of
these."""

from __future__ import annotations

import inspect
from functools import cached_property

import django_tables2 as tables
from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.db import models
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.safestring import mark_safe
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.manytomanycolumn import ManyToManyColumn
from django_tables2.rows import BoundRow, BoundRows
from django_tables2.utils import A, signature


def _declare_signatures(cls, wanted) -> None:
    """Set `__signature__` on the cell methods `cls` itself defines.

    django-tables2 calls a column's `render`/`value` and a table's `render_<column>`/
    `value_<column>` through `call_with_appropriate`, which asks `inspect.signature` which
    of `value`, `record`, `table`... the method takes, once per cell: a third of a long
    table's rendering time went on it. `inspect.signature` returns a function's
    `__signature__` as it is (PEP 362), so the answer is worked out here once per method
    and is the same as it would be per cell."""
    for name, member in vars(cls).items():
        if wanted(name) and inspect.isfunction(member) and "__signature__" not in vars(member):
            member.__signature__ = inspect.signature(member)


def _is_table_cell_method(name: str) -> bool:
    return name.startswith(("render_", "value_"))


class Table(tables.Table):
    """django-tables2's table, its per-column work done once per table rather than once
    per cell.

    - The row template (`tournaments/partials/table.html`) writes a row's cells with
      `Row.html`, each `<td>` with its column's attributes as worked out once per table
      (`cell_plan`). That needs the attributes to be the same on every row, so callables
      in them, which django-tables2 calls per cell with the record, are refused when the
      table is drawn (`before_render`, run by `as_html` and `{% render_table %}` alike);
      so is `localize`, which a cell leaves to Django's own per-value localisation.
    - The `render_<column>`/`value_<column>` methods declare their signature once (see
      `_declare_signatures`), and a row reads the arguments of each column's `render`
      from its table (`render_arguments`)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _declare_signatures(cls, _is_table_cell_method)

    def before_render(self, request):
        super().before_render(request)
        for column in self.columns:
            attrs = {**self.attrs, **column.column.attrs}
            cell = attrs.get("td", attrs.get("cell", {}))
            if any(callable(value) for value in cell.values()):
                raise ImproperlyConfigured(f"Column {column.name!r}: cell attributes vary by row")
            if column.localize is not None:
                raise ImproperlyConfigured(f"Column {column.name!r}: localize is not supported")

    @property
    def paginated_rows(self):
        rows = super().paginated_rows
        return Rows(rows.data, table=self, pinned_data=rows.pinned_data)

    @cached_property
    def cell_plan(self) -> list[tuple]:
        """Each shown column with the attributes of its `<td>`, for `Row.html`."""
        return [(column, column.attrs["td"].as_html()) for column in self.columns]

    @cached_property
    def render_arguments(self) -> dict[str, tuple[str, ...] | None]:
        """The arguments each column's `render` takes (None: any), as django-tables2 reads
        them, by column name."""
        arguments = {}
        for column in self.columns.iterall():
            args, keywords = signature(column.render)
            arguments[column.name] = None if keywords else args
        return arguments

    def accessor_parts(self, bound_column) -> tuple[A, A, str]:
        """A column's accessor, the path to its last step and that step."""
        parts = self._accessor_parts.get(bound_column.name)
        if parts is None:
            accessor = A(bound_column.accessor)
            path, _separator, remainder = accessor.rpartition(accessor.SEPARATOR)
            parts = self._accessor_parts[bound_column.name] = (accessor, A(path), remainder)
        return parts

    def display_method(self, bound_column, record_class, penultimate_class, remainder: str):
        """The name of the `get_<field>_display` method that shows a column's value, when
        its accessor ends in a model field with choices (as django-tables2 decides it for
        each cell), for records of this class."""
        key = (bound_column.name, record_class, penultimate_class)
        if key not in self._display_methods:
            name = None
            try:
                field = A(bound_column.accessor).get_field(record_class)
                method = f"get_{remainder}_display"
                if getattr(field, "choices", ()) and hasattr(penultimate_class, method):
                    name = method
            except FieldDoesNotExist:
                pass
            self._display_methods[key] = name
        return self._display_methods[key]

    @cached_property
    def _accessor_parts(self) -> dict:
        return {}

    @cached_property
    def _display_methods(self) -> dict:
        return {}

    @cached_property
    def cell_context(self) -> Context:
        # What a template's `{{ cell }}` writes with: escaped, localised as Django does.
        return Context()


class Row(BoundRow):
    """django-tables2's row, which also writes its cells in one go (`html`), with what
    django-tables2 works out per cell (the column by its name, the arguments its `render`
    takes, the template's variables) taken from its table, worked out there once."""

    @property
    def html(self) -> str:
        context, cells = self._table.cell_context, []
        for column, td_attrs in self._table.cell_plan:
            value = self._get_and_render_with(column, self._call_render, column.default)
            cells.append(f"<td {td_attrs}>{render_value_in_context(value, context)}</td>")
        return mark_safe("".join(cells))

    def _get_and_render_with(self, bound_column, render_func, default):
        # django-tables2's, with what it works out from the column and the class of record
        # alone (the accessor split at its last step; whether that step is a model field
        # with choices, shown by `get_<field>_display`) read from the table.
        record = self._record
        accessor, path, remainder = self._table.accessor_parts(bound_column)
        penultimate = path.resolve(record, quiet=True) if path else record
        value = None
        if isinstance(penultimate, models.Model):
            display = self._table.display_method(
                bound_column, type(record), type(penultimate), remainder
            )
            if display is not None:
                value = getattr(penultimate, display)()
                remainder = None
        if remainder:
            try:
                value = accessor.resolve(record)
            except Exception:
                # As django-tables2 does for a column that is not a field (its issue #257).
                if isinstance(bound_column.column, BaseLinkColumn) and (
                    bound_column.column.text is not None
                ):
                    return render_func(bound_column)
        column = bound_column.column
        if value in column.empty_values or (
            isinstance(column, ManyToManyColumn) and not value.exists()
        ):
            return default
        return render_func(bound_column, value)

    def _call_render(self, bound_column, value=None):
        # django-tables2's `call_with_appropriate`, with the signature read once per table.
        args = self._table.render_arguments[bound_column.name]
        if args is None or bound_column.link:
            return super()._call_render(bound_column, value)
        offered = {"value": value, "record": self._record}
        kwargs = {}
        for name in args:
            if name in offered:
                kwargs[name] = offered[name]
            elif name in CELL_ARGUMENTS:
                kwargs[name] = self._optional_cell_arguments(bound_column, value)[name]
            else:
                return None  # as django-tables2 does when it cannot give an argument
        return bound_column.render(**kwargs)


CELL_ARGUMENTS = frozenset({"column", "bound_column", "bound_row", "table"})


class Rows(BoundRows):
    """django-tables2's rows, made of `Row`s."""

    def __iter__(self):
        yield from self.generator_pinned_row(self.pinned_data.get("top"))
        for record in self.data:
            yield Row(record, table=self.table)
        yield from self.generator_pinned_row(self.pinned_data.get("bottom"))


class Column(tables.Column):
    """django-tables2's column; it and its subclasses declare the signatures of their
    `render` and `value` once (see `_declare_signatures`). Its own `render` and `value` do
    what django-tables2's do, defined here so that they carry a declared signature too."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _declare_signatures(cls, {"render", "value"}.__contains__)

    def render(self, value):
        return value

    def value(self, **kwargs):
        return super().value(**kwargs)


_declare_signatures(Column, {"render", "value"}.__contains__)
