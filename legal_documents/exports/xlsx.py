"""The record of processing as a spreadsheet: what supervisory authorities often receive, and
what a DPO edits in Excel or LibreOffice and imports again.

Every header and sheet name is in the document's language. A record written from the
register (`ExportMeta.register`) has one row per processing activity with the register's
values, one column per field (the Art. 30(1)(a)-(g) columns and the register's others), in
the cells the register import reads back (register.importing.cells): export, edit one cell,
import, and exactly that field of that entry changes. Its "Register ID" column matches each
row to its entry. A "Vendors" sheet holds the vendors the record names, the same way.

A record written from its create body alone (no register) is read from the document's
Markdown, as every other export (so manual edits are in it): one row per processing activity
(a level-2 section holding the Art. 30(1)(b) item, or the whole document for a record of one
activity) with the Art. 30(1)(a)-(g) texts.

Both have a "Processors" sheet with the Art. 30(2) part, one row per activity carried out as
processor, and an "About" sheet with the document's metadata (version, SHA-256 of the
Markdown).
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from collections.abc import Callable

from gdpr.composition.completeness import item_blocks
from gdpr.composition.markdown import HEADING_PATTERN
from gdpr.composition.register import ACTIVITY_SECTION_PREFIX
from gdpr.i18n import N_, _, in_every_language
from legal_documents.exports.base import (
    ExportMeta,
    ExportRenderError,
    RegisterCells,
    metadata_rows,
)
from legal_documents.rendering import markdown_to_text

# Excel's limit per cell.
MAX_CELL = 32_767
# The columns of a record read from its Markdown: header, item id.
COLUMNS = (
    (N_("Processing activity"), None),
    (N_("(a) Controller, joint controllers, representative, DPO"), "a-controller"),
    (N_("(b) Purposes"), "b-purposes"),
    (N_("Legal basis (Art. 6(1))"), "purpose-basis"),
    (N_("(c) Data subjects and personal data"), "c-categories"),
    (N_("Special categories (Art. 9, 10)"), "special-categories"),
    (N_("(d) Recipients"), "d-recipients"),
    (N_("(e) Transfers to third countries"), "e-transfers"),
    (N_("(f) Time limits for erasure"), "f-erasure"),
    (N_("(g) Technical and organisational measures"), "g-security"),
)
# The columns of a record written from the register: field, header. Every header, in every
# language, is a name the register import knows (register/importing/header_synonyms.json).
ACTIVITY_COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", N_("Processing activity")),
    ("controller", N_("(a) Controller, joint controllers, representative, DPO")),
    ("purposes", N_("(b) Purposes")),
    ("legal_bases", N_("Legal basis (Art. 6(1))")),
    ("data_subjects", N_("(c) Data subjects")),
    ("data_categories", N_("(c) Categories of personal data")),
    ("special_categories", N_("Special categories (Art. 9, 10)")),
    ("art9_conditions", N_("Art. 9(2) condition")),
    ("recipients", N_("(d) Recipients")),
    ("third_countries", N_("(e) Transfers to third countries")),
    ("safeguards", N_("Safeguards (Art. 46, 49)")),
    ("retention", N_("(f) Time limits for erasure")),
    ("security_measures", N_("(g) Technical and organisational measures")),
    ("description", N_("Description")),
    ("reference", N_("Reference")),
    ("systems", N_("Systems")),
    ("owner", N_("Owner")),
    ("role", N_("Role")),
    ("joint_controllers", N_("Joint controllers")),
    ("consent_withdrawal", N_("Consent withdrawal")),
    ("next_review_date", N_("Next review")),
    ("entry_id", N_("Register ID")),
)
VENDOR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", N_("Vendor")),
    ("address", N_("Address")),
    ("country", N_("Country")),
    ("role", N_("Role")),
    ("services", N_("Services")),
    ("dpa_status", N_("DPA status")),
    ("dpa_signed_on", N_("DPA signed on")),
    ("sub_processors", N_("Sub-processors")),
    ("transfer_mechanism", N_("Transfer mechanism")),
    ("reference", N_("Reference")),
    ("entry_id", N_("Register ID")),
)
# Labels of the codes, which the register import reads back in every language
# (register.importing.parsing's role and status words).
LABELS: dict[str, dict[str, str]] = {
    "role": {
        "controller": N_("Controller"),
        "processor": N_("Processor"),
        "joint-controller": N_("Joint controller"),
        "sub-processor": N_("Sub-processor"),
        "public-authority": N_("Public authority"),
        "other": N_("Other recipient"),
    },
    "dpa_status": {
        "none": N_("None"),
        "requested": N_("Requested"),
        "signed": N_("Signed"),
        "not-required": N_("Not required"),
    },
}
# Sheet names: at most 31 characters in every language (Excel's limit).
RECORD_SHEET = N_("Record (Art. 30(1))")
PROCESSOR_SHEET = N_("Processors (Art. 30(2))")
VENDOR_SHEET = N_("Vendors")
ABOUT_SHEET = N_("About")
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
        for _header, item_id in COLUMNS[1:]:
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


def _controller(markdown: str) -> str:
    """The Art. 30(1)(a) text of the record (the organization's, the same for every row)."""
    for block in item_blocks(markdown).get("a-controller", []):
        return _text(block.body)
    return ""


def _register_tables(
    register: RegisterCells, *, controller: str
) -> list[tuple[str, list[str], list[list[object]]]]:
    """The record and vendors sheets of a record written from the register."""

    def row(cells: dict[str, object], columns: tuple[tuple[str, str], ...]) -> list[object]:
        values = []
        for name, _header in columns:
            value = controller if name == "controller" else cells.get(name, "")
            if name in LABELS and isinstance(value, str):
                value = _(LABELS[name].get(value, value))
            values.append("" if value is None else value)
        return values

    activities = sorted(register.activities, key=lambda cells: str(cells["name"]).casefold())
    vendors = sorted(register.vendors, key=lambda cells: str(cells["name"]).casefold())
    tables = [
        (
            RECORD_SHEET,
            [_(header) for _name, header in ACTIVITY_COLUMNS],
            [row(cells, ACTIVITY_COLUMNS) for cells in activities],
        )
    ]
    if vendors:
        tables.append(
            (
                VENDOR_SHEET,
                [_(header) for _name, header in VENDOR_COLUMNS],
                [row(cells, VENDOR_COLUMNS) for cells in vendors],
            )
        )
    return tables


# Characters Excel refuses in a sheet name.
_SHEET_NAME_REFUSED = re.compile(r"[\\/*?:\[\]]")


def _sheet_title(title: str) -> str:
    """A sheet name in the document's language, as Excel takes it (31 characters at most)."""
    return _SHEET_NAME_REFUSED.sub(" ", _(title))[:31]


def render_xlsx(markdown: str, meta: ExportMeta) -> bytes:
    # openpyxl itself, not pandas' to_excel: pandas writes through openpyxl too, with a header
    # style of its own to undo and the same styling pass after, for the same CPU (800
    # activities: 1.04 s against 0.99 s) plus 0.46 s and 35 MB to import it in the web process
    # (bench/bench_tabular_pandas.py).
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    rows, processors = activity_rows(markdown, meta.document_title)
    headers = [_(title) for title, _item in COLUMNS]
    tables: list[tuple[str, list[str], list[list[object]]]] = []
    if meta.register is not None:
        tables.extend(_register_tables(meta.register, controller=_controller(markdown)))
    else:
        tables.append((RECORD_SHEET, headers, [list(row) for row in rows]))
    tables.insert(
        1,
        (
            PROCESSOR_SHEET,
            [_("Processing activity"), _("Record of the processor (Art. 30(2))")],
            [list(row) for row in processors],
        ),
    )
    tables.append(
        (ABOUT_SHEET, [_("Field"), _("Value")], [list(row) for row in metadata_rows(meta)])
    )
    try:
        workbook = Workbook()
        workbook.remove(workbook.active)
        sheets = [
            (workbook.create_sheet(_sheet_title(title)), headers, values)
            for title, headers, values in tables
        ]
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
