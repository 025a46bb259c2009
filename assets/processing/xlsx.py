"""XLSX -> CSV, streamed row by row with openpyxl's read-only reader (no pandas).

A sheet's declared dimension (``<dimension ref="A1:XFD1048576"/>``) is not trusted and
nothing is padded to it: a 5 KB workbook with cells at A1 and XFD1048576 made pandas pad
every row to 16,384 columns and took gigabytes. Here only the non-empty cells of a row are
kept, and the sheet is read twice: the first pass counts the non-empty cells (bounded by
``max_cells``) and notes which rows and columns hold any; the second writes the CSV.

The output is what the pandas conversion wrote before, for ordinary workbooks: cached
values (formulas are not recomputed), rows and columns that are entirely empty dropped,
whole-number floats written as integers, error values (``#DIV/0!``) as empty cells.

Two differences, both against hostile workbooks. A text cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading apostrophe (OWASP's advice against
CSV formula injection): a spreadsheet that opens the converted CSV shows it as text instead
of running it. Numbers, dates and booleans are written as they are (``-5`` stays ``-5``):
they cannot carry a formula. And the text is counted in the first pass: cells that all
refer to one long shared string (47 KB of workbook, 320 MB of CSV) are refused
(``max_chars``) before any of it is written.

pandas is faster on an ordinary workbook (one read where this reads each sheet twice: 5,000
rows of 12 columns in 1.7 s of CPU against 2.5 s) but holds the whole sheet: 600,000 cells
took 107 MB more at its peak, against 17 MB here: at that rate a sheet at the default bound
of 5 million cells would pass the extraction child's 1 GiB (bench/bench_tabular_pandas.py).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assets.processing.errors import text_limit_message

# A default fit for real registers and exports; ASSET_XLSX_MAX_CELLS_PER_SHEET overrides.
DEFAULT_MAX_CELLS_PER_SHEET = 5_000_000
# Scattered cells (one per row, each in a column of its own) would make a CSV mostly of
# separators: the written grid (kept rows x kept columns) may be this many times the cells.
MAX_GRID_TO_CELLS_RATIO = 4
# A sheet's CSV is handed on in pieces of about this many characters.
PIECE_TARGET_CHARS = 16_000
# The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_ERROR_VALUES = frozenset(
    {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"}
)


class WorkbookRefused(Exception):  # noqa: N818 - caught and re-raised as ConversionFailed
    """No worksheet, or a sheet over the cell bound; the message says which, for users."""


class TextLimitPassed(Exception):  # noqa: N818 - caught and re-raised with the whole limit
    """The sheets' text counted so far passes the characters left for the workbook."""


@dataclass(frozen=True, slots=True)
class SheetCsvPiece:
    """Consecutive CSV rows of one worksheet (a sheet may come in several pieces)."""

    name: str
    csv_text: str


@dataclass(slots=True)
class _SheetShape:
    cells: int = 0
    rows: int = 0
    characters: int = 0
    columns: set[int] = field(default_factory=set)


def cell_text(value: Any) -> str:
    """The CSV text of a cell value ("" for an empty or error cell)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return str(value)
    if isinstance(value, str):
        if value in _ERROR_VALUES:
            return ""
        return "'" + value if value.startswith(FORMULA_PREFIXES) else value
    return str(value)


def _non_empty_cells(row: tuple[Any, ...]) -> Iterator[tuple[int, str]]:
    """(0-based column, text) of the row's non-empty cells."""
    for column, value in enumerate(row):
        if value is None:
            continue
        text = cell_text(value)
        if text:
            yield column, text


def _rows(sheet: Any) -> Iterator[tuple[Any, ...]]:
    # Forget the declared dimension: read-only iteration would otherwise pad every row to
    # it and yield a padded tuple for every missing row up to the declared last one.
    sheet.reset_dimensions()
    return sheet.iter_rows(values_only=True)


def _measure(sheet: Any, name: str, *, max_cells: int, characters_left: int | None) -> _SheetShape:
    shape = _SheetShape()
    for row in _rows(sheet):
        found = False
        for column, text in _non_empty_cells(row):
            found = True
            shape.cells += 1
            shape.characters += len(text) + 1  # and its separator
            shape.columns.add(column)
        if found:
            shape.rows += 1
            if shape.cells > max_cells:
                raise WorkbookRefused(f"sheet {name!r} has more than {max_cells:,} non-empty cells")
            if characters_left is not None and shape.characters > characters_left:
                raise TextLimitPassed()
    grid = shape.rows * len(shape.columns)
    if grid > MAX_GRID_TO_CELLS_RATIO * max(max_cells, shape.cells) and grid > max_cells:
        raise WorkbookRefused(
            f"sheet {name!r} spreads {shape.cells:,} cells over {shape.rows:,} rows and "
            f"{len(shape.columns):,} columns: more than {max_cells:,} cells"
        )
    return shape


def _csv_pieces(sheet: Any, name: str, shape: _SheetShape) -> Iterator[SheetCsvPiece]:
    position = {column: index for index, column in enumerate(sorted(shape.columns))}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # Python 3.11's writer quotes a field holding "\r" only when "\r" ends its lines: left
    # bare, a reader starts a row there, and "\r=cmd()" would begin a cell with a formula.
    quoting_writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for row in _rows(sheet):
        cells = list(_non_empty_cells(row))
        if not cells:
            continue
        line = [""] * len(position)
        for column, text in cells:
            line[position[column]] = text
        if any("\r" in text for text in line):
            quoting_writer.writerow(line)
        else:
            writer.writerow(line)
        if buffer.tell() >= PIECE_TARGET_CHARS:
            yield SheetCsvPiece(name, buffer.getvalue())
            buffer.seek(0)
            buffer.truncate()
    if buffer.tell():
        yield SheetCsvPiece(name, buffer.getvalue())


def iter_xlsx_csv_pieces(
    path: Path, *, max_cells: int, max_chars: int | None = None
) -> Iterator[SheetCsvPiece]:
    """Yield the CSV of each non-empty worksheet, in workbook order, in pieces.

    Raises WorkbookRefused without any worksheet, beyond ``max_cells`` non-empty cells in a
    sheet (or a written grid more than MAX_GRID_TO_CELLS_RATIO times that), or once the
    cells' text (the sheets so far, each counted before it is written) passes ``max_chars``
    characters; openpyxl's errors propagate. Memory holds one row and one piece at a time,
    whatever the sheet's declared dimension.
    """
    from openpyxl import load_workbook

    workbook = load_workbook(path, read_only=True, data_only=True)
    try:
        if not workbook.worksheets:
            raise WorkbookRefused("workbook has no worksheets")
        characters = 0
        for sheet in workbook.worksheets:
            name = str(sheet.title)
            left = None if max_chars is None else max_chars - characters
            try:
                shape = _measure(sheet, name, max_cells=max_cells, characters_left=left)
            except TextLimitPassed:
                raise WorkbookRefused(text_limit_message(max_chars or 0)) from None
            characters += shape.characters
            if shape.cells:
                yield from _csv_pieces(sheet, name, shape)
    finally:
        workbook.close()
