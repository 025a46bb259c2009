"""ODS: an OpenDocument spreadsheet (LibreOffice, common in EU public bodies), read as rows of
cells for the register import with python-calamine.

An ODS is a ZIP whose first member, ``mimetype``, names its type (detection.py reads it).
Like an XLSX it is checked against zip bombs first (zipguard.py), then its ``content.xml``
is scanned before calamine opens the file (:func:`check_content`): a document type is
refused (entities could expand past any count), and its sheets and cells are counted,
repeats included, from the caller's budget. calamine expands a repeated cell that holds a
value (``table:number-columns-repeated="16384"`` on a row repeated a million times is
billions of cells: 2,000 x 2,000 took it 5 s and 550 MB) but not a repeated empty one,
which LibreOffice writes at the end of every formatted row; so only repeats of cells that
hold something count, times their row's repeats.

Only the register import reads it (``rows_only``): an asset upload refuses an .ods file
(detection.py), since the asset pipeline's text extraction, conversion and isolation bounds
are built and measured for the formats it has (docs/REGISTER.md).
"""

from __future__ import annotations

import datetime
import io
import math
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from formats.errors import ExtractionFailed, RowsRefused
from formats.kinds import FileKind
from formats.limits import ReadLimits, RowLimits
from formats.registry import Format
from formats.segments import Segment
from formats.source import Source, zip_input
from formats.tabular import Cell, RowBudget, Sheet
from formats.zipguard import UnsafeArchive, check_zip_container

MEDIA_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_SHEET = f"{{{_TABLE}}}table"
_ROW = f"{{{_TABLE}}}table-row"
_CELL = f"{{{_TABLE}}}table-cell"
_COVERED_CELL = f"{{{_TABLE}}}covered-table-cell"
_ROWS_REPEATED = f"{{{_TABLE}}}number-rows-repeated"
_COLUMNS_REPEATED = f"{{{_TABLE}}}number-columns-repeated"
_VALUE_TYPE = f"{{{_OFFICE}}}value-type"
_CHUNK = 1 << 20
_CARRIED_BYTES = 16


def _repeats(element: ElementTree.Element, attribute: str) -> int:
    try:
        return max(int(element.get(attribute, "1")), 1)
    except ValueError:
        return 1


def check_content(source: Source, *, max_sheets: int, budget: RowBudget) -> None:
    """Refuse (RowsRefused) a spreadsheet whose content declares a document type, that has
    more than ``max_sheets`` sheets, or whose cells (each element, and each repeat of a cell
    holding a value) pass what the ``budget`` has left, before calamine opens it."""
    try:
        with zipfile.ZipFile(zip_input(source)) as archive:
            _refuse_document_type(archive)
            with archive.open("content.xml") as content:
                _count(content, max_sheets=max_sheets, budget=budget)
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as error:
        raise RowsRefused(
            "The spreadsheet is not a valid ODS (ZIP) file.", problem="corrupt"
        ) from error


def _refuse_document_type(archive: zipfile.ZipFile) -> None:
    with archive.open("content.xml") as content:
        carried = b""
        while chunk := content.read(_CHUNK):
            window = carried + chunk
            if b"<!DOCTYPE" in window or b"<!ENTITY" in window:
                raise RowsRefused(
                    "The spreadsheet declares a document type; a spreadsheet program never"
                    " writes one.",
                    problem="unreadable sheet",
                )
            carried = window[-_CARRIED_BYTES:]


def _count(content: Any, *, max_sheets: int, budget: RowBudget) -> None:
    sheets = 0
    row_cells = row_elements = 0
    # Each cell and row is dropped from its parent once counted (it is then the parent's
    # last child), so that memory holds one row whatever the number of rows.
    parents: list[ElementTree.Element] = []
    # The parser openpyxl and this package read XML with (expat); no document type is left.
    for event, element in ElementTree.iterparse(content, events=("start", "end")):  # noqa: S314
        if event == "start":
            parents.append(element)
            if element.tag == _SHEET:
                sheets += 1
                if sheets > max_sheets:
                    raise RowsRefused(
                        f"The spreadsheet has more than {max_sheets:,} sheets.",
                        problem="too many sheets",
                        limit="sheets",
                        maximum=max_sheets,
                    )
            elif element.tag == _ROW:
                row_cells = row_elements = 0
            continue
        parents.pop()
        if element.tag in (_CELL, _COVERED_CELL):
            holds_value = element.get(_VALUE_TYPE) is not None or len(element)
            row_elements += 1
            row_cells += _repeats(element, _COLUMNS_REPEATED) if holds_value else 0
        elif element.tag == _ROW:
            # Its elements once; the cells holding a value as often as they are repeated.
            budget.take_cells(1 + row_elements + row_cells * _repeats(element, _ROWS_REPEATED))
        else:
            continue
        if parents:
            del parents[-1][-1]


def read_ods_rows(source: Source, name: str, limits: RowLimits) -> list[Sheet]:
    """The spreadsheet's sheets as rows of cells (dates as dates, text stripped, several
    paragraphs of a cell as lines), within ``limits``; RowsRefused for a file over them,
    unsafe, corrupt or unreadable."""
    from python_calamine import CalamineWorkbook

    try:
        check_zip_container(source, limits=limits.zip)
    except UnsafeArchive as error:
        raise RowsRefused(str(error), problem=error.problem) from error
    budget = RowBudget(limits)
    check_content(source, max_sheets=limits.max_sheets, budget=budget)
    handle = zip_input(source)
    try:
        if isinstance(handle, Path):
            workbook = CalamineWorkbook.from_path(str(handle))
        else:
            workbook = CalamineWorkbook.from_filelike(handle)
        sheets = [
            (sheet_name, workbook.get_sheet_by_name(sheet_name).to_python(skip_empty_area=False))
            for sheet_name in workbook.sheet_names
        ]
    except Exception as error:
        # calamine raises its own errors (CalamineError, XmlError, ZipError) and others.
        raise RowsRefused(
            f"The spreadsheet could not be read ({type(error).__name__}): is it a valid ODS file?",
            problem="unreadable workbook",
        ) from error
    return [_sheet(sheet_name, rows, budget) for sheet_name, rows in sheets]


def _sheet(name: str, rows: list[list[Any]], budget: RowBudget) -> Sheet:
    max_columns = budget.limits.max_columns
    kept = []
    for number, values in enumerate(rows, start=1):
        filled = {
            column: cell
            for column, value in enumerate(values[:max_columns], start=1)
            if (cell := _cell(value, budget)) != ""
        }
        if filled:
            budget.row(number, name)
            kept.append((number, tuple(filled.get(c, "") for c in range(1, max(filled) + 1))))
    return Sheet(name=name, rows=tuple(kept))


def _cell(value: Any, budget: RowBudget) -> Cell:
    if value is None or value == "":
        return ""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return budget.text(str(value).strip())


def _read(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    """The sheets as tab-separated text (one segment per sheet), for a reader of text."""
    row_limits = RowLimits(
        max_rows=1_048_576,
        max_columns=16_384,
        max_sheets=1_000,
        max_cells=limits.max_sheet_cells,
        max_chars=limits.max_chars or 100_000_000,
        max_cell_chars=limits.max_chars or 100_000_000,
        zip=limits.zip,
    )
    try:
        sheets = read_ods_rows(path, path.name, row_limits)
    except RowsRefused as error:
        raise ExtractionFailed(error.message) from error
    for sheet in sheets:
        text = io.StringIO()
        for _, cells in sheet.rows:
            text.write("\t".join(str(cell).replace("\n", " ") for cell in cells) + "\n")
        yield Segment(text.getvalue(), f"sheet {sheet.name}")


FORMATS = (
    Format(
        kind=FileKind.ODS,
        media_type=MEDIA_TYPE,
        extensions=(".ods",),
        zip_mimetype=MEDIA_TYPE,
        rows_only=True,
        read=_read,
        read_rows=read_ods_rows,
        label="ODS",
    ),
)
