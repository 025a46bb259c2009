"""Format conversions done before extraction: XLSX -> CSV (one per sheet), HTML -> text.

XLSX: pandas with openpyxl reads every sheet's cached cell values (formulas are not
recomputed); rows and columns that are entirely empty are dropped; each sheet becomes CSV
text under its name. Written to one file, sheets are separated by ``## Sheet: NAME`` lines.
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

import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from xml.etree.ElementTree import ParseError

from assets.processing.encoding import iter_decoded_blocks
from assets.processing.errors import ConversionFailed
from assets.processing.zipguard import UnsafeArchive, check_zip_container

SHEET_MARKER = "## Sheet: "


@dataclass(frozen=True, slots=True)
class SheetCsv:
    """One worksheet rendered as CSV text."""

    name: str
    csv_text: str


def iter_xlsx_sheets_as_csv(path: Path) -> Iterator[SheetCsv]:
    """Yield each non-empty worksheet of an XLSX file as CSV, in workbook order.

    Raises ConversionFailed(original_format="xlsx", target_format="csv") for an unsafe,
    corrupt or unreadable workbook, or one without any worksheet.
    """
    import pandas as pd  # heavy; only workers converting spreadsheets pay for it

    def failed(message: str) -> ConversionFailed:
        return ConversionFailed(message, original_format="xlsx", target_format="csv")

    try:
        check_zip_container(path)
    except UnsafeArchive as error:
        raise failed(str(error)) from error
    try:
        with pd.ExcelFile(path, engine="openpyxl") as workbook:
            sheet_names = [str(name) for name in workbook.sheet_names]
            if not sheet_names:
                raise failed("workbook has no worksheets")
            for name in sheet_names:
                frame = pd.read_excel(
                    workbook, sheet_name=name, header=None, dtype=str, keep_default_na=False
                )
                frame = frame.replace("", None).dropna(how="all").dropna(axis=1, how="all")
                if frame.empty:
                    continue
                buffer = io.StringIO()
                frame.to_csv(buffer, index=False, header=False, lineterminator="\n")
                yield SheetCsv(name=name, csv_text=buffer.getvalue())
    except ConversionFailed:
        raise
    except (ParseError, zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError) as error:
        raise failed(f"spreadsheet could not be read: {_short(error)}") from error
    except Exception as error:
        # openpyxl raises a wide and version-dependent set of errors on malformed parts;
        # any of them means "this workbook cannot be converted", never a crash of the task.
        raise failed(f"spreadsheet could not be read: {_short(error)}") from error


def convert_xlsx_to_csv(source: Path, destination: Path) -> list[str]:
    """Write every sheet of ``source`` as CSV to ``destination``; return the sheet names.

    Each sheet starts with a ``## Sheet: NAME`` line. Raises ConversionFailed.
    """
    names: list[str] = []
    with destination.open("w", encoding="utf-8", newline="") as output:
        for sheet in iter_xlsx_sheets_as_csv(source):
            output.write(f"{SHEET_MARKER}{sheet.name}\n{sheet.csv_text}\n")
            names.append(sheet.name)
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
]
