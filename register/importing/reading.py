"""Reading a register file into plain rows of text: an XLSX workbook, an ODS spreadsheet or a
CSV file.

Nothing here knows what the columns mean (headers.py does), and nothing here reads a
format: the file is detected and read by the formats package, by the same rules as an
asset upload (formats.detection, the zip-bomb check, encoding detection, the cell and text
budget of formats.tabular). This module gives the register import's bounds: a sheet with
rows past MAX_ROWS is refused (never cut short), the columns past MAX_COLUMNS are not read,
a workbook whose parts would inflate past MAX_UNCOMPRESSED_BYTES is refused before it is
opened (a register is a few hundred kilobytes; a zip bomb is not), and the settings
REGISTER_IMPORT_MAX_SHEETS, _MAX_CELLS and _MAX_TEXT_CHARS refuse a file whose sheets,
cells (empty ones included) or text would cost more than a register ever needs, before
the cost is paid; a cell past REGISTER_IMPORT_MAX_CELL_CHARS is cut (a CutText, which the
row's problems mention). It also turns the formats' refusals into the import's errors.
"""

from __future__ import annotations

from django.conf import settings

from formats.detection import detect_file_type
from formats.errors import FormatError, InvalidFileType, RowsRefused
from formats.kinds import FileKind
from formats.limits import RowLimits, ZipLimits
from formats.registry import format_of
from formats.tabular import Cell, CutText, Sheet
from register.importing.errors import (
    RegisterFileTooLarge,
    RegisterFileType,
    RegisterFileUnreadable,
    over_limit,
)

__all__ = ["MAX_ROWS", "Cell", "CutText", "Sheet", "read_register_file"]

MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 5_000
MAX_COLUMNS = 100


def read_register_file(*, content: bytes, file_name: str) -> list[Sheet]:
    """The sheets of an XLSX workbook, an ODS spreadsheet or a CSV file, detected as an asset
    upload is (an upload refuses ODS, which only the register import reads).

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
    try:
        kind = detect_file_type(
            content, declared_name=file_name, declared_content_type=None, as_rows=True
        )
    except InvalidFileType as error:
        if error.damaged:
            raise RegisterFileUnreadable(
                "The workbook is not a valid XLSX or ODS (ZIP) file.",
                details={"file": ["corrupt"]},
            ) from error
        raise _wrong_type(file_name, error.message) from error
    # Plain text under another text extension (.txt) is read as delimited text, as before.
    read_rows = format_of(FileKind.CSV if kind.is_text else kind).read_rows
    if read_rows is None:
        raise _wrong_type(file_name, f"its content is {kind.value.upper()}")
    try:
        return read_rows(content, file_name or "CSV", _limits())
    except RowsRefused as error:
        raise _refusal(error) from error
    except FormatError as error:
        raise RegisterFileUnreadable(error.message, details={"file": ["unreadable"]}) from error


def _limits() -> RowLimits:
    return RowLimits(
        max_rows=MAX_ROWS,
        max_columns=MAX_COLUMNS,
        max_sheets=settings.REGISTER_IMPORT_MAX_SHEETS,
        max_cells=settings.REGISTER_IMPORT_MAX_CELLS,
        max_chars=settings.REGISTER_IMPORT_MAX_TEXT_CHARS,
        max_cell_chars=settings.REGISTER_IMPORT_MAX_CELL_CHARS,
        # The ratio and member bounds are the asset upload's; a register unpacks smaller.
        zip=ZipLimits(max_total_uncompressed=MAX_UNCOMPRESSED_BYTES),
    )


def _wrong_type(file_name: str, reason: str) -> RegisterFileType:
    return RegisterFileType(
        f"'{file_name}' is neither an XLSX or ODS workbook nor a CSV file: a register is"
        " imported from one of those (save it as .xlsx, .ods or .csv from your spreadsheet"
        f" program). ({reason})",
        details={"file": ["expected XLSX, ODS or CSV"]},
    )


def _refusal(error: RowsRefused) -> RegisterFileUnreadable:
    """The import's refusal of a file over one of its bounds, naming the setting that moves
    it; or the reader's reason."""
    maximum = error.maximum or 0
    if error.limit == "sheets":
        return over_limit(
            f"The workbook has more than {maximum:,} sheets; a register import reads"
            f" at most {maximum:,}. Delete the sheets that are no part of the"
            " register, or save the register's sheets in a workbook of their own.",
            problem="too many sheets",
            setting="REGISTER_IMPORT_MAX_SHEETS",
            maximum=maximum,
        )
    if error.limit == "cells":
        return over_limit(
            f"The file holds more than {maximum:,} cells (empty ones included);"
            " a register import reads at most that many. Delete the empty rows and"
            " columns below and beside the table, or split the file.",
            problem="too many cells",
            setting="REGISTER_IMPORT_MAX_CELLS",
            maximum=maximum,
        )
    if error.limit == "text":
        return over_limit(
            f"The file's cells hold more than {maximum:,} characters of text;"
            " a register import reads at most that many.",
            problem="too much text",
            setting="REGISTER_IMPORT_MAX_TEXT_CHARS",
            maximum=maximum,
        )
    return RegisterFileUnreadable(error.message, details={"file": [error.problem]})
