"""PDF: recognised by its ``%PDF-`` header, read with pypdfium2, one segment per page
("page N"). Not converted.

With OCR options (``ReadLimits.ocr``), the pages that are pictures (an image, and fewer than
MIN_PAGE_CHARACTERS characters of text: a scan) are recognised by OCR (formats/ocr.py) and
their segments carry the confidence. The file is read once as long as its pages hold text;
from the first page that does not, the rest is looked at, the pictures recognised, and the
reading goes on from that page in OCRmyPDF's output (the same pages, the recognised ones
with their text). Without OCR, a PDF whose every page is a picture fails with a message that
says how to enable it; one with some text (even a few characters over a scan) keeps that
text, as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from formats.errors import ExtractionFailed
from formats.kinds import FileKind
from formats.limits import ReadLimits
from formats.ocr import (
    MIN_PAGE_CHARACTERS,
    OcrOptions,
    ocr_needed_message,
    ocr_unavailable_reason,
    recognised_pages,
)
from formats.registry import Format
from formats.segments import Segment


def iter_pdf_segments(path: Path) -> Iterator[Segment]:
    """Yield the text of each page, numbered from 1; pages without text are skipped.

    Raises ExtractionFailed for a password-protected PDF (a PDF encrypted with an empty
    user password opens normally) and for one PDFium cannot load or read.
    """
    with _opened(path) as document:
        for page_number in range(1, len(document) + 1):
            text = _page_text(document, page_number)
            if text.strip():
                yield Segment(text=text, location=f"page {page_number}")


def iter_pdf_segments_with_ocr(path: Path, *, options: OcrOptions | None) -> Iterator[Segment]:
    """Like :func:`iter_pdf_segments`, the pictures of pages recognised (module docstring)."""
    pictures: list[int] = []
    with _opened(path) as document:
        page_count = len(document)
        for page_number in range(1, page_count + 1):
            text = _page_text(document, page_number)
            if not _is_picture(document, page_number, text):
                yield Segment(text=text, location=f"page {page_number}")
                continue
            pictures = [page_number] + [
                later
                for later in range(page_number + 1, page_count + 1)
                if _is_picture(document, later, _page_text(document, later))
            ]
            break
    if not pictures:
        return
    first = pictures[0]
    reason = ocr_unavailable_reason(options)
    if reason is not None or options is None:
        # The text there is, as without OCR; a file with none at all says how to enable it.
        found_text = first > 1
        for segment in _segments_from(path, first=first):
            found_text = True
            yield segment
        if not found_text:
            raise ExtractionFailed(ocr_needed_message(reason or ""))
        return
    with recognised_pages(path, pages=pictures, options=options) as recognised:
        for segment in _segments_from(recognised.path, first=first):
            page = recognised.pages.get(int((segment.location or "page 0").split()[1]))
            if page is None:
                yield segment
            else:
                yield Segment(
                    segment.text, segment.location, ocr_confidence=page.confidence,
                    ocr_words=page.words,
                )  # fmt: skip


def _segments_from(path: Path, *, first: int) -> Iterator[Segment]:
    with _opened(path) as document:
        for page_number in range(first, len(document) + 1):
            text = _page_text(document, page_number)
            if text.strip():
                yield Segment(text=text, location=f"page {page_number}")


def _is_picture(document: Any, page_number: int, text: str) -> bool:
    """Whether the page is a picture of a page: little text, and an image to recognise (a
    short page of text, or a blank one, is left as it is)."""
    if sum(not character.isspace() for character in text) >= MIN_PAGE_CHARACTERS:
        return False
    import pypdfium2 as pdfium  # type: ignore[import-untyped]
    import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped]

    try:
        page = document[page_number - 1]
        try:
            images = page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,))
            return next(iter(images), None) is not None
        finally:
            page.close()
    except pdfium.PdfiumError as error:
        raise ExtractionFailed(
            f"PDF page {page_number} is damaged or unreadable: {error}"
        ) from error


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[Any]:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise ExtractionFailed(
                "PDF is password-protected; upload it without a password"
            ) from error
        raise ExtractionFailed(f"PDF is damaged or unreadable: {error}") from error
    try:
        yield document
    finally:
        document.close()


def _page_text(document: Any, page_number: int) -> str:
    import pypdfium2 as pdfium

    try:
        page = document[page_number - 1]
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
            f"PDF page {page_number} is damaged or unreadable: {error}"
        ) from error
    return str(_normalise(text))


def _normalise(text: str) -> str:
    # PDFium ends lines with CRLF and marks hyphenation points with U+0002 / soft hyphens.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\x02", "").replace("\u00ad", "").replace("\ufffe", "")
    return text if text.endswith("\n") else text + "\n"


def _read(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    return iter_pdf_segments_with_ocr(path, options=limits.ocr)


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
