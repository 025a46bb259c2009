"""The DPIA's risk map in the Word file: a table of shaded cells, editable like the rest.

The same grid as the PDF (`risk_map.risk_map_print_table`): axis labels, 16 cells shaded by
zone, the markers as circled numbers in the embedded DejaVu Sans (① before the measures,
❶ with the measures in place), then the key and the numbered risks.
"""

from __future__ import annotations

from docx.document import Document as DocxDocument
from docx.enum.table import WD_CELL_VERTICAL_ALIGNMENT, WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Cm, Pt, RGBColor
from docx.table import _Cell

from gdpr.composition.assessments.risk_map import (
    AFTER,
    BEFORE,
    LIKELIHOOD_COLUMNS,
    SEVERITY_ROWS,
    RiskMap,
)
from gdpr.i18n import _
from legal_documents.exports.risk_map import (
    LIKELIHOOD,
    MARKER_COLOUR,
    SEVERITY,
    STAGE_LABELS,
    TITLE,
    ZONE_COLOURS,
    ZONE_ORDER,
    marker_glyph,
    scale_label,
)

_CELL_HEIGHT = Cm(1.5)


def shade(cell: _Cell, colour: str) -> None:
    """Fill a cell with `colour` ("#rrggbb"), as Word's Shading > Fill does."""
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:color"), "auto")
    shading.set(qn("w:fill"), colour.lstrip("#").upper())
    cell._tc.get_or_add_tcPr().append(shading)


def _small(cell: _Cell, text: str, alignment: WD_ALIGN_PARAGRAPH) -> None:
    paragraph = cell.paragraphs[0]
    paragraph.alignment = alignment
    paragraph.add_run(text).font.size = Pt(8)
    cell.vertical_alignment = WD_CELL_VERTICAL_ALIGNMENT.CENTER


def add_risk_map(document: DocxDocument, risk_map: RiskMap) -> None:
    """Append the map (title, grid, key, numbered risks) to `document`."""
    title = document.add_paragraph()
    title.add_run(_(TITLE)).bold = True
    title.paragraph_format.keep_with_next = True
    axis = document.add_paragraph()
    axis.add_run(f"{_(SEVERITY)} \N{UPWARDS ARROW}").bold = True
    axis.paragraph_format.keep_with_next = True
    table = document.add_table(rows=len(SEVERITY_ROWS) + 1, cols=len(LIKELIHOOD_COLUMNS) + 1)
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    marker_colour = RGBColor.from_string(MARKER_COLOUR.lstrip("#").upper())
    for row_index, (severity, row) in enumerate(zip(SEVERITY_ROWS, risk_map.rows, strict=True)):
        table.rows[row_index].height = _CELL_HEIGHT
        _small(table.cell(row_index, 0), scale_label(severity), WD_ALIGN_PARAGRAPH.RIGHT)
        for column_index, cell in enumerate(row, start=1):
            target = table.cell(row_index, column_index)
            shade(target, ZONE_COLOURS[cell.level])
            target.vertical_alignment = WD_CELL_VERTICAL_ALIGNMENT.CENTER
            paragraph = target.paragraphs[0]
            paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
            run = paragraph.add_run(
                " ".join(marker_glyph(marker.number, marker.stage) for marker in cell.markers)
            )
            run.font.size = Pt(15)
            run.font.color.rgb = marker_colour
    last = len(SEVERITY_ROWS)
    for column_index, likelihood in enumerate(LIKELIHOOD_COLUMNS, start=1):
        _small(table.cell(last, column_index), scale_label(likelihood), WD_ALIGN_PARAGRAPH.CENTER)
    for row in table.rows:
        # One unbroken picture: no row of the grid on the next page.
        row._tr.get_or_add_trPr().append(OxmlElement("w:cantSplit"))
        for cell in row.cells[:-1]:
            cell.paragraphs[0].paragraph_format.keep_with_next = True
    axis_x = document.add_paragraph()
    axis_x.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    axis_x.add_run(f"{_(LIKELIHOOD)} \N{RIGHTWARDS ARROW}").bold = True
    document.add_paragraph(
        "   ".join(
            f"{marker_glyph(1, stage)} {_(STAGE_LABELS[stage])}" for stage in (BEFORE, AFTER)
        )
    )
    zones = document.add_paragraph()
    for level in ZONE_ORDER:
        swatch = zones.add_run("\N{BLACK SQUARE} ")
        swatch.font.color.rgb = RGBColor.from_string(ZONE_COLOURS[level].lstrip("#").upper())
        zones.add_run(f"{_(level)}   ")
    for risk in risk_map.risks:
        document.add_paragraph(
            f"{marker_glyph(risk.number, BEFORE)} {marker_glyph(risk.number, AFTER)} {risk.label}",
            style="List Bullet",
        )
