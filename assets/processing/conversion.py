"""Format conversions done before extraction: XLSX -> CSV (one per sheet), HTML -> text.

XLSX: openpyxl's read-only reader streams every sheet's cached cell values row by row
(formulas are not recomputed; see xlsx.py: nothing is padded to the declared dimension and
non-empty cells are bounded per sheet); rows and columns that are entirely empty are
dropped; each sheet becomes CSV text under its name. Written to one file, sheets are
separated by ``## Sheet: NAME`` lines.
The ZIP container is checked against zip bombs first; XML entity bombs are stopped by the
XML parser's amplification limit and reported as ConversionFailed like any other failure.

HTML: parsed incrementally with the standard library's tolerant parser (no network, no
entity resolution beyond HTML's named character references). Kept: text, with headings,
paragraphs, list items ("- item") and table rows ("cell | cell") on their own lines and
<pre> whitespace preserved. Dropped: <script>, <style>, <noscript>, <template>, <nav>,
<svg>, <iframe>, <object>, <button>, <select>, <head> except <title>. The encoding comes from
a BOM, else valid UTF-8, else the declared charset, else detection (see encoding.py).

Every failure raises ConversionFailed(original_format=..., target_format=...).
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import IO
from xml.etree.ElementTree import ParseError

from assets.processing.encoding import iter_decoded_blocks
from assets.processing.errors import ConversionFailed
from assets.processing.xlsx import (
    DEFAULT_MAX_CELLS_PER_SHEET,
    WorkbookRefused,
    iter_xlsx_csv_pieces,
)
from assets.processing.zipguard import UnsafeArchive, check_zip_container

SHEET_MARKER = "## Sheet: "


@dataclass(frozen=True, slots=True)
class SheetCsv:
    """CSV text of one worksheet (all of it, or one of its consecutive pieces)."""

    name: str
    csv_text: str


def iter_xlsx_sheets_as_csv(
    path: Path, *, max_cells: int = DEFAULT_MAX_CELLS_PER_SHEET, max_chars: int | None = None
) -> Iterator[SheetCsv]:
    """Yield the CSV of each non-empty worksheet of an XLSX file, in workbook order.

    A large sheet comes in several consecutive pieces with the same name. Raises
    ConversionFailed(original_format="xlsx", target_format="csv") for an unsafe, corrupt or
    unreadable workbook, one without any worksheet, a sheet with more than ``max_cells``
    non-empty cells, or cells holding more than ``max_chars`` characters (see xlsx.py).
    """

    def failed(message: str) -> ConversionFailed:
        return ConversionFailed(message, original_format="xlsx", target_format="csv")

    try:
        check_zip_container(path)
    except UnsafeArchive as error:
        raise failed(str(error)) from error
    try:
        for piece in iter_xlsx_csv_pieces(path, max_cells=max_cells, max_chars=max_chars):
            yield SheetCsv(name=piece.name, csv_text=piece.csv_text)
    except WorkbookRefused as error:
        raise failed(str(error)) from error
    except (ParseError, zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError) as error:
        raise failed(f"spreadsheet could not be read: {_short(error)}") from error
    except MemoryError:
        raise
    except Exception as error:
        # openpyxl raises a wide and version-dependent set of errors on malformed parts;
        # any of them means "this workbook cannot be converted", never a crash of the task.
        raise failed(f"spreadsheet could not be read: {_short(error)}") from error


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


_DROPPED_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "svg",
        "iframe",
        "object",
        "button",
        "select",
        "head",
        "math",
        "canvas",
    }
)
_BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "aside",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "tr",
        "thead",
        "tbody",
        "tfoot",
        "caption",
        "pre",
        "br",
        "hr",
        "form",
        "fieldset",
        "figure",
        "figcaption",
        "address",
        "body",
        "html",
        "title",
    }
)
_CELL_TAGS = frozenset({"td", "th"})
_VOID_TAGS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    }
)


class _TextExtractor(HTMLParser):
    """Collects visible text as lines; ``pop_text`` hands back what is complete so far."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._lines: list[str] = []
        self._current: list[str] = []
        self._skip_depth = 0
        self._pre_depth = 0
        self._in_title = False
        self._row_has_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_TAGS:
            if tag == "br" and not self._skip_depth:
                self._end_line()
            return
        if tag == "title":
            self._in_title = True
        if tag in _DROPPED_TAGS:
            self._skip_depth += 1
            return
        if self._skip_depth:
            return
        if tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "li":
                self._current.append("- ")
            elif tag == "tr":
                self._row_has_cell = False
        elif tag in _CELL_TAGS:
            if self._row_has_cell:
                self._current.append(" | ")
            self._row_has_cell = True
        if tag == "pre":
            self._pre_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _DROPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if self._skip_depth:
            return
        if tag == "pre":
            self._pre_depth = max(0, self._pre_depth - 1)
        if tag in _BLOCK_TAGS:
            self._end_line()

    def handle_data(self, data: str) -> None:
        # <title> sits inside the dropped <head> but names the page: keep it.
        if self._skip_depth and not (self._in_title and self._skip_depth == 1):
            return
        if self._pre_depth:
            lines = data.split("\n")
            for line in lines[:-1]:
                self._current.append(line)
                self._end_line(preformatted=True)
            self._current.append(lines[-1])
        else:
            self._current.append(data)

    def _end_line(self, *, preformatted: bool = False) -> None:
        raw = "".join(self._current)
        self._current = []
        line = raw.rstrip() if preformatted else " ".join(raw.split())
        if line and line not in ("-", "- ", "|"):
            self._lines.append(line)
        elif preformatted and self._lines and self._lines[-1] != "":
            self._lines.append("")

    def pop_text(self) -> str:
        text = "\n".join(self._lines)
        self._lines = []
        return text + "\n" if text else ""

    def finish(self) -> str:
        self.close()
        self._end_line()
        return self.pop_text()


def iter_html_text(path: Path) -> Iterator[str]:
    """Yield the visible text of an HTML file in pieces, reading the file in blocks.

    Each piece ends with a newline. Raises ConversionFailed(original_format="html",
    target_format="txt") if the file cannot be decoded or parsed.
    """
    parser = _TextExtractor()
    try:
        for block in iter_decoded_blocks(path, html=True):
            parser.feed(block)
            text = parser.pop_text()
            if text:
                yield text
        text = parser.finish()
    except (OSError, LookupError, AssertionError, ValueError) as error:
        raise ConversionFailed(
            f"HTML could not be converted to text: {_short(error)}",
            original_format="html",
            target_format="txt",
        ) from error
    if text:
        yield text


def convert_html_to_text(source: Path, destination: Path) -> None:
    """Write the visible text of ``source`` to ``destination`` (UTF-8). Raises ConversionFailed."""
    with destination.open("w", encoding="utf-8") as output:
        for piece in iter_html_text(source):
            output.write(piece)


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 300 else text[:297] + "..."


__all__ = [
    "SHEET_MARKER",
    "SheetCsv",
    "convert_html_to_text",
    "convert_xlsx_to_csv",
    "iter_html_text",
    "iter_xlsx_sheets_as_csv",
    "write_sheet_pieces",
]
