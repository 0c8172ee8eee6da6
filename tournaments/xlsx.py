"""A one-sheet XLSX file written directly as its XML parts.

openpyxl builds an object for every cell and serialises each through an XML library; for
a league's results (tens of thousands of cells) that takes seconds. The exports need only
a little of the format: one sheet, a bold header row kept in view, column widths, numbers
with a number format, and text cells (inline strings, never formulas) of which some carry
the quote prefix. That is written here with plain string joins, into a file that Excel,
LibreOffice and openpyxl read as they read openpyxl's own.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from xml.sax.saxutils import escape, quoteattr

from openpyxl.utils import get_column_letter

# Characters XML 1.0 cannot carry at all (openpyxl refuses them); tab, line feed and
# carriage return are allowed.
ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Built-in number formats of the format itself; any other gets an id from 164 on.
BUILT_IN_FORMATS = {"General": 0, "0": 1, "0.00": 2}

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/styles" Target="styles.xml"/>'
    "</Relationships>"
)
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def text(value: str) -> str:
    """Cell text as XML: escaped, without the characters XML cannot hold."""
    return escape(ILLEGAL.sub("", value))


class Styles:
    """The cell formats used, each a (bold, number format, quote prefix) triple, numbered
    in the order first asked for; 0 is the plain format."""

    def __init__(self):
        self.ids: dict[tuple[bool, str, bool], int] = {(False, "General", False): 0}
        self.formats: dict[str, int] = {}

    def id(self, *, bold: bool = False, number_format: str = "General", quote: bool = False):
        key = (bold, number_format, quote)
        if key not in self.ids:
            if number_format not in BUILT_IN_FORMATS and number_format not in self.formats:
                self.formats[number_format] = 164 + len(self.formats)
            self.ids[key] = len(self.ids)
        return self.ids[key]

    def xml(self) -> str:
        formats = "".join(
            f"<numFmt numFmtId={quoteattr(str(number))} formatCode={quoteattr(code)}/>"
            for code, number in self.formats.items()
        )
        xfs = []
        for bold, number_format, quote in self.ids:
            number = BUILT_IN_FORMATS.get(number_format) or self.formats.get(number_format, 0)
            attributes = f'numFmtId="{number}" fontId="{1 if bold else 0}" fillId="0" borderId="0"'
            attributes += ' xfId="0"'
            if number:
                attributes += ' applyNumberFormat="1"'
            if bold:
                attributes += ' applyFont="1"'
            if quote:
                attributes += ' quotePrefix="1"'
            xfs.append(f"<xf {attributes}/>")
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<styleSheet xmlns="{MAIN}">'
            + (f'<numFmts count="{len(self.formats)}">{formats}</numFmts>' if formats else "")
            + '<fonts count="2">'
            '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
            '<font><b val="1"/><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
            "</fonts>"
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border>'
            "</borders>"
            '<cellStyleXfs count="1">'
            '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
            f'<cellXfs count="{len(xfs)}">{"".join(xfs)}</cellXfs>'
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
            "</styleSheet>"
        )


def number_format(value: Decimal) -> str:
    """The format that shows a decimal with its own places: "0.0" for -83.0, "0" for 5."""
    places = max(0, -value.as_tuple().exponent)
    return "0." + "0" * places if places else "0"


def sheet(
    title: str,
    headers: Sequence[str],
    rows: Iterable[Sequence],
    *,
    widths: Sequence[float],
    quoted: Callable[[str], bool],
) -> bytes:
    """The workbook of one sheet: `headers` in bold and kept in view, then `rows`.

    Decimals are numbers shown with their own number of places, other numbers plain
    numbers, text is always text (an "=" makes no formula) and gets the quote prefix when
    `quoted(text)`; None leaves the cell empty.
    """
    styles = Styles()
    letters = [get_column_letter(column) for column in range(1, len(headers) + 1)]
    decimal_styles: dict[str, int] = {}
    parts = []
    for row_number, row in enumerate([headers, *rows], start=1):
        cells = []
        bold = row_number == 1
        for letter, value in zip(letters, row, strict=False):
            reference = f"{letter}{row_number}"
            if value is None:
                continue
            if isinstance(value, str):
                quote = quoted(value)
                style = styles.id(bold=bold, quote=quote) if bold or quote else 0
                cells.append(
                    f'<c r="{reference}" s="{style}" t="inlineStr"><is>'
                    f'<t xml:space="preserve">{text(value)}</t></is></c>'
                )
            elif isinstance(value, bool):
                cells.append(f'<c r="{reference}" t="b"><v>{int(value)}</v></c>')
            elif isinstance(value, Decimal):
                code = number_format(value)
                style = decimal_styles.get(code) if not bold else None
                if style is None:
                    style = styles.id(bold=bold, number_format=code)
                    if not bold:
                        decimal_styles[code] = style
                cells.append(f'<c r="{reference}" s="{style}"><v>{value}</v></c>')
            elif isinstance(value, (int, float)):
                style = styles.id(bold=True) if bold else 0
                cells.append(f'<c r="{reference}" s="{style}"><v>{value!r}</v></c>')
            else:
                raise TypeError(f"{type(value).__name__} cannot go into a spreadsheet cell")
        parts.append(f'<row r="{row_number}">{"".join(cells)}</row>')
    columns = "".join(
        f'<col min="{number}" max="{number}" width="{width}" customWidth="1"/>'
        for number, width in enumerate(widths, start=1)
    )
    worksheet = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<worksheet xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}">'
        '<sheetViews><sheetView workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>'
        "</sheetView></sheetViews>"
        '<sheetFormatPr defaultRowHeight="15"/>'
        + (f"<cols>{columns}</cols>" if columns else "")
        + f"<sheetData>{''.join(parts)}</sheetData>"
        "</worksheet>"
    )
    workbook = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<workbook xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}">'
        f'<sheets><sheet name={quoteattr(ILLEGAL.sub("", title))} sheetId="1" r:id="rId1"/>'
        "</sheets>"
        "</workbook>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", workbook)
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/styles.xml", styles.xml())
        archive.writestr("xl/worksheets/sheet1.xml", worksheet)
    return buffer.getvalue()
