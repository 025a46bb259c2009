"""The DPIA's risk map in the HTML, PDF and DOCX exports: where each marker is, and that it
is really drawn (the PDF page rendered to pixels with pypdfium2). No database."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from html import escape

import docx
import pypdfium2
import pytest
from docx.oxml.ns import qn
from lxml import html as lxml_html

import gdpr
from gdpr.composition.assessments.risk_map import LIKELIHOOD_COLUMNS, SEVERITY_ROWS
from gdpr.composition.assessments.risk_scale import SCALE_LABELS, risk_level
from gdpr.i18n import SUPPORTED_LANGUAGES, activate
from legal_documents.exports import ExportMeta, export_document
from legal_documents.exports.risk_map import ZONE_COLOURS, marker_glyph
from tests.gdpr.test_risk_map import FULL_POSITIONS, full_dpia

TITLES = {
    "en": "Risk map", "de": "Risikomatrix", "fr": "Cartographie des risques",
    "es": "Mapa de riesgos", "it": "Mappa dei rischi",
}  # fmt: skip
MOMENT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def dpia_meta(language: str = "en", document_type: str = "DPIA") -> ExportMeta:
    return ExportMeta(
        organization_name="Golden DPO Services", document_title="DPIA",
        document_type=document_type, version=2, stage="draft", created_at=MOMENT,
        updated_at=MOMENT, content_sha256="a" * 64, ruleset_version="2026.1", language=language,
    )  # fmt: skip


@pytest.fixture(scope="module")
def english_dpia() -> str:
    """The full DPIA in English (its tables: tests/gdpr/golden/DPIA.full.md)."""
    return full_dpia("en")


def exported(markdown: str, fmt: str, meta: ExportMeta | None = None) -> bytes:
    return export_document(markdown, meta or dpia_meta(), fmt).content


def svg_positions(page: str) -> dict[int, dict[str, tuple[int, int]]]:
    """Per risk and stage, the cell (severity, likelihood) whose group holds the marker,
    after checking that the marker's circle is drawn inside that cell's rectangle."""
    tree = lxml_html.fromstring(page)
    found: dict[int, dict[str, tuple[int, int]]] = {}
    for cell in tree.xpath("//figure[@class='risk-map']//g[@class='risk-cell']"):
        rect = cell.find("rect")
        left, top = float(rect.get("x")), float(rect.get("y"))
        right, bottom = left + float(rect.get("width")), top + float(rect.get("height"))
        position = (int(cell.get("data-severity")), int(cell.get("data-likelihood")))
        assert rect.get("fill") == ZONE_COLOURS[risk_level(*position)]
        for marker in cell.xpath(".//g[contains(@class, 'risk-marker')]"):
            circle = marker.find("circle")
            cx, cy, r = (float(circle.get(name)) for name in ("cx", "cy", "r"))
            assert left <= cx - r and cx + r <= right and top <= cy - r and cy + r <= bottom
            assert (int(marker.get("data-severity")), int(marker.get("data-likelihood"))) == (
                position
            )
            found.setdefault(int(marker.get("data-risk")), {})[marker.get("data-stage")] = position
    return found


def as_positions(found: dict[int, dict[str, tuple[int, int]]]) -> dict:
    return {number: (stages["before"], stages["after"]) for number, stages in found.items()}


# -- HTML ---------------------------------------------------------------------------------


def test_each_risks_markers_sit_in_the_cells_of_its_table_row_before_and_after(english_dpia):
    page = exported(english_dpia, "html").decode()

    assert as_positions(svg_positions(page)) == FULL_POSITIONS
    tree = lxml_html.fromstring(page)
    assert len(tree.xpath("//g[contains(@class, 'risk-marker-before')]")) == 8
    assert len(tree.xpath("//g[contains(@class, 'risk-marker-after')]")) == 8
    # Hollow before the measures, filled with them.
    before = tree.xpath("//g[@data-risk='1'][@data-stage='before']/circle")[0]
    after = tree.xpath("//g[@data-risk='1'][@data-stage='after']/circle")[0]
    assert before.get("fill") == "#ffffff" and after.get("fill") != "#ffffff"


def test_the_map_follows_the_risks_tables_and_the_markdown_is_unchanged(english_dpia):
    page = exported(english_dpia, "html").decode()

    rights_table = page.index("Surveillance of data subjects</td>")
    assert (
        rights_table
        < page.index('<figure class="risk-map">')
        < page.index("Factors behind the ratings")
    )
    assert page.count('<figure class="risk-map">') == 1
    assert "riskmap" not in exported(english_dpia, "md").decode()
    assert "riskmap" not in exported(english_dpia, "txt").decode()


def test_the_map_fetches_nothing_and_runs_nothing(english_dpia):
    figure = exported(english_dpia, "html").decode().split('<figure class="risk-map">')[1]
    figure = figure.split("</figure>")[0]

    elements = list(lxml_html.fromstring(f"<figure>{figure}</figure>").iter())
    assert {element.tag for element in elements} <= {
        "figure", "figcaption", "svg", "title", "g", "rect", "circle", "text", "p", "span",
        "ol", "li",
    }  # fmt: skip
    attributes = {name for element in elements for name in element.attrib}
    assert not [name for name in attributes if name.startswith("on") or "href" in name]
    assert "url(" not in figure
    assert "http" not in figure.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_a_risk_label_with_markup_is_shown_as_text(english_dpia):
    edited = english_dpia.replace(
        "| Illegitimate access to data |", r"| Access \<script\>alert(1)\</script\> |", 1
    )

    page = exported(edited, "html").decode()

    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)" in page.split('<figure class="risk-map">')[1]


def test_a_document_that_is_not_a_dpia_gets_no_map(english_dpia):
    page = exported(english_dpia, "html", dpia_meta(document_type="PRIVACY_POLICY")).decode()

    assert "risk-map" not in page.split("<main")[1]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_map_is_drawn_in_the_documents_language(language):
    page = exported(full_dpia(language), "html", dpia_meta(language)).decode()

    assert as_positions(svg_positions(page)) == FULL_POSITIONS
    figure = page.split('<figure class="risk-map">')[1]
    assert f"<figcaption>{TITLES[language]}</figcaption>" in figure
    with activate(language):
        labels = [risk.label for risk in gdpr_risk_labels(full_dpia(language))]
    assert escape(labels[0]) in figure and escape(labels[-1]) in figure


def gdpr_risk_labels(markdown: str):  # type: ignore[no-untyped-def]
    from gdpr.composition.writers.dpia_risk_tables import read_risk_tables

    tables = read_risk_tables(markdown)
    assert tables is not None
    return tables.risks


# -- PDF: the page rendered to pixels -------------------------------------------------------

_SCALE = 2  # 144 dpi


def _close(pixel: tuple[int, ...], colour: str, tolerance: int = 12) -> bool:
    wanted = tuple(int(colour[index : index + 2], 16) for index in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], wanted, strict=True))


def _map_page(pdf: pypdfium2.PdfDocument) -> int:
    for index in range(len(pdf)):
        if marker_glyph(1, "after") in pdf[index].get_textpage().get_text_range():
            return index
    raise AssertionError("no page of the PDF shows the risk map's markers")


def _occurrences(text: str, needle: str) -> list[int]:
    found, start = [], text.find(needle)
    while start != -1:
        found.append(start)
        start = text.find(needle, start + 1)
    return found


def test_the_pdf_draws_the_zones_and_each_marker_in_its_row_column_and_zone(english_dpia):
    pdf = pypdfium2.PdfDocument(exported(english_dpia, "pdf"))
    page = pdf[_map_page(pdf)]
    image = page.render(scale=_SCALE).to_pil().convert("RGB")
    text = page.get_textpage()
    height = page.get_height()
    characters = [text.get_text_range(index, 1) for index in range(text.count_chars())]
    page_text = "".join(characters)

    colours = image.getcolors(maxcolors=1 << 20) or []
    for zone in ("low", "medium (likely)", "high"):
        painted = sum(count for count, pixel in colours if _close(pixel, ZONE_COLOURS[zone]))
        assert painted > 20_000, zone  # at least two cells' worth of pixels (~40 x 40 pt each)

    # The axis labels ("3 Significant"): the row's on the left, the column's under the grid.
    rows, columns = {}, {}
    for value, label in SCALE_LABELS.items():
        needle = f"{value} {label}"
        spans = sorted(
            (text.get_charbox(index), text.get_charbox(index + len(needle) - 1))
            for index in _occurrences(page_text, needle)
        )
        assert len(spans) == 2, (value, spans)
        (row_start, _row_end), (column_start, column_end) = spans  # the row's is leftmost
        rows[value] = (row_start[1] + row_start[3]) / 2
        columns[value] = (column_start[0] + column_end[2]) / 2

    placed = {}
    for index, character in enumerate(characters):
        for number, (before, after) in FULL_POSITIONS.items():
            for stage, (severity, likelihood) in (("before", before), ("after", after)):
                if character != marker_glyph(number, stage):
                    continue
                left, bottom, right, top = text.get_charbox(index)
                # The cell's fill just above the glyph, inside the cell.
                pixel = image.getpixel(
                    (int((left + right) / 2 * _SCALE), int((height - top - 3) * _SCALE))
                )
                if not _close(pixel, ZONE_COLOURS[risk_level(severity, likelihood)]):
                    continue  # the key under the grid repeats ① and ❶ on white
                middle_y, middle_x = (bottom + top) / 2, (left + right) / 2
                row = min(rows, key=lambda value: abs(rows[value] - middle_y))
                column = min(columns, key=lambda value: abs(columns[value] - middle_x))
                placed.setdefault((number, stage), []).append((row, column))
    assert placed == {
        (number, stage): [positions[which]]
        for number, positions in FULL_POSITIONS.items()
        for stage, which in (("before", 0), ("after", 1))
    }


# -- DOCX: a table of shaded cells -----------------------------------------------------------


def test_the_word_file_has_the_map_as_a_table_of_shaded_cells(english_dpia):
    document = docx.Document(io.BytesIO(exported(english_dpia, "docx")))

    def fill(cell) -> str | None:  # type: ignore[no-untyped-def]
        shading = cell._tc.tcPr.find(qn("w:shd")) if cell._tc.tcPr is not None else None
        return None if shading is None else shading.get(qn("w:fill"))

    grids = [table for table in document.tables if fill(table.cell(0, 1))]
    assert len(grids) == 1
    grid = grids[0]
    for row_index, severity in enumerate(SEVERITY_ROWS):
        assert grid.cell(row_index, 0).text.startswith(str(severity))
        for column_index, likelihood in enumerate(LIKELIHOOD_COLUMNS, start=1):
            cell = grid.cell(row_index, column_index)
            assert f"#{fill(cell)}".lower() == ZONE_COLOURS[risk_level(severity, likelihood)]
            expected = [
                marker_glyph(number, stage)
                for stage, which in (("before", 0), ("after", 1))
                for number, positions in FULL_POSITIONS.items()
                if positions[which] == (severity, likelihood)
            ]
            assert cell.text.split() == expected
    texts = [paragraph.text for paragraph in document.paragraphs]
    assert "Risk map" in texts
    assert texts.index("Risk map") > texts.index(
        "Risks to the rights and freedoms of data subjects (Art. 35(7)(c), recital 75, WP248"
        " rev.01):"
    )


def test_a_dpia_without_rated_risks_exports_without_a_map():
    markdown = gdpr.compose(document_type=gdpr.get_document_type("DPIA"), inputs={})

    assert "risk-map" not in exported(markdown, "html").decode().split("<main")[1]
    assert exported(markdown, "pdf").startswith(b"%PDF-")
