"""DOCX and PPTX text extraction (python-docx, python-pptx).

DOCX: body paragraphs and tables in document order (nested tables included, merged cells
once, cells joined with " | "), then each distinct header and footer (location "header" /
"footer"). Word has no stable page numbers, so body segments carry no location. PPTX: one
segment per slide ("slide N") with every text frame (group shapes too), tables and the
speaker notes. Both parse XML through lxml with entity resolution off, so an XXE probe
yields its visible text and fetches nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from assets.processing.datatypes import Segment

SEGMENT_TARGET_CHARS = 16_000
# Word tables have at most 63 columns; a larger span or gridBefore is hostile or broken.
MAX_GRID_SPAN = 64


def iter_docx_segments(path: Path) -> Iterator[Segment]:
    """Yield DOCX body text in segments of about 16k characters, then headers and footers.

    Library errors propagate; ``extraction.extract_segments`` turns them into
    ExtractionFailed.
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
    2^31-entry tuple. Spans only move a column counter here, bounded by MAX_GRID_SPAN. A
    cell continuing a vertical merge shows the text of the cell that starts the merge, as
    ``row.cells`` did.
    """
    from docx.table import _Cell

    merge_starts: dict[int, Any] = {}  # grid column -> the <w:tc> that starts a merge there
    for tr in table._tbl.tr_lst:
        column = _bounded_span(tr.grid_before, minimum=0)
        cells: list[str] = []
        previous = None
        for tc in tr.tc_lst:
            if tc.vMerge == "continue":
                source = merge_starts.get(column, tc)
            else:
                source = merge_starts[column] = tc
            column += _bounded_span(tc.grid_span, minimum=1)
            if source is previous:
                continue
            previous = source
            cells.append(" ".join(_docx_block_lines(_Cell(source, table).iter_inner_content())))
        line = " | ".join(cell for cell in cells if cell)
        if line:
            yield line


def _bounded_span(value: Any, *, minimum: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return minimum
    return min(max(number, minimum), MAX_GRID_SPAN)


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
