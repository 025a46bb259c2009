"""DOCX and PPTX: Office Open XML containers, read with python-docx and python-pptx.

Both are checked against zip bombs (zipguard.py) before a parser opens them, and every
library error becomes ExtractionFailed. Neither is converted.

DOCX: body paragraphs and tables in document order (nested tables included, merged cells
once, cells joined with " | "; a vertically merged cell's text on the row that starts the
merge only), then each distinct header and footer (location "header" /
"footer"). Word has no stable page numbers, so body segments carry no location. PPTX: one
segment per slide ("slide N") with every text frame (group shapes too), tables and the
speaker notes. Both parse XML through lxml with entity resolution off, so an XXE probe
yields its visible text and fetches nothing.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

from formats.errors import ExtractionFailed
from formats.kinds import FileKind
from formats.limits import ReadLimits
from formats.registry import Format
from formats.segments import Segment
from formats.zipguard import UnsafeArchive, check_zip_container

SEGMENT_TARGET_CHARS = 16_000


def iter_docx_segments(path: Path) -> Iterator[Segment]:
    """Yield DOCX body text in segments of about 16k characters, then headers and footers.

    Library errors propagate; ``read_office`` turns them into ExtractionFailed.
    """
    import docx

    document = docx.Document(str(path))
    buffer: list[str] = []
    size = 0
    for line in _docx_block_lines(document.iter_inner_content()):
        buffer.append(line)
        size += len(line) + 1
        if size >= SEGMENT_TARGET_CHARS:
            yield Segment("\n".join(buffer) + "\n", None)
            buffer, size = [], 0
    if buffer:
        yield Segment("\n".join(buffer) + "\n", None)

    seen_parts: set[int] = set()
    for section in document.sections:
        for location, parts in (
            ("header", (section.header, section.first_page_header, section.even_page_header)),
            ("footer", (section.footer, section.first_page_footer, section.even_page_footer)),
        ):
            for part in parts:
                # A linked header is the previous section's; reading it again duplicates text.
                if part.is_linked_to_previous:
                    continue
                key = id(part.part)
                if key in seen_parts:
                    continue
                seen_parts.add(key)
                lines = list(_docx_block_lines(part.iter_inner_content()))
                if lines:
                    yield Segment("\n".join(lines) + "\n", location)


def _docx_block_lines(blocks: Iterable[Any]) -> Iterator[str]:
    from docx.table import Table

    for block in blocks:
        if isinstance(block, Table):
            yield from _docx_table_lines(block)
        else:
            text = block.text.strip()
            if text:
                yield text


def _docx_table_lines(table: Any) -> Iterator[str]:
    """One line per row: its cells' text joined with " | ", merged cells once.

    Read from the table's XML, not python-docx's ``row.cells``: that repeats a cell once per
    grid column it spans, and one ``<w:gridSpan w:val="2147483647"/>`` made it build a
    2^31-entry tuple. Here each ``<w:tc>`` is read once, whatever it spans. A cell
    continuing a vertical merge (``<w:vMerge/>``) is empty: its text is the merge's, read
    once on the row that starts it. Repeating it on every continuation row (as
    ``row.cells`` does) turned an 820 KB file of 1 MB of text continued on 500,000 rows
    into 500 GB of text.
    """
    from docx.table import _Cell

    for tr in table._tbl.tr_lst:
        cells: list[str] = []
        for tc in tr.tc_lst:
            if tc.vMerge == "continue":
                continue
            cells.append(" ".join(_docx_block_lines(_Cell(tc, table).iter_inner_content())))
        line = " | ".join(cell for cell in cells if cell)
        if line:
            yield line


def iter_pptx_segments(path: Path) -> Iterator[Segment]:
    """Yield one segment per slide ("slide N", from 1) with its text, tables and notes."""
    from pptx import Presentation

    presentation = Presentation(str(path))
    for number, slide in enumerate(presentation.slides, start=1):
        lines = list(_pptx_shape_lines(slide.shapes))
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            if notes is not None and notes.text.strip():
                lines.append(notes.text.strip())
        if lines:
            yield Segment("\n".join(lines) + "\n", f"slide {number}")


def _pptx_shape_lines(shapes: Iterable[Any]) -> Iterator[str]:
    for shape in shapes:
        if getattr(shape, "shape_type", None) is not None and hasattr(shape, "shapes"):
            yield from _pptx_shape_lines(shape.shapes)  # a group shape
            continue
        if getattr(shape, "has_table", False):
            for row in shape.table.rows:
                line = " | ".join(cell.text.strip() for cell in row.cells if cell.text.strip())
                if line:
                    yield line
        if getattr(shape, "has_text_frame", False):
            for paragraph in shape.text_frame.paragraphs:
                text = "".join(run.text for run in paragraph.runs).strip() or paragraph.text.strip()
                if text:
                    yield text


def read_office(
    path: Path,
    limits: ReadLimits,
    *,
    label: str,
    iterator: Callable[[Path], Iterator[Segment]],
) -> Iterator[Segment]:
    """The segments of an Office container, after its zip-bomb check; ExtractionFailed for
    a container over the bounds or one the library cannot read."""
    try:
        check_zip_container(path, limits=limits.zip)
    except UnsafeArchive as error:
        raise ExtractionFailed(f"{label} refused: {error}") from error
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


def _read_docx(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    return read_office(path, limits, label="DOCX", iterator=iter_docx_segments)


def _read_pptx(path: Path, limits: ReadLimits) -> Iterator[Segment]:
    return read_office(path, limits, label="PPTX", iterator=iter_pptx_segments)


# Windows browsers declare an Office file as a ZIP archive.
ZIP_MEDIA_TYPES = frozenset({"application/zip", "application/x-zip-compressed"})

FORMATS = (
    Format(
        kind=FileKind.DOCX,
        media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        other_media_types=ZIP_MEDIA_TYPES,
        extensions=(".docx",),
        zip_main_part="word/document.xml",
        read=_read_docx,
    ),
    Format(
        kind=FileKind.PPTX,
        media_type="application/vnd.openxmlformats-officedocument.presentationml.presentation",
        other_media_types=ZIP_MEDIA_TYPES,
        extensions=(".pptx",),
        zip_main_part="ppt/presentation.xml",
        read=_read_pptx,
    ),
)
