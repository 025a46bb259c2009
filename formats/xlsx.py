"""XLSX: an Office Open XML workbook, read as CSV text (the asset pipeline, which keeps the
CSV as the converted file) or as rows of cells (the register import), through one reader.

Both readers check the container against zip bombs (zipguard.py) and the workbook's parts
(:func:`check_workbook`: a sheet declaring a document type is refused, and the caller's
bounds on sheets and cells are applied to the sheet XML before openpyxl opens it), then
read each sheet's rows as its XML holds them (:func:`iter_sheet_rows`: never padded to a
declared dimension, never a row missing from the file). Error values (``#DIV/0!``) read as
empty cells in both.

XLSX -> CSV is streamed row by row with openpyxl's read-only reader (no pandas).

A sheet's declared dimension (``<dimension ref="A1:XFD1048576"/>``) is not trusted and
nothing is padded to it (iter_sheet_rows): a 5 KB workbook with cells at A1 and XFD1048576
made pandas pad every row to 16,384 columns and took gigabytes. Here only the non-empty
cells of a row are kept, and the sheet is read twice: the first pass counts the non-empty
cells (bounded by ``max_cells``) and notes which rows and columns hold any; the second
writes the CSV.

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
import datetime
import io
import math
import posixpath
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from xml.etree import ElementTree
from xml.etree.ElementTree import ParseError

from formats.errors import ConversionFailed, RowsRefused, short_error, text_limit_message
from formats.kinds import FileKind
from formats.limits import DEFAULT_MAX_CELLS_PER_SHEET, ReadLimits, RowLimits, ZipLimits
from formats.office import ZIP_MEDIA_TYPES
from formats.registry import Conversion, Format
from formats.segments import Segment
from formats.source import Source, zip_input
from formats.tabular import Cell, RowBudget, Sheet
from formats.zipguard import UnsafeArchive, check_zip_container

__all__ = [
    "DEFAULT_MAX_CELLS_PER_SHEET",
    "FORMATS",
    "SHEET_MARKER",
    "SheetCsv",
    "check_workbook",
    "convert_xlsx_to_csv",
    "iter_sheet_rows",
    "iter_xlsx_csv_pieces",
    "iter_xlsx_sheets_as_csv",
    "read_xlsx_rows",
    "write_sheet_pieces",
]

# Scattered cells (one per row, each in a column of its own) would make a CSV mostly of
# separators: the written grid (kept rows x kept columns) may be this many times the cells.
MAX_GRID_TO_CELLS_RATIO = 4
# A sheet's CSV is handed on in pieces of about this many characters.
PIECE_TARGET_CHARS = 16_000
# The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
# Excel's error values, which a cell's cached value may be: they say nothing of the data.
_ERROR_VALUES = frozenset(
    {
        "#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA",
        "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#UNKNOWN!", "#CONNECT!", "#BUSY!",
    }
)  # fmt: skip


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


def _non_empty_cells(row: list[tuple[int, Any]]) -> Iterator[tuple[int, str]]:
    """(column, text) of the row's non-empty cells."""
    for column, value in row:
        if value is None:
            continue
        text = cell_text(value)
        if text:
            yield column, text


def iter_sheet_rows(sheet: Any) -> Iterator[tuple[int, list[tuple[int, Any]]]]:
    """The rows the sheet's XML holds, as openpyxl reads them: (row number, [(1-based
    column, value)]).

    Not ReadOnlyWorksheet.iter_rows: it pads every row missing from the file with empty
    cells up to the declared dimension, so that one empty cell at row 1,048,576 made a
    million rows of a hundred cells (6 s of CPU a sheet). Its parser, underneath, yields
    only what the file holds; the declared dimension, which a 5 KB file may set to
    XFD1048576, is not used at all.
    """
    from openpyxl.worksheet._reader import WorkSheetParser  # type: ignore[import-untyped]

    workbook = sheet.parent
    with sheet._get_source() as source:  # the sheet's own XML part (openpyxl's)
        parser = WorkSheetParser(
            source,
            sheet._shared_strings,
            data_only=workbook.data_only,
            epoch=workbook.epoch,
            date_formats=workbook._date_formats,
            timedelta_formats=workbook._timedelta_formats,
        )
        for number, cells in parser.parse():
            yield number, [(cell["column"], cell["value"]) for cell in cells]


def _measure(sheet: Any, name: str, *, max_cells: int, characters_left: int | None) -> _SheetShape:
    shape = _SheetShape()
    for _, row in iter_sheet_rows(sheet):
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
    for _, row in iter_sheet_rows(sheet):
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
    from openpyxl import load_workbook  # type: ignore[import-untyped]

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


# -- XLSX -> CSV (the asset pipeline) ---------------------------------------------------------

SHEET_MARKER = "## Sheet: "


@dataclass(frozen=True, slots=True)
class SheetCsv:
    """CSV text of one worksheet (all of it, or one of its consecutive pieces)."""

    name: str
    csv_text: str


def iter_xlsx_sheets_as_csv(
    path: Path,
    *,
    max_cells: int = DEFAULT_MAX_CELLS_PER_SHEET,
    max_chars: int | None = None,
    zip_limits: ZipLimits | None = None,
) -> Iterator[SheetCsv]:
    """Yield the CSV of each non-empty worksheet of an XLSX file, in workbook order.

    A large sheet comes in several consecutive pieces with the same name. Raises
    ConversionFailed(original_format="xlsx", target_format="csv") for an unsafe, corrupt or
    unreadable workbook, one without any worksheet, a sheet with more than ``max_cells``
    non-empty cells, or cells holding more than ``max_chars`` characters.
    """

    def failed(message: str) -> ConversionFailed:
        return ConversionFailed(message, original_format="xlsx", target_format="csv")

    try:
        check_zip_container(path, limits=zip_limits)
        check_workbook(path)
    except UnsafeArchive as error:
        raise failed(str(error)) from error
    except RowsRefused as error:
        raise failed(error.message) from error
    try:
        for piece in iter_xlsx_csv_pieces(path, max_cells=max_cells, max_chars=max_chars):
            yield SheetCsv(name=piece.name, csv_text=piece.csv_text)
    except WorkbookRefused as error:
        raise failed(str(error)) from error
    except (ParseError, zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError) as error:
        raise failed(f"spreadsheet could not be read: {short_error(error)}") from error
    except MemoryError:
        raise
    except Exception as error:
        # openpyxl raises a wide and version-dependent set of errors on malformed parts;
        # any of them means "this workbook cannot be converted", never a crash of the task.
        raise failed(f"spreadsheet could not be read: {short_error(error)}") from error


def write_sheet_pieces(output: IO[str], pieces: Iterable[SheetCsv]) -> Iterator[SheetCsv]:
    """Write pieces as the converted CSV file (a ``## Sheet: NAME`` line before each sheet,
    a blank line after it), passing each piece on."""
    current: str | None = None
    for piece in pieces:
        if piece.name != current:
            if current is not None:
                output.write("\n")
            output.write(f"{SHEET_MARKER}{piece.name}\n")
            current = piece.name
        output.write(piece.csv_text)
        yield piece
    if current is not None:
        output.write("\n")


def convert_xlsx_to_csv(
    source: Path, destination: Path, *, max_cells: int = DEFAULT_MAX_CELLS_PER_SHEET
) -> list[str]:
    """Write every sheet of ``source`` as CSV to ``destination``; return the sheet names.

    Each sheet starts with a ``## Sheet: NAME`` line. Raises ConversionFailed.
    """
    names: list[str] = []
    with destination.open("w", encoding="utf-8", newline="") as output:
        pieces = iter_xlsx_sheets_as_csv(source, max_cells=max_cells)
        for piece in write_sheet_pieces(output, pieces):
            if not names or names[-1] != piece.name:
                names.append(piece.name)
    return names


def _read(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    sheets = iter_xlsx_sheets_as_csv(
        path, max_cells=limits.max_sheet_cells, max_chars=limits.max_chars, zip_limits=limits.zip
    )
    for sheet in sheets:
        yield Segment(sheet.csv_text, f"sheet {sheet.name}")


def write_csv(segments: Iterable[Segment], output: IO[str]) -> Iterator[Segment]:
    """Pass the reader's segments on while writing them as the converted CSV file (a large
    sheet comes in several segments, under one ``## Sheet:`` line)."""
    pieces = (
        SheetCsv((segment.location or "").removeprefix("sheet "), segment.text)
        for segment in segments
    )
    for piece in write_sheet_pieces(output, pieces):
        yield Segment(piece.csv_text, f"sheet {piece.name}")


# -- The workbook's parts, before openpyxl opens it ---------------------------------------------

# The content types openpyxl looks for, in its order, to find the workbook part.
_WORKBOOK_TYPES = (
    "application/vnd.ms-excel.template.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
)
# A cell (`c`) or row element of sheet XML, with or without a namespace prefix.
_CELL_OR_ROW = re.compile(rb"<(?:[A-Za-z_][\w.-]{0,40}:)?(?:c|row)[\s/>]")
_CARRIED_BYTES = 64  # longer than any match of _CELL_OR_ROW and than "<!DOCTYPE"
_RELATIONSHIP_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def check_workbook(
    source: Source, *, max_sheets: int | None = None, budget: RowBudget | None = None
) -> None:
    """Refuse (RowsRefused) a workbook whose sheet XML declares a document type, that lists
    more than ``max_sheets`` sheets, or whose sheets hold more cells and rows than the
    ``budget`` has left, before openpyxl opens it (which builds every sheet the workbook
    lists, and parses a sheet whole when it does not declare its dimension).

    The cells are counted in the XML without parsing it, empty ones included. A container
    that is not a ZIP of well-formed parts is refused as "corrupt".
    """
    try:
        with zipfile.ZipFile(zip_input(source)) as archive:
            for part in _sheet_parts(archive, max_sheets=max_sheets):
                if budget is None:
                    _scan_sheet(archive, part, stop_after=None)
                else:
                    budget.take_cells(_scan_sheet(archive, part, stop_after=budget.cells))
    except (zipfile.BadZipFile, ElementTree.ParseError) as error:
        raise RowsRefused(
            "The workbook is not a valid XLSX (ZIP) file.", problem="corrupt"
        ) from error


def _sheet_parts(archive: zipfile.ZipFile, *, max_sheets: int | None) -> list[str]:
    """The part of each sheet the workbook lists (one part may serve several sheets), found
    as openpyxl finds them; refused past ``max_sheets``.

    openpyxl builds every sheet the workbook lists when it opens it (5,000 sheets: 10 s), so
    the list is counted first, by the parser openpyxl uses; a `sheet` element anywhere
    counts (never fewer).
    """
    workbook = _workbook_part(archive)
    identifiers: list[str] = []
    with _open_part(archive, workbook) as source:
        # The parser openpyxl itself parses this part with, right after (no defusedxml).
        for _, element in ElementTree.iterparse(source):  # noqa: S314
            if element.tag.rpartition("}")[2] != "sheet":
                continue
            identifiers.append(element.get(_RELATIONSHIP_ID, ""))
            if max_sheets is not None and len(identifiers) > max_sheets:
                raise RowsRefused(
                    f"The workbook has more than {max_sheets:,} sheets.",
                    problem="too many sheets",
                    limit="sheets",
                    maximum=max_sheets,
                )
    targets = _relationship_targets(archive, workbook)
    names = set(archive.namelist())
    return [targets[key] for key in identifiers if targets.get(key) in names]


def _relationship_targets(archive: zipfile.ZipFile, part: str) -> dict[str, str]:
    """Relationship id -> the part it names, resolved as openpyxl's get_dependents does."""
    folder, name = posixpath.split(part)
    targets: dict[str, str] = {}
    with _open_part(archive, posixpath.join(folder, "_rels", f"{name}.rels")) as source:
        for _, element in ElementTree.iterparse(source):  # noqa: S314 - as openpyxl does
            target = element.get("Target")
            if target is None or element.get("TargetMode") == "External":
                continue
            targets[element.get("Id", "")] = (
                target[1:] if target.startswith("/") else posixpath.normpath(
                    posixpath.join(folder, target)
                )
            )  # fmt: skip
    return targets


def _scan_sheet(archive: zipfile.ZipFile, part: str, *, stop_after: int | None) -> int:
    """The cells and rows a sheet part holds, read in its XML without parsing it (0 when
    ``stop_after`` is None; at least ``stop_after`` + 1 once past it, without reading on);
    RowsRefused if it declares a document type."""
    count = stop_after is not None
    found = 0
    with archive.open(part) as source:
        carried = b""
        while chunk := source.read(1 << 20):
            window = carried + chunk
            # A document type may declare entities that expand into cells this count cannot
            # see (or into a billion laughs); no spreadsheet program writes one into a sheet.
            if b"<!DOCTYPE" in window or b"<!ENTITY" in window:
                raise RowsRefused(
                    "A sheet of the workbook declares a document type; a spreadsheet program"
                    " never writes one.",
                    problem="unreadable sheet",
                )
            # A match is shorter than the carried tail: one starting in the tail is counted
            # with the next chunk, whole.
            tail = max(len(window) - _CARRIED_BYTES, 0)
            if count:
                found += len(_CELL_OR_ROW.findall(window)) - len(_CELL_OR_ROW.findall(window, tail))
            carried = window[tail:]
            if stop_after is not None and found > stop_after:
                break  # already over: the budget refuses it
        if count:
            found += len(_CELL_OR_ROW.findall(carried))
    return found


def _workbook_part(archive: zipfile.ZipFile) -> str:
    """The workbook part's name, found as openpyxl finds it (content types, else default)."""
    parts: dict[str, str] = {}
    with _open_part(archive, "[Content_Types].xml") as source:
        for _, element in ElementTree.iterparse(source):  # noqa: S314 - as openpyxl does
            content_type = element.get("ContentType", "")
            if element.tag.endswith("Override") and content_type in _WORKBOOK_TYPES:
                parts.setdefault(content_type, element.get("PartName", "").lstrip("/"))
    return next((parts[kind] for kind in _WORKBOOK_TYPES if kind in parts), "xl/workbook.xml")


def _open_part(archive: zipfile.ZipFile, name: str) -> IO[bytes]:
    # A missing part reads as empty: openpyxl then refuses the file with its own error.
    try:
        return archive.open(name)
    except KeyError:
        return io.BytesIO(b"<empty/>")


# -- XLSX as rows (the register import) --------------------------------------------------------


def read_xlsx_rows(source: Source, name: str, limits: RowLimits) -> list[Sheet]:
    """The workbook's sheets as rows of cells (dates as dates, text stripped), within
    ``limits``; RowsRefused for a workbook over them, unsafe, corrupt or unreadable."""
    from openpyxl import load_workbook

    try:
        check_zip_container(source, limits=limits.zip)
    except UnsafeArchive as error:
        raise RowsRefused(str(error), problem=error.problem) from error
    budget = RowBudget(limits)
    check_workbook(source, max_sheets=limits.max_sheets, budget=budget)
    try:
        workbook = load_workbook(zip_input(source), read_only=True, data_only=True)
    except Exception as error:
        # openpyxl raises a wide, version-dependent set of errors on malformed parts.
        raise RowsRefused(
            f"The workbook could not be read ({type(error).__name__}): is it a valid XLSX file?",
            problem="unreadable workbook",
        ) from error
    try:
        return [_sheet_rows(sheet, budget) for sheet in workbook.worksheets]
    except RowsRefused:
        raise
    except Exception as error:
        raise RowsRefused(
            f"A sheet of the workbook could not be read ({type(error).__name__}).",
            problem="unreadable sheet",
        ) from error
    finally:
        workbook.close()


def _sheet_rows(sheet: Any, budget: RowBudget) -> Sheet:
    # Its cells were taken from the budget before the workbook was opened.
    max_columns = budget.limits.max_columns
    rows = []
    for number, parsed in iter_sheet_rows(sheet):
        # Only the cells the row holds are read (never a padded width of empty ones).
        found: dict[int, Cell] = {}
        for column, value in parsed:
            if column <= max_columns:
                found[column] = _row_cell(value, budget)
        filled = {column: cell for column, cell in found.items() if cell != ""}
        if filled:
            budget.row(number, sheet.title)
            cells = tuple(filled.get(column, "") for column in range(1, max(filled) + 1))
            rows.append((number, cells))
    return Sheet(name=sheet.title, rows=tuple(rows))


def _row_cell(value: Any, budget: RowBudget) -> Cell:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    text = str(value)
    if text in _ERROR_VALUES:
        return ""  # an error value (#REF!, #N/A ...) says nothing about the table
    return budget.text(text.strip())


FORMATS = (
    Format(
        kind=FileKind.XLSX,
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        other_media_types=ZIP_MEDIA_TYPES,
        extensions=(".xlsx",),
        zip_main_part="xl/workbook.xml",
        read=_read,
        conversion=Conversion(target="csv", write=write_csv),
        read_rows=read_xlsx_rows,
    ),
)
