"""PDF: recognised by its ``%PDF-`` header, read with pypdfium2, one segment per page
("page N"). Not converted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from formats.errors import ExtractionFailed
from formats.kinds import FileKind
from formats.limits import ReadLimits
from formats.registry import Format
from formats.segments import Segment


def iter_pdf_segments(path: Path) -> Iterator[Segment]:
    """Yield the text of each page, numbered from 1; pages without text are skipped.

    Raises ExtractionFailed for a password-protected PDF (a PDF encrypted with an empty
    user password opens normally) and for one PDFium cannot load or read.
    """
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise ExtractionFailed(
                "PDF is password-protected; upload it without a password"
            ) from error
        raise ExtractionFailed(f"PDF is damaged or unreadable: {error}") from error
    try:
        for page_index in range(len(document)):
            try:
                page = document[page_index]
                try:
                    textpage = page.get_textpage()
                    try:
                        text = textpage.get_text_range()
                    finally:
                        textpage.close()
                finally:
                    page.close()
            except pdfium.PdfiumError as error:
                raise ExtractionFailed(
                    f"PDF page {page_index + 1} is damaged or unreadable: {error}"
                ) from error
            text = _normalise(text)
            if text.strip():
                yield Segment(text=text, location=f"page {page_index + 1}")
    finally:
        document.close()


def _normalise(text: str) -> str:
    # PDFium ends lines with CRLF and marks hyphenation points with U+0002 / soft hyphens.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\x02", "").replace("\u00ad", "").replace("\ufffe", "")
    return text if text.endswith("\n") else text + "\n"


def _read(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    return iter_pdf_segments(path)


def _has_pdf_header(head: bytes) -> bool:
    # PDF readers accept junk before the header within the first KiB; so do we.
    return b"%PDF-" in head[:1024]


FORMATS = (
    Format(
        kind=FileKind.PDF,
        media_type="application/pdf",
        other_media_types=frozenset({"application/x-pdf"}),
        extensions=(".pdf",),
        signature=_has_pdf_header,
        read=_read,
    ),
)
