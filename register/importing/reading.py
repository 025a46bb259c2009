"""Reading a register file into plain rows of text: XLSX (openpyxl, read-only) or CSV.

Nothing here knows what the columns mean (headers.py does). Bounds keep a hostile or
mistaken upload cheap: a sheet with rows past MAX_ROWS is refused (never cut short), the
columns past MAX_COLUMNS are not read, and a workbook whose parts would inflate past
MAX_UNCOMPRESSED_BYTES is refused before openpyxl opens it (a register is a few hundred
kilobytes; a zip bomb is not).
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import math
import zipfile
from dataclasses import dataclass
from typing import Any

import charset_normalizer

from register.importing.errors import (
    RegisterFileTooLarge,
    RegisterFileType,
    RegisterFileUnreadable,
)

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 5_000
MAX_COLUMNS = 100
MAX_CELL_CHARS = 10_000
_XLSX_MAGIC = b"PK\x03\x04"
_CSV_DELIMITERS = ";,\t|"


Cell = str | datetime.date


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet (a CSV file is one sheet): its rows as (1-based row number, cell texts)."""

    name: str
    rows: tuple[tuple[int, tuple[Cell, ...]], ...]


def read_register_file(*, content: bytes, file_name: str) -> list[Sheet]:
    """The sheets of an XLSX workbook or a CSV file, by content (the name only breaks ties).

    Raises RegisterFileType for anything else, RegisterFileTooLarge past MAX_FILE_BYTES,
    RegisterFileUnreadable for a corrupt or empty file; the message says which, for users.
    """
    if len(content) > MAX_FILE_BYTES:
        raise RegisterFileTooLarge(
            f"The file is {len(content):,} bytes; a register import takes at most"
            f" {MAX_FILE_BYTES:,}.",
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
        return _read_xlsx(content)
    if lowered.endswith((".xlsx", ".xlsm", ".xls", ".ods", ".pdf", ".docx")):
        raise _wrong_type(file_name)
    if b"\x00" in content[:4096] and not content.startswith(
        (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    ):
        raise _wrong_type(file_name)
    return [_read_csv(content, name=file_name or "CSV")]


def _wrong_type(file_name: str) -> RegisterFileType:
    return RegisterFileType(
        f"'{file_name}' is neither an XLSX workbook nor a CSV file: a register is imported"
        " from one of those (save it as .xlsx or .csv from your spreadsheet program).",
        details={"file": ["expected XLSX or CSV"]},
    )


# -- XLSX -----------------------------------------------------------------------------------


def _read_xlsx(content: bytes) -> list[Sheet]:
    from openpyxl import load_workbook

    _refuse_zip_bomb(content)
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:
        # openpyxl raises a wide, version-dependent set of errors on malformed parts.
        raise RegisterFileUnreadable(
            f"The workbook could not be read ({type(error).__name__}): is it a valid XLSX file?",
            details={"file": ["unreadable workbook"]},
        ) from error
    try:
        return [_xlsx_sheet(sheet) for sheet in workbook.worksheets]
    except Exception as error:
        raise RegisterFileUnreadable(
            f"A sheet of the workbook could not be read ({type(error).__name__}).",
            details={"file": ["unreadable sheet"]},
        ) from error
    finally:
        workbook.close()


def _refuse_zip_bomb(content: bytes) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            inflated = sum(member.file_size for member in archive.infolist())
    except zipfile.BadZipFile as error:
        raise RegisterFileUnreadable(
            "The workbook is not a valid XLSX (ZIP) file.", details={"file": ["corrupt"]}
        ) from error
    if inflated > MAX_UNCOMPRESSED_BYTES:
        raise RegisterFileUnreadable(
            "The workbook unpacks to more than a register import reads.",
            details={"file": ["too large when unpacked"]},
        )


def _xlsx_sheet(sheet: Any) -> Sheet:
    # The declared dimension is not trusted (a 5 KB file may declare XFD1048576).
    sheet.reset_dimensions()
    rows = []
    for number, values in enumerate(
        sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS), start=1
    ):
        cells = tuple(_xlsx_cell(value) for value in values[:MAX_COLUMNS])
        if any(cells):
            _refuse_past_last_row(number, sheet.title)
            rows.append((number, _trim(cells)))
    return Sheet(name=sheet.title, rows=tuple(rows))


def _refuse_past_last_row(number: int, sheet: str) -> None:
    # Refused rather than cut: an import that silently left rows out would mislead.
    if number > MAX_ROWS:
        raise RegisterFileUnreadable(
            f"Sheet '{sheet}' has rows past row {MAX_ROWS:,}; a register import reads at most"
            f" {MAX_ROWS:,} rows per sheet.",
            details={"file": ["too many rows"]},
        )


def _xlsx_cell(value: Any) -> Cell:
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
    return text.strip()[:MAX_CELL_CHARS]


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
    # Bounded: the sniffer's regular expressions are slow on long lines.
    sample = "\n".join(text[:65_536].splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=_CSV_DELIMITERS).delimiter
    except csv.Error:
        # Excel in German and French locales writes ";"; elsewhere ",".
        first = text.split("\n", 1)[0]
        return max(_CSV_DELIMITERS, key=first.count)


def _read_csv(content: bytes, *, name: str) -> Sheet:
    text = decode_text(content).replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    rows = []
    try:
        for number, values in enumerate(reader, start=1):
            cells = tuple(value.strip()[:MAX_CELL_CHARS] for value in values[:MAX_COLUMNS])
            if any(cells):
                _refuse_past_last_row(number, name)
                rows.append((number, _trim(cells)))
    except csv.Error as error:
        raise RegisterFileUnreadable(
            f"The CSV file could not be read: {error}.", details={"file": ["malformed CSV"]}
        ) from error
    return Sheet(name=name, rows=tuple(rows))
