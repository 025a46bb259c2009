"""Reading a register file into plain rows of text: XLSX (openpyxl, read-only) or CSV.

Nothing here knows what the columns mean (headers.py does). Bounds keep a hostile or
mistaken upload cheap: a sheet with rows past MAX_ROWS is refused (never cut short), the
columns past MAX_COLUMNS are not read, and a workbook whose parts would inflate past
MAX_UNCOMPRESSED_BYTES is refused before openpyxl opens it (a register is a few hundred
kilobytes; a zip bomb is not). The settings REGISTER_IMPORT_MAX_SHEETS, _MAX_CELLS and
_MAX_TEXT_CHARS refuse a file whose sheets, cells (empty ones included) or text would cost
more than a register ever needs, before the cost is paid; a cell past
REGISTER_IMPORT_MAX_CELL_CHARS is cut (a CutText, which the row's problems mention).
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import math
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import charset_normalizer
from django.conf import settings

from register.importing.errors import (
    RegisterFileTooLarge,
    RegisterFileType,
    RegisterFileUnreadable,
    over_limit,
)

MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 5_000
MAX_COLUMNS = 100
# csv.Sniffer's quote regular expressions are quadratic: 13.4 s on 64 KB of ',"x', and at
# most ~0.25 s on any 4 KB sample of 20 lines (measured by fuzzing on the review machine).
SNIFF_SAMPLE_CHARS = 4096
SNIFF_SAMPLE_LINES = 20
_XLSX_MAGIC = b"PK\x03\x04"
_CSV_DELIMITERS = ";,\t|"
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


class CutText(str):
    """A cell's text cut at REGISTER_IMPORT_MAX_CELL_CHARS: parsing names it in the row's
    problems (a register that silently lost the end of a cell would mislead)."""

    __slots__ = ()


Cell = str | datetime.date


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet (a CSV file is one sheet): its rows as (1-based row number, cell texts)."""

    name: str
    rows: tuple[tuple[int, tuple[Cell, ...]], ...]


class _Allowance:
    """What reading the file may still cost: cells (empty ones and rows included) and
    characters of text (a cell counted each time it is shown)."""

    def __init__(self) -> None:
        self.max_cells: int = settings.REGISTER_IMPORT_MAX_CELLS
        self.max_characters: int = settings.REGISTER_IMPORT_MAX_TEXT_CHARS
        self.max_cell_characters: int = settings.REGISTER_IMPORT_MAX_CELL_CHARS
        self.cells = self.max_cells
        self.characters = self.max_characters

    def take_cells(self, count: int) -> None:
        self.cells -= count
        if self.cells < 0:
            raise over_limit(
                f"The file holds more than {self.max_cells:,} cells (empty ones included);"
                " a register import reads at most that many. Delete the empty rows and"
                " columns below and beside the table, or split the file.",
                problem="too many cells",
                setting="REGISTER_IMPORT_MAX_CELLS",
                maximum=self.max_cells,
            )

    def text(self, text: str) -> str:
        """`text` as kept (cut, as a CutText, past the cell limit), its length counted."""
        if len(text) > self.max_cell_characters:
            text = CutText(text[: self.max_cell_characters])
        self.characters -= len(text)
        if self.characters < 0:
            raise over_limit(
                f"The file's cells hold more than {self.max_characters:,} characters of text;"
                " a register import reads at most that many.",
                problem="too much text",
                setting="REGISTER_IMPORT_MAX_TEXT_CHARS",
                maximum=self.max_characters,
            )
        return text


def read_register_file(*, content: bytes, file_name: str) -> list[Sheet]:
    """The sheets of an XLSX workbook or a CSV file, by content (the name only breaks ties).

    Raises RegisterFileType for anything else, RegisterFileTooLarge past REGISTER_IMPORT_MAX_BYTES,
    RegisterFileUnreadable for a corrupt or empty file, or one over the import's sheet, cell
    or text bound (`details.limit` names the setting); the message says which, for users.
    """
    max_bytes: int = settings.REGISTER_IMPORT_MAX_BYTES
    if len(content) > max_bytes:
        raise RegisterFileTooLarge(
            f"The file is {len(content):,} bytes; a register import takes at most"
            f" {max_bytes:,} (REGISTER_IMPORT_MAX_BYTES).",
            details={"file": ["too large"]},
        )
    if not content.strip():
        raise RegisterFileUnreadable("The file is empty.", details={"file": ["empty"]})
    lowered = file_name.lower()
    if content.startswith(_XLSX_MAGIC):
        # Other ZIP-based formats, by the name their owner gave them; an XLSX named ".zip"
        # or with no extension is still read.
        if lowered.endswith((".docx", ".pptx", ".odt", ".ods", ".odp", ".epub")):
            raise _wrong_type(file_name)
        return _read_xlsx(content, _Allowance())
    if lowered.endswith((".xlsx", ".xlsm", ".xls", ".ods", ".pdf", ".docx")):
        raise _wrong_type(file_name)
    if b"\x00" in content[:4096] and not content.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    ):
        raise _wrong_type(file_name)
    return [_read_csv(content, name=file_name or "CSV", allowance=_Allowance())]


def _wrong_type(file_name: str) -> RegisterFileType:
    return RegisterFileType(
        f"'{file_name}' is neither an XLSX workbook nor a CSV file: a register is imported"
        " from one of those (save it as .xlsx or .csv from your spreadsheet program).",
        details={"file": ["expected XLSX or CSV"]},
    )


# -- XLSX -----------------------------------------------------------------------------------


def _read_xlsx(content: bytes, allowance: _Allowance) -> list[Sheet]:
    from openpyxl import load_workbook

    _refuse_zip_bomb(content, allowance)
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:
        # openpyxl raises a wide, version-dependent set of errors on malformed parts.
        raise RegisterFileUnreadable(
            f"The workbook could not be read ({type(error).__name__}): is it a valid XLSX file?",
            details={"file": ["unreadable workbook"]},
        ) from error
    try:
        return [_xlsx_sheet(sheet, allowance) for sheet in workbook.worksheets]
    except RegisterFileUnreadable:
        raise
    except Exception as error:
        raise RegisterFileUnreadable(
            f"A sheet of the workbook could not be read ({type(error).__name__}).",
            details={"file": ["unreadable sheet"]},
        ) from error
    finally:
        workbook.close()


def _refuse_zip_bomb(content: bytes, allowance: _Allowance) -> None:
    """Refuse a workbook that unpacks too big, lists too many sheets or holds too many
    cells, before openpyxl opens it (which parses every sheet whole when the sheet does not
    declare its dimension)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            inflated = sum(member.file_size for member in archive.infolist())
            if inflated <= MAX_UNCOMPRESSED_BYTES:
                for part in _sheet_parts(archive):
                    allowance.take_cells(_cells_in(archive, part))
    except (zipfile.BadZipFile, ElementTree.ParseError) as error:
        raise RegisterFileUnreadable(
            "The workbook is not a valid XLSX (ZIP) file.", details={"file": ["corrupt"]}
        ) from error
    if inflated > MAX_UNCOMPRESSED_BYTES:
        raise RegisterFileUnreadable(
            "The workbook unpacks to more than a register import reads.",
            details={"file": ["too large when unpacked"]},
        )


def _sheet_parts(archive: zipfile.ZipFile) -> list[str]:
    """The part of each sheet the workbook lists (one part may serve several sheets), found
    as openpyxl finds them; refused past REGISTER_IMPORT_MAX_SHEETS.

    openpyxl builds every sheet the workbook lists when it opens it (5,000 sheets: 10 s), so
    the list is counted first, by the parser openpyxl uses; a `sheet` element anywhere
    counts (never fewer).
    """
    maximum: int = settings.REGISTER_IMPORT_MAX_SHEETS
    workbook = _workbook_part(archive)
    identifiers: list[str] = []
    with _open_part(archive, workbook) as source:
        # The parser openpyxl itself parses this part with, right after (no defusedxml).
        for _, element in ElementTree.iterparse(source):  # noqa: S314
            if element.tag.rpartition("}")[2] != "sheet":
                continue
            identifiers.append(element.get(_RELATIONSHIP_ID, ""))
            if len(identifiers) > maximum:
                raise over_limit(
                    f"The workbook has more than {maximum:,} sheets; a register import reads"
                    f" at most {maximum:,}. Delete the sheets that are no part of the"
                    " register, or save the register's sheets in a workbook of their own.",
                    problem="too many sheets",
                    setting="REGISTER_IMPORT_MAX_SHEETS",
                    maximum=maximum,
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


def _cells_in(archive: zipfile.ZipFile, part: str) -> int:
    """The cells and rows a sheet part holds, counted in its XML without parsing it."""
    count = 0
    with archive.open(part) as source:
        carried = b""
        while chunk := source.read(1 << 20):
            window = carried + chunk
            # A document type may declare entities that expand into cells this count cannot
            # see; no spreadsheet program writes one into a sheet.
            if b"<!DOCTYPE" in window or b"<!ENTITY" in window:
                raise RegisterFileUnreadable(
                    "A sheet of the workbook declares a document type; a spreadsheet program"
                    " never writes one.",
                    details={"file": ["unreadable sheet"]},
                )
            # A match is shorter than the carried tail: one starting in the tail is counted
            # with the next chunk, whole.
            tail = max(len(window) - _CARRIED_BYTES, 0)
            count += len(_CELL_OR_ROW.findall(window)) - len(_CELL_OR_ROW.findall(window, tail))
            carried = window[tail:]
            if count > settings.REGISTER_IMPORT_MAX_CELLS:
                break  # already over: the allowance refuses it
        count += len(_CELL_OR_ROW.findall(carried))
    return count


def _workbook_part(archive: zipfile.ZipFile) -> str:
    """The workbook part's name, found as openpyxl finds it (content types, else default)."""
    parts: dict[str, str] = {}
    with _open_part(archive, "[Content_Types].xml") as source:
        for _, element in ElementTree.iterparse(source):  # noqa: S314 - as openpyxl does
            content_type = element.get("ContentType", "")
            if element.tag.endswith("Override") and content_type in _WORKBOOK_TYPES:
                parts.setdefault(content_type, element.get("PartName", "").lstrip("/"))
    return next((parts[kind] for kind in _WORKBOOK_TYPES if kind in parts), "xl/workbook.xml")


def _open_part(archive: zipfile.ZipFile, name: str) -> Any:
    # A missing part reads as empty: openpyxl then refuses the file with its own error.
    try:
        return archive.open(name)
    except KeyError:
        return io.BytesIO(b"<empty/>")


def _xlsx_sheet(sheet: Any, allowance: _Allowance) -> Sheet:
    # Its cells were taken from the allowance before the workbook was opened.
    rows = []
    for number, parsed in _xlsx_rows(sheet):
        # Only the cells the row holds are read (never a padded width of empty ones).
        found: dict[int, Cell] = {}
        for cell in parsed:
            if cell["column"] <= MAX_COLUMNS:
                found[cell["column"]] = _xlsx_cell(cell["value"], allowance)
        filled = {column: cell for column, cell in found.items() if cell != ""}
        if filled:
            _refuse_past_last_row(number, sheet.title)
            cells = tuple(filled.get(column, "") for column in range(1, max(filled) + 1))
            rows.append((number, cells))
    return Sheet(name=sheet.title, rows=tuple(rows))


def _xlsx_rows(sheet: Any) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The rows the sheet's XML holds, as openpyxl reads them: (row number, cells).

    Not ReadOnlyWorksheet.iter_rows: it pads every row missing from the file with empty
    cells, so that one empty cell at row 1,048,576 made a million rows of a hundred cells (6 s
    of CPU a sheet). Its parser, underneath, yields only what the file holds; the declared
    dimension, which a 5 KB file may set to XFD1048576, is not used at all.
    """
    from openpyxl.worksheet._reader import WorkSheetParser

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
        yield from parser.parse()


def _refuse_past_last_row(number: int, sheet: str) -> None:
    # Refused rather than cut: an import that silently left rows out would mislead.
    if number > MAX_ROWS:
        raise RegisterFileUnreadable(
            f"Sheet '{sheet}' has rows past row {MAX_ROWS:,}; a register import reads at most"
            f" {MAX_ROWS:,} rows per sheet.",
            details={"file": ["too many rows"]},
        )


def _xlsx_cell(value: Any, allowance: _Allowance) -> Cell:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    text = str(value)
    if text.startswith("#") and text.endswith(("!", "?", "A")) and len(text) < 15:
        return ""  # an error value (#REF!, #N/A ...) says nothing about the register
    return allowance.text(text.strip())


def _trim(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    end = len(cells)
    while end and cells[end - 1] == "":
        end -= 1
    return cells[:end]


# -- CSV ------------------------------------------------------------------------------------


def decode_text(content: bytes) -> str:
    """Text of a CSV: a BOM, else UTF-8, else charset detection, else cp1252 (any byte)."""
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if content.startswith(bom):
            return content.decode(codec, errors="replace")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(content[: 256 * 1024]).best()
    codec = best.encoding if best is not None else "cp1252"
    # Spreadsheet programs on Western systems write cp1252; latin-1 lacks its € and quotes.
    if codecs.lookup(codec).name in ("latin-1", "iso8859-1"):
        codec = "cp1252"
    return content.decode(codec, errors="replace")


def _delimiter(text: str) -> str:
    sample = "\n".join(text[:SNIFF_SAMPLE_CHARS].splitlines()[:SNIFF_SAMPLE_LINES])
    try:
        return csv.Sniffer().sniff(sample, delimiters=_CSV_DELIMITERS).delimiter
    except csv.Error:
        # Excel in German and French locales writes ";"; elsewhere ",".
        first = text.split("\n", 1)[0]
        return max(_CSV_DELIMITERS, key=first.count)


def _read_csv(content: bytes, *, name: str, allowance: _Allowance) -> Sheet:
    text = decode_text(content).replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    rows = []
    try:
        for number, values in enumerate(reader, start=1):
            allowance.take_cells(len(values) + 1)  # as a sheet's cells and row element
            cells = tuple(allowance.text(value.strip()) for value in values[:MAX_COLUMNS])
            if any(cells):
                _refuse_past_last_row(number, name)
                rows.append((number, _trim(cells)))
    except csv.Error as error:
        raise RegisterFileUnreadable(
            f"The CSV file could not be read: {error}.", details={"file": ["malformed CSV"]}
        ) from error
    return Sheet(name=name, rows=tuple(rows))
