"""The record of processing as a spreadsheet: what supervisory authorities often receive.

Read from the document's Markdown like every other export (so manual edits are in it):
one row per processing activity (a level-2 section holding the Art. 30(1)(b) item, or the
whole document for a record of one activity) with the Art. 30(1)(a)-(g) columns; a
"Processors" sheet with the Art. 30(2) part, one row per activity carried out as processor;
an "About" sheet with the document's metadata (version, SHA-256 of the Markdown).
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from collections.abc import Callable

from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import HEADING_PATTERN
from gdpr.composition.register import ACTIVITY_SECTION_PREFIX
from gdpr.i18n import in_every_language
from legal_documents.exports.base import ExportMeta, ExportRenderError, metadata_rows
from legal_documents.rendering import markdown_to_text

# Excel's limit per cell.
MAX_CELL = 32_767
COLUMNS = (
    ("Processing activity", None),
    ("(a) Controller, joint controllers, representative, DPO", "a-controller"),
    ("(b) Purposes", "b-purposes"),
    ("Legal basis (Art. 6(1))", "purpose-basis"),
    ("(c) Data subjects and personal data", "c-categories"),
    ("Special categories (Art. 9, 10)", "special-categories"),
    ("(d) Recipients", "d-recipients"),
    ("(e) Transfers to third countries", "e-transfers"),
    ("(f) Time limits for erasure", "f-erasure"),
    ("(g) Technical and organisational measures", "g-security"),
)
_SECTION_NUMBER = re.compile(r"^\d+\.\s+")
# The heading's citation in any language ("(Art. 30(1))", "(article 30, paragraphe 1, du RGPD)").
_ARTICLE_SUFFIX = re.compile(r"\s*\((?:Art\.|[Aa]rt(?:icle|ículo|icolo))\s.*\)\s*$")
_ACTIVITY_LINE = re.compile(r"^Processing activity:\s*(.+)$", re.MULTILINE)
# The activity sections' heading prefix, in whichever language the register was written.
_ACTIVITY_PREFIXES = sorted(in_every_language(ACTIVITY_SECTION_PREFIX), key=len, reverse=True)


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def _text(markdown: str) -> str:
    """Plain text: decoration removed and the writers' backslash escapes undone."""
    return _ESCAPED.sub(r"\1", markdown_to_text(markdown).replace("\\\n", "\n")).strip()


def _cell(value: object) -> object:
    """A value a cell takes: text without the C0 controls a worksheet refuses (register text
    may hold them), within Excel's length."""
    if not isinstance(value, str):
        return value
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    text = ILLEGAL_CHARACTERS_RE.sub("", value)
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def _sections(markdown: str) -> list[tuple[int, str]]:
    """(line index, plain title) of each level-2 heading."""
    found = []
    for index, line in enumerate(markdown.splitlines()):
        match = HEADING_PATTERN.match(line)
        if match and len(match.group(1)) == 2:
            title = _SECTION_NUMBER.sub("", _text(match.group(2)))
            found.append((index, _ARTICLE_SUFFIX.sub("", title)))
    return found


def _section_index(sections: list[tuple[int, str]]) -> Callable[[int], int]:
    """`line -> position of the level-2 section holding it` (-1 before the first).

    The starts are built once and searched by bisection: scanning every section for every
    item block made a whole register's export quadratic in its activities.
    """
    starts = [start for start, _ in sections]
    return lambda line: bisect_right(starts, line) - 1


def activity_rows(markdown: str, fallback_name: str) -> tuple[list[list[str]], list[list[str]]]:
    """(rows of the record, rows of the processors sheet) read from the Markdown."""
    sections = _sections(markdown)
    section_of = _section_index(sections)
    blocks = item_blocks(markdown)
    by_section: dict[int, dict[str, str]] = {}
    for item_id, found in blocks.items():
        for block in found:
            texts = by_section.setdefault(section_of(block.heading_line), {})
            texts.setdefault(item_id, block.body)
    controller = next(
        (texts["a-controller"] for texts in by_section.values() if "a-controller" in texts), ""
    )
    rows = []
    for section, texts in sorted(by_section.items()):
        if "b-purposes" not in texts:
            continue
        title = sections[section][1] if section >= 0 else ""
        prefix = next((p for p in _ACTIVITY_PREFIXES if title.startswith(p)), None)
        if prefix is not None:
            name = title[len(prefix) :]
        else:
            named = _ACTIVITY_LINE.search(_text(texts["b-purposes"]))
            name = named.group(1).strip() if named else fallback_name
        row = [name]
        for _, item_id in COLUMNS[1:]:
            body = controller if item_id == "a-controller" else texts.get(item_id or "", "")
            row.append(_text(body))
        rows.append(row)
    processors = []
    for block in blocks.get("processor-record", []):
        parts = re.split(r"^#### (.+)$", block.body, flags=re.MULTILINE)
        if len(parts) == 1:
            processors.append(["", _text(block.body)])
        for position in range(1, len(parts), 2):
            processors.append([_text(parts[position]), _text(parts[position + 1])])
    return rows, processors


def render_xlsx(markdown: str, meta: ExportMeta) -> bytes:
    # openpyxl itself, not pandas' to_excel: pandas writes through openpyxl too, with a header
    # style of its own to undo and the same styling pass after, for the same CPU (800
    # activities: 1.04 s against 0.99 s) plus 0.46 s and 35 MB to import it in the web process
    # (bench/bench_tabular_pandas.py).
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    rows, processors = activity_rows(markdown, meta.document_title)
    try:
        workbook = Workbook()
        record = workbook.active
        record.title = "Record (Art. 30(1))"
        sheets = (
            (record, [title for title, _ in COLUMNS], rows),
            (
                workbook.create_sheet("Processors (Art. 30(2))"),
                ["Processing activity", "Record of the processor (Art. 30(2))"],
                processors,
            ),
            (workbook.create_sheet("About"), ["Field", "Value"], metadata_rows(meta)),
        )
        for sheet, headers, values in sheets:
            sheet.append(headers)
            for cell in sheet[1]:
                cell.font = Font(bold=True)
            # Rows by their known number: `sheet.max_row` is recomputed over every cell, so
            # asking it once per row made a whole register's workbook quadratic.
            for number, row in enumerate(values, start=2):
                sheet.append([_cell(value) for value in row])
                for column in range(1, len(row) + 1):
                    cell = sheet.cell(row=number, column=column)
                    # Register text is data, never a formula (spreadsheet injection).
                    if isinstance(cell.value, str) and cell.value.startswith("="):
                        cell.data_type = "s"
            for column in sheet.columns:
                sheet.column_dimensions[column[0].column_letter].width = 40
                for cell in column[1:]:
                    cell.alignment = Alignment(wrap_text=True, vertical="top")
            sheet.freeze_panes = "B2"
        output = io.BytesIO()
        workbook.save(output)
    except Exception as error:  # openpyxl refuses e.g. control characters in a cell
        raise ExportRenderError("xlsx", type(error).__name__) from error
    return output.getvalue()
