"""Exports of a document version, each opened with the parser its users' tools would use.

Pure functions, no database: run alone with
`.venv/bin/pytest -p no:django -p no:cacheprovider tests/legal_documents/test_exports.py`.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import docx
import pypdf
import pytest

from legal_documents.exports import (
    ExportMeta,
    UnsupportedExportFormat,
    export_document,
    formats_for,
)
from legal_documents.rendering import markdown_to_text

HASH = "9c1185a5c5e9fc54612808977ee8f548b2258d31" + "0" * 24
NON_LATIN_NAMES = ("Łódź", "Ærø", "Müller", "Ελληνικά", "Кириллица")

MARKDOWN = """\
# Data Protection Impact Assessment

Controller: **Müller Logistik GmbH**, branch offices in *Łódź* and Ærø.
Scripts stay text: <script>alert("markdown")</script>

## 1. Description of the processing

The processing covers Ελληνικά and Кириллица customer records.

- names and addresses
- order history
  1. nested first
  2. nested second

### 1.1 Purposes

1. fulfil contracts
2. comply with legal obligations

## 2. Risks and measures

| Risk | Likelihood | Measure |
|---|:---:|---|
| Unauthorised access | medium | encryption at rest |
| Loss of availability | low | backups in Łódź |

3. third item of a list that starts at three
4. fourth item
"""


@pytest.fixture
def meta() -> ExportMeta:
    """Metadata of version 3 of a final DPIA, with markup injected into the organization."""
    return ExportMeta(
        organization_name='Müller & Søn <script>alert("org")</script> Łódź',
        document_title="Data Protection Impact Assessment",
        document_type="DPIA",
        version=3,
        stage="final",
        created_at=datetime(2025, 1, 6, 9, 30, 15, tzinfo=UTC),
        updated_at=datetime(2025, 3, 14, 18, 5, tzinfo=timezone(timedelta(hours=2))),
        content_sha256=HASH,
        ruleset_version="2025.1",
    )


@pytest.fixture
def pdf_reader(meta: ExportMeta) -> pypdf.PdfReader:
    """The PDF export of MARKDOWN, opened with pypdf."""
    exported = export_document(MARKDOWN, meta, "pdf")
    assert exported.content.startswith(b"%PDF-")
    return pypdf.PdfReader(io.BytesIO(exported.content))


@pytest.fixture
def word_document(meta: ExportMeta) -> docx.document.Document:
    """The DOCX export of MARKDOWN, opened with python-docx."""
    return docx.Document(io.BytesIO(export_document(MARKDOWN, meta, "docx").content))


def _page_texts(reader: pypdf.PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


def _fonts_used(reader: pypdf.PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


# -- formats, names, errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "content_type", "filename"),
    [
        ("html", "text/html; charset=utf-8", "dpia-v3.html"),
        ("pdf", "application/pdf", "dpia-v3.pdf"),
        ("md", "text/markdown; charset=utf-8", "dpia-v3.md"),
        ("txt", "text/plain; charset=utf-8", "dpia-v3.txt"),
        (
            "docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "dpia-v3.docx",
        ),
    ],
)
def test_each_format_has_its_content_type_and_a_download_name(
    meta: ExportMeta, fmt: str, content_type: str, filename: str
) -> None:
    exported = export_document(MARKDOWN, meta, fmt)

    assert exported.content_type == content_type
    assert exported.filename == filename
    assert exported.content


def test_the_format_name_is_case_insensitive(meta: ExportMeta) -> None:
    assert export_document(MARKDOWN, meta, "PDF").content_type == "application/pdf"


@pytest.mark.parametrize("fmt", ["xlsx", "", "../pdf", "pdf; drop"])
def test_an_unknown_format_is_refused_naming_the_valid_ones(meta: ExportMeta, fmt: str) -> None:
    with pytest.raises(UnsupportedExportFormat) as raised:
        export_document(MARKDOWN, meta, fmt)

    assert raised.value.valid_formats == ("html", "pdf", "md", "txt", "docx")
    assert raised.value.code == "VALIDATION_ERROR"
    # xlsx is a format of the record of processing only (test_register_documents.py).
    for valid in formats_for(meta.document_type):
        assert valid in str(raised.value)


def test_the_download_name_keeps_only_safe_ascii_characters(meta: ExportMeta) -> None:
    hostile = replace(meta, document_type='Łódź "RoPA"/../\r\nX: 1')

    filename = export_document(MARKDOWN, hostile, "md").filename

    assert filename == "odz-ropa-x-1-v3.md"
    assert re.fullmatch(r"[a-z0-9-]+-v\d+\.md", filename)


# -- md and txt -----------------------------------------------------------------------------


def test_the_markdown_export_is_the_document_itself_in_utf8(meta: ExportMeta) -> None:
    assert export_document(MARKDOWN, meta, "md").content.decode("utf-8") == MARKDOWN


def test_the_text_export_is_the_markdown_without_decoration(meta: ExportMeta) -> None:
    text = export_document(MARKDOWN, meta, "txt").content.decode("utf-8")

    assert text == markdown_to_text(MARKDOWN)
    assert "Müller Logistik GmbH" in text
    assert "**" not in text
    assert "## " not in text


def test_the_text_export_shows_user_punctuation_without_markdown_escapes() -> None:
    # Writers escape user text (escape_inline): "SE & Co. KG" is "SE \\& Co. KG" in Markdown.
    text = markdown_to_text("- Personio SE \\& Co. KG \\*intern\\* \\#1 (processor)\n")

    assert text == "- Personio SE & Co. KG *intern* #1 (processor)\n"


# -- html -----------------------------------------------------------------------------------


class _PageParser(HTMLParser):
    """Collects the start tags and the visible text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse_html(page: str) -> _PageParser:
    parser = _PageParser()
    parser.feed(page)
    parser.close()
    return parser


def test_the_html_export_is_a_complete_page_with_the_metadata_header(meta: ExportMeta) -> None:
    page = export_document(MARKDOWN, meta, "html").content.decode("utf-8")
    parsed = _parse_html(page)
    text = "".join(parsed.text)

    assert page.startswith("<!DOCTYPE html>")
    assert {"html", "head", "style", "body", "header", "main"} <= set(parsed.tags)
    assert "@page" in page
    assert "@media print" in page
    for expected in (
        'Müller & Søn <script>alert("org")</script> Łódź',
        "Data Protection Impact Assessment",
        "DPIA",
        "3",
        "Final",
        "2025-01-06T09:30:15Z",
        "2025-03-14T16:05:00Z",  # 18:05 at UTC+2, shown in UTC
        HASH,
        "2025.1",
    ):
        assert expected in text


def test_the_html_export_escapes_markup_in_the_metadata_and_the_markdown(
    meta: ExportMeta,
) -> None:
    page = export_document(MARKDOWN, meta, "html").content.decode("utf-8")
    parsed = _parse_html(page)

    assert "script" not in parsed.tags
    assert "<script" not in page
    assert "&lt;script&gt;alert(&quot;org&quot;)&lt;/script&gt;" in page
    assert '&lt;script&gt;alert("markdown")&lt;/script&gt;' in page


def test_the_html_export_renders_the_markdown_structure(meta: ExportMeta) -> None:
    parsed = _parse_html(export_document(MARKDOWN, meta, "html").content.decode("utf-8"))

    assert {"h1", "h2", "h3", "ul", "ol", "li", "strong", "em", "table", "th", "td"} <= set(
        parsed.tags
    )


# -- pdf ------------------------------------------------------------------------------------


def test_the_pdf_renders_accented_greek_and_cyrillic_letters(
    pdf_reader: pypdf.PdfReader,
) -> None:
    text = "\n".join(_page_texts(pdf_reader))

    for name in NON_LATIN_NAMES:
        assert name in text
    assert "Müller & Søn" in text


def test_the_pdf_embeds_dejavu_for_regular_bold_and_italic_text(
    pdf_reader: pypdf.PdfReader,
) -> None:
    fonts = _fonts_used(pdf_reader)

    # Subset names look like "/AAAAAA+DejaVuSans-Bold".
    for face in ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"):
        assert any(font.endswith(f"+{face}") for font in fonts), fonts


def test_the_pdf_starts_with_a_title_page_showing_the_metadata(
    pdf_reader: pypdf.PdfReader,
) -> None:
    title_page = _page_texts(pdf_reader)[0]

    for expected in (
        "Müller & Søn",
        "Łódź",
        "Data Protection",
        "DPIA",
        "Final",
        "2025-01-06T09:30:15Z",
        "2025-03-14T16:05:00Z",
        HASH,
        "2025.1",
    ):
        assert expected in title_page
    assert "Description of the processing" not in title_page


def test_the_pdf_has_a_table_of_contents_with_page_numbers(
    pdf_reader: pypdf.PdfReader,
) -> None:
    # Layout mode keeps each entry and its page number on one line, as a reader sees them.
    contents_page = pdf_reader.pages[1].extract_text(extraction_mode="layout")

    assert "Contents" in contents_page
    for heading in ("1. Description of the processing", "2. Risks and measures"):
        # The body starts on page 3, after the title page and the contents.
        assert re.search(rf"{re.escape(heading)}\s+3\s*$", contents_page, re.MULTILINE)
    # Sub-sections stay out of the contents, so that it fits one page for long documents.
    assert "1.1 Purposes" not in contents_page


def test_the_pdf_contents_entries_are_set_upright(pdf_reader: pypdf.PdfReader) -> None:
    faces: dict[str, str] = {}

    def remember_face(text: str, _cm: object, _tm: object, font: object, _size: object) -> None:
        if font is not None and text.strip():
            faces[text.strip()] = str(font["/BaseFont"])  # type: ignore[index]

    pdf_reader.pages[1].extract_text(visitor_text=remember_face)

    # The document's title (h1) is bold, its sections (h2) regular; neither is italic.
    assert faces["Data Protection Impact Assessment"].endswith("+DejaVuSans-Bold")
    assert faces["1. Description of the processing"].endswith("+DejaVuSans")


def test_every_pdf_page_has_a_page_x_of_n_footer(pdf_reader: pypdf.PdfReader) -> None:
    pages = _page_texts(pdf_reader)

    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text


def test_the_pdf_shows_the_markdown_lists_and_table(pdf_reader: pypdf.PdfReader) -> None:
    body = "\n".join(_page_texts(pdf_reader)[2:])

    for expected in ("names and addresses", "nested second", "fulfil contracts",
                     "Unauthorised access", "encryption at rest", "backups in Łódź"):  # fmt: skip
        assert expected in body
    assert '<script>alert("markdown")</script>' in body


def test_the_pdf_renders_from_any_working_directory(
    meta: ExportMeta, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    reader = pypdf.PdfReader(io.BytesIO(export_document("# Łódź Ærø Müller", meta, "pdf").content))

    assert "Łódź Ærø Müller" in reader.pages[2].extract_text()
    assert any("DejaVuSans" in font for font in _fonts_used(reader))


# -- docx -----------------------------------------------------------------------------------


def _paragraphs_by_style(document: docx.document.Document) -> dict[str, list[str]]:
    by_style: dict[str, list[str]] = {}
    for paragraph in document.paragraphs:
        by_style.setdefault(paragraph.style.name, []).append(paragraph.text)
    return by_style


def test_the_docx_uses_word_heading_styles(word_document: docx.document.Document) -> None:
    by_style = _paragraphs_by_style(word_document)

    assert by_style["Title"] == ["Data Protection Impact Assessment"]
    assert by_style["Heading 1"] == ["Data Protection Impact Assessment"]
    assert by_style["Heading 2"] == ["1. Description of the processing", "2. Risks and measures"]
    assert by_style["Heading 3"] == ["1.1 Purposes"]


def test_the_docx_keeps_bulleted_numbered_and_nested_lists(
    word_document: docx.document.Document,
) -> None:
    by_style = _paragraphs_by_style(word_document)

    assert by_style["List Bullet"] == ["names and addresses", "order history"]
    assert by_style["List Number 2"] == ["nested first", "nested second"]
    assert by_style["List Number"] == [
        "fulfil contracts",
        "comply with legal obligations",
        "third item of a list that starts at three",
        "fourth item",
    ]


def test_each_numbered_list_in_the_docx_starts_at_its_own_number(
    word_document: docx.document.Document,
) -> None:
    numbering = word_document.part.numbering_part.element
    starts = {}
    for paragraph in word_document.paragraphs:
        if paragraph.style.name == "List Number":
            num_id = paragraph._p.pPr.numPr.numId.val
            num = numbering.num_having_numId(num_id)
            starts[paragraph.text] = (num_id, num.lvlOverride_lst[0].startOverride.val)

    assert starts["fulfil contracts"][1] == 1
    assert starts["third item of a list that starts at three"][1] == 3
    assert starts["fulfil contracts"][0] != starts["fourth item"][0]


def test_the_docx_keeps_bold_and_italic_runs(word_document: docx.document.Document) -> None:
    runs = [run for paragraph in word_document.paragraphs for run in paragraph.runs]

    assert any(run.text == "Müller Logistik GmbH" and run.bold for run in runs)
    assert any(run.text == "Łódź" and run.italic for run in runs)


def test_the_docx_opens_with_a_metadata_table_and_keeps_the_markdown_table(
    word_document: docx.document.Document,
) -> None:
    metadata, risks = word_document.tables
    metadata_values = {row.cells[0].text: row.cells[1].text for row in metadata.rows}
    risk_rows = [[cell.text for cell in row.cells] for row in risks.rows]

    assert metadata_values["Organization"] == 'Müller & Søn <script>alert("org")</script> Łódź'
    assert metadata_values["Version"] == "3"
    assert metadata_values["Stage"] == "Final"
    assert metadata_values["Last updated (UTC)"] == "2025-03-14T16:05:00Z"
    assert metadata_values["Content SHA-256"] == HASH
    assert risk_rows == [
        ["Risk", "Likelihood", "Measure"],
        ["Unauthorised access", "medium", "encryption at rest"],
        ["Loss of availability", "low", "backups in Łódź"],
    ]
    assert all(run.bold for run in risks.rows[0].cells[0].paragraphs[0].runs)


def test_the_docx_records_the_version_and_hash_in_its_properties(
    word_document: docx.document.Document,
) -> None:
    properties = word_document.core_properties

    assert properties.title == "Data Protection Impact Assessment"
    assert properties.version == "3"
    assert properties.identifier == f"sha256:{HASH}"


def test_the_docx_shows_link_targets_once(meta: ExportMeta) -> None:
    markdown = "See [the guidance](https://edpb.europa.eu), <https://gdpr.eu> and [below](#risks)."

    document = docx.Document(io.BytesIO(export_document(markdown, meta, "docx").content))

    assert document.paragraphs[-1].text == (
        "See the guidance (https://edpb.europa.eu), https://gdpr.eu and below."
    )


@pytest.mark.parametrize("fmt", ["html", "pdf", "docx", "txt"])
def test_an_empty_document_still_exports_with_its_title_block(meta: ExportMeta, fmt: str) -> None:
    content = export_document("", meta, fmt).content

    if fmt == "pdf":
        assert "Data Protection" in pypdf.PdfReader(io.BytesIO(content)).pages[0].extract_text()
    elif fmt == "docx":
        assert docx.Document(io.BytesIO(content)).paragraphs[0].text == meta.document_title
    elif fmt == "html":
        assert meta.document_title in content.decode("utf-8")
    else:
        assert content.decode("utf-8") == "\n"
