"""A review's report exported as md, html, pdf and docx: every item, every quote with its
location, in the report's language, and nothing of the uploaded text ever active."""

from __future__ import annotations

import html
import io
import re

import pytest
from docx import Document
from pypdf import PdfReader

from legal_documents.exports import UnsupportedExportFormat
from register.models import Vendor
from reviews.exports import escape_markdown, export_review
from tests.reviews.surfaces_support import DPA_ITEMS, completed_review

pytestmark = pytest.mark.django_db

HOSTILE_QUOTE = (
    '<script>alert("x")</script> <img src=x onerror="alert(1)">'
    " [click](javascript:alert(2)) **not bold** # not a heading"
)


def hostile_items() -> list[dict]:
    return [
        {
            **DPA_ITEMS[1],
            "citations": [{"location": "page 9 <b>bold</b>", "quote": HOSTILE_QUOTE}],
            "finding": "<iframe src=https://evil.example></iframe> weak clause",
        }
    ]


@pytest.fixture
def review(dpo):
    vendor = Vendor.objects.create(organization=dpo.organization, name="Acme Cloud Ltd")
    return completed_review(organization=dpo.organization, vendor=vendor)


def pdf_text(content: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_markdown_report_has_the_title_verdict_counts_and_every_item(review):
    content, content_type, filename = export_review(review, "md")
    text = content.decode()

    assert content_type.startswith("text/markdown")
    assert filename.startswith("review-acme-dpa-pdf-") and filename.endswith(".md")
    assert text.startswith("# Review: Data Processing Agreement")
    assert "acme-dpa.pdf" in text.splitlines()[0]
    assert "**Verdict:** Gaps found" in text
    assert "| Missing | 2 |" in text and "| Present | 1 |" in text
    for item in DPA_ITEMS:
        assert f"### {escape_markdown(item['itemId'])}" in text
    assert "> The Processor shall process Personal Data only on documented" in text
    assert "> \N{EM DASH} page 2, § 3.1" in text
    assert "**Suggested clause:**" in text


def test_the_html_report_shows_each_quote_in_a_blockquote_with_its_location(review):
    content, content_type, _ = export_review(review, "html")
    page = content.decode()

    assert content_type == "text/html; charset=utf-8"
    quotes = re.findall(r"<blockquote>(.*?)</blockquote>", page, flags=re.DOTALL)
    assert len(quotes) == 2  # the two items that have citations
    assert "documented" in quotes[0] and "page 2, § 3.1" in quotes[0]
    assert "Acme Cloud Ltd" in page  # the vendor, in the title block
    assert "Gaps found" in page


def test_hostile_text_of_the_uploaded_document_is_shown_as_text_never_run(dpo):
    review = completed_review(
        organization=dpo.organization,
        items=hostile_items(),
        file_name='"><script>alert(3)</script>.pdf',
    )

    page = export_review(review, "html").content.decode()
    markdown = export_review(review, "md").content.decode()

    assert "<script" not in page and "<img" not in page and "<iframe" not in page
    assert 'href="javascript' not in page and "<b>bold</b>" not in page
    # The quote reads exactly as in the document, Markdown signs and all.
    body = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert HOSTILE_QUOTE in body
    assert "page 9 <b>bold</b>" in body
    assert "\n# not a heading" not in markdown and "<h1>not a heading" not in page


def test_the_pdf_report_has_each_quote_and_its_location(review):
    content, content_type, filename = export_review(review, "pdf")

    assert content_type == "application/pdf" and filename.endswith(".pdf")
    assert content.startswith(b"%PDF")
    text = " ".join(pdf_text(content).split())
    assert "only on documented instructions from the Controller" in text
    assert "page 4, § 7" in text
    assert "h-audits" in text and "Art. 28(3)(h)" in text


def test_the_docx_report_sets_quotes_in_the_quote_style(review):
    content, content_type, _ = export_review(review, "docx")
    document = Document(io.BytesIO(content))

    assert content_type.endswith("wordprocessingml.document")
    quoted = [p.text for p in document.paragraphs if p.style.name == "Quote"]
    assert any("general authorisation to engage Sub-processors" in text for text in quoted)
    assert any("page 4, § 7" in text for text in quoted)
    title_block = [cell.text for row in document.tables[0].rows for cell in row.cells]
    assert "acme-dpa.pdf" in title_block and "Acme Cloud Ltd" in title_block


def test_the_report_speaks_the_reviews_language(dpo):
    review = completed_review(organization=dpo.organization, language="de")

    text = export_review(review, "md").content.decode()
    pdf = export_review(review, "pdf").content

    title = text.splitlines()[0]
    assert title == "# Prüfung: Vertrag über die Auftragsverarbeitung (acme-dpa.pdf)"
    assert "| Fehlt | 2 |" in text and "**Ergebnis:** Lücken gefunden" in text
    assert PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/Lang"] == "de-DE"


def test_an_unknown_format_is_refused_naming_the_formats(review):
    with pytest.raises(UnsupportedExportFormat) as refused:
        export_review(review, "xlsx")

    assert refused.value.valid_formats == ("md", "html", "pdf", "docx")
    assert export_review(review, " PDF ").content_type == "application/pdf"


def test_the_download_name_is_ascii_whatever_the_file_was_called(dpo):
    review = completed_review(organization=dpo.organization, file_name='../Ärger "DPA"\r\n.pdf')

    filename = export_review(review, "md").filename

    assert re.fullmatch(r"review-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.md", filename), filename
