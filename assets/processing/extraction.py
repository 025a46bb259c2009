"""Text extraction for every accepted kind, as a stream of located segments.

Contract of :func:`extract_segments`:

* yields ``Segment(text, location)`` lazily; the caller may stop early;
* locations: "page N" (PDF), "slide N" (PPTX), "sheet NAME" (XLSX), "header"/"footer"
  (DOCX headers and footers), None otherwise;
* text kinds (CSV, TXT, MD) and HTML are read in 1 MiB blocks, so memory stays bounded
  whatever the file size; PDF pages, slides and sheets are read one at a time;
* Office files are checked against zip bombs before a parser opens them;
* failures raise ExtractionFailed (ConversionFailed, its subclass, for XLSX and HTML);
  nothing else escapes except a programming error;
* a file that yields no text at all (empty, whitespace only, a scanned PDF without a
  text layer, a workbook with empty sheets) raises ExtractionFailed("no text found ...")
  once the stream is exhausted: the asset is FAILED rather than COMPLETED with zero chunks,
  so the user learns that nothing is searchable;
* with ``max_chars``, the text is counted as it streams: a segment that would take the
  total past it is not yielded, and ExtractionFailed (ConversionFailed for XLSX and HTML)
  says so. A workbook's cells are counted before its CSV is written (xlsx.py): a few bytes
  of cells that all point at one long shared string fail at once;
* the ingestion task runs this in a child process under a memory and a time bound
  (isolation.py), whatever the parser.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree.ElementTree import ParseError

from assets.processing.conversion import iter_html_text, iter_xlsx_sheets_as_csv
from assets.processing.datatypes import FileKind, Segment
from assets.processing.encoding import iter_decoded_blocks
from assets.processing.errors import ConversionFailed, ExtractionFailed, text_limit_message
from assets.processing.extract_office import iter_docx_segments, iter_pptx_segments
from assets.processing.extract_pdf import iter_pdf_segments
from assets.processing.xlsx import DEFAULT_MAX_CELLS_PER_SHEET
from assets.processing.zipguard import UnsafeArchive, check_zip_container

NO_TEXT_MESSAGE = "no text found in the file"


def extract_segments(
    path: Path,
    kind: FileKind,
    *,
    max_sheet_cells: int = DEFAULT_MAX_CELLS_PER_SHEET,
    max_chars: int | None = None,
) -> Iterator[Segment]:
    """Yield the text of ``path`` (already detected as ``kind``) as located segments.

    Raises ExtractionFailed / ConversionFailed as described in the module docstring (a
    sheet with more than ``max_sheet_cells`` non-empty cells, or text longer than
    ``max_chars`` characters). What was yielded before never passes ``max_chars``. A
    MemoryError propagates: isolation.py reports it as the memory bound it is.
    """
    found_text = False
    characters = 0
    segments = _segments_by_kind(path, kind, max_sheet_cells=max_sheet_cells, max_chars=max_chars)
    for segment in segments:
        characters += len(segment.text)
        if max_chars is not None and characters > max_chars:
            raise _over_text_limit(kind, max_chars)
        if not found_text and segment.text.strip():
            found_text = True
        yield segment
    if not found_text:
        hint = " (a scanned PDF needs OCR, which is not supported)" if kind is FileKind.PDF else ""
        raise ExtractionFailed(NO_TEXT_MESSAGE + hint)


def _over_text_limit(kind: FileKind, limit: int) -> ExtractionFailed:
    message = text_limit_message(limit)
    if kind is FileKind.XLSX:
        return ConversionFailed(message, original_format="xlsx", target_format="csv")
    if kind is FileKind.HTML:
        return ConversionFailed(message, original_format="html", target_format="txt")
    return ExtractionFailed(message)


def _segments_by_kind(
    path: Path, kind: FileKind, *, max_sheet_cells: int, max_chars: int | None
) -> Iterator[Segment]:
    if kind.is_text:
        for block in iter_decoded_blocks(path):
            yield Segment(block, None)
    elif kind is FileKind.HTML:
        for text in iter_html_text(path):
            yield Segment(text, None)
    elif kind is FileKind.XLSX:
        sheets = iter_xlsx_sheets_as_csv(path, max_cells=max_sheet_cells, max_chars=max_chars)
        for sheet in sheets:
            yield Segment(sheet.csv_text, f"sheet {sheet.name}")
    elif kind is FileKind.PDF:
        yield from iter_pdf_segments(path)
    elif kind in (FileKind.DOCX, FileKind.PPTX):
        yield from _office_segments(path, kind)
    else:  # pragma: no cover - FileKind is closed; a new kind must be wired in here
        raise ExtractionFailed(f"no extractor for {kind}")


def _office_segments(path: Path, kind: FileKind) -> Iterator[Segment]:
    label = kind.value.upper()
    try:
        check_zip_container(path)
    except UnsafeArchive as error:
        raise ExtractionFailed(f"{label} refused: {error}") from error
    iterator = iter_docx_segments if kind is FileKind.DOCX else iter_pptx_segments
    try:
        yield from iterator(path)
    except ExtractionFailed:
        raise
    except (zipfile.BadZipFile, KeyError, ValueError, ParseError, OSError) as error:
        raise ExtractionFailed(f"{label} is damaged or unreadable: {error}") from error
    except MemoryError:
        raise
    except Exception as error:
        # lxml's XMLSyntaxError, python-docx/pptx PackageNotFoundError and friends: all mean
        # "cannot be read"; the task records the message instead of crashing.
        raise ExtractionFailed(f"{label} is damaged or unreadable: {error}") from error
