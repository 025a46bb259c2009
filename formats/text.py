"""Plain text: CSV, TXT and Markdown, read as a character stream; CSV also as rows.

The three only differ in how people read them: any plain text is accepted under any of
their extensions (detection.py). The encoding is detected once, by encoding.py's rules,
for the asset pipeline and the register import alike; text is read in blocks of 1 MiB, so
memory stays bounded whatever the file size.

As rows (the register import): the delimiter is sniffed from the first lines (``;``, ``,``,
tab or ``|``), every row and cell is taken from the caller's budget (tabular.py), empty
cells at the end of a row are dropped and rows without any text are skipped.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from formats.encoding import SAMPLE_BYTES, detect_encoding, iter_decoded_blocks
from formats.errors import RowsRefused
from formats.kinds import FileKind
from formats.limits import ReadLimits, RowLimits
from formats.registry import Format
from formats.segments import Segment
from formats.source import Source, open_binary
from formats.tabular import RowBudget, Sheet, trim

# csv.Sniffer's quote regular expressions are quadratic: 13.4 s on 64 KB of ',"x', and at
# most ~0.25 s on any 4 KB sample of 20 lines (measured by fuzzing on the review machine).
SNIFF_SAMPLE_CHARS = 4096
SNIFF_SAMPLE_LINES = 20
_CSV_DELIMITERS = ";,\t|"
PLAIN_TEXT_MEDIA_TYPES = frozenset({"text/plain", "text/csv", "text/markdown", "text/x-markdown"})


def _read_text(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    for block in iter_decoded_blocks(path):
        yield Segment(block, None)


def decode_text(content: bytes) -> str:
    """The text of ``content`` by encoding.py's rules, line endings normalised to ``\\n``."""
    codec = detect_encoding(content[:SAMPLE_BYTES])
    text = content.decode(codec, errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _delimiter(text: str) -> str:
    sample = "\n".join(text[:SNIFF_SAMPLE_CHARS].splitlines()[:SNIFF_SAMPLE_LINES])
    try:
        return csv.Sniffer().sniff(sample, delimiters=_CSV_DELIMITERS).delimiter
    except csv.Error:
        # Excel in German and French locales writes ";"; elsewhere ",".
        first = text.split("\n", 1)[0]
        return max(_CSV_DELIMITERS, key=first.count)


def read_csv_rows(source: Source, name: str, limits: RowLimits) -> list[Sheet]:
    """The CSV file as one sheet named ``name``; RowsRefused past a bound or for a
    malformed file."""
    with open_binary(source) as handle:
        text = decode_text(handle.read())
    budget = RowBudget(limits)
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    rows = []
    try:
        for number, values in enumerate(reader, start=1):
            budget.take_cells(len(values) + 1)  # as a sheet's cells and row element
            cells = tuple(budget.text(value.strip()) for value in values[: limits.max_columns])
            if any(cells):
                budget.row(number, name)
                rows.append((number, trim(cells)))
    except csv.Error as error:
        raise RowsRefused(
            f"The CSV file could not be read: {error}.", problem="malformed CSV"
        ) from error
    return [Sheet(name=name, rows=tuple(rows))]


FORMATS = (
    Format(
        kind=FileKind.CSV,
        media_type="text/csv",
        # Windows browsers declare a CSV file as an Excel one.
        other_media_types=PLAIN_TEXT_MEDIA_TYPES
        | {"application/csv", "text/comma-separated-values", "text/x-csv"}
        | {"application/vnd.ms-excel"},
        extensions=(".csv",),
        text_content=True,
        plain_text=True,
        read=_read_text,
        read_rows=read_csv_rows,
    ),
    Format(
        kind=FileKind.TXT,
        media_type="text/plain",
        other_media_types=PLAIN_TEXT_MEDIA_TYPES,
        extensions=(".txt", ".text"),
        text_content=True,
        plain_text=True,
        read=_read_text,
    ),
    Format(
        kind=FileKind.MD,
        media_type="text/markdown",
        other_media_types=PLAIN_TEXT_MEDIA_TYPES,
        extensions=(".md", ".markdown"),
        text_content=True,
        plain_text=True,
        read=_read_text,
    ),
)
