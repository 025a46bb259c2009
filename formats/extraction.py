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
* a file that yields no text at all (empty, whitespace only, a workbook with empty sheets,
  a scanned PDF whose pictures OCR cannot read) raises ExtractionFailed("no text found ...")
  once the stream is exhausted: the asset is FAILED rather than COMPLETED with zero chunks,
  so the user learns that nothing is searchable;
* with ``ocr``, the pages of a PDF that are pictures are recognised (pdf.py, ocr.py);
  without, a PDF of pictures only fails at once with a message that says how to enable OCR;
* with ``max_chars``, the text is counted as it streams: a segment that would take the
  total past it is not yielded, and ExtractionFailed (ConversionFailed for XLSX and HTML)
  says so. A workbook's cells are counted before its CSV is written (xlsx.py): a few bytes
  of cells that all point at one long shared string fail at once;
* each format's reader is its registration's (registry.py); this module adds what is
  the same for all of them: the character count and the refusal of a file without text;
* the ingestion task runs this in a child process under a memory and a time bound
  (assets/processing/isolation.py), whatever the parser.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from formats.errors import ExtractionFailed, text_limit_message
from formats.kinds import FileKind
from formats.limits import DEFAULT_MAX_CELLS_PER_SHEET, ReadLimits, ZipLimits
from formats.ocr import OcrOptions
from formats.registry import format_of
from formats.segments import Segment

NO_TEXT_MESSAGE = "no text found in the file"


def extract_segments(
    path: Path,
    kind: FileKind,
    *,
    max_sheet_cells: int = DEFAULT_MAX_CELLS_PER_SHEET,
    max_chars: int | None = None,
    zip_limits: ZipLimits | None = None,
    ocr: OcrOptions | None = None,
) -> Iterator[Segment]:
    """Yield the text of ``path`` (already detected as ``kind``) as located segments.

    Raises ExtractionFailed / ConversionFailed as described in the module docstring (a
    sheet with more than ``max_sheet_cells`` non-empty cells, or text longer than
    ``max_chars`` characters). What was yielded before never passes ``max_chars``. A
    MemoryError propagates: isolation.py reports it as the memory bound it is. ``ocr``: how
    the pictures of a PDF's pages are recognised (None: they are not).
    """
    declared = format_of(kind)
    limits = ReadLimits(
        max_sheet_cells=max_sheet_cells,
        max_chars=max_chars,
        zip=zip_limits or ZipLimits(),
        ocr=ocr,
    )
    found_text = False
    characters = 0
    for segment in declared.read(path, limits):
        characters += len(segment.text)
        if max_chars is not None and characters > max_chars:
            raise declared.failure(text_limit_message(max_chars))
        if not found_text and segment.text.strip():
            found_text = True
        yield segment
    if not found_text:
        # A PDF of pictures without OCR failed in pdf.py already: this one's pages were
        # blank, or OCR recognised nothing on them.
        hint = (
            " (no page holds text that could be read or recognised)" if kind is FileKind.PDF else ""
        )
        raise ExtractionFailed(NO_TEXT_MESSAGE + hint)
