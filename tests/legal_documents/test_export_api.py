"""GET /legal-documents/{id}/export: every format through the API, opened with its real parser."""

from __future__ import annotations

import io

import docx
import pypdf
import pytest

from audit.models import AuditEvent
from legal_documents.models import LegalDocument, Status
from tests.factories import LegalDocumentFactory
from tests.legal_documents.history_support import (
    DOCUMENTS_URL,
    NON_LATIN_NAMES,
    edit,
    generated_document,
)

pytestmark = pytest.mark.django_db

NAMES_LINE = "Controller: Müller Logistik GmbH, offices in Łódź and Ærø."


@pytest.fixture
def document(dpo) -> LegalDocument:  # type: ignore[no-untyped-def]
    """A generated DPIA whose version 2 adds accented and non-Latin names."""
    generated = generated_document(dpo)
    markdown = generated.content_markdown.replace("\n", f"\n{NAMES_LINE}\n", 1)
    assert edit(dpo, generated, markdown, "Names added").status_code == 200
    return LegalDocument.objects.get(pk=generated.pk)


def export(caller, document, query: str):  # type: ignore[no-untyped-def]
    return caller.client.get(f"{DOCUMENTS_URL}/{document.pk}/export?{query}")


def test_the_pdf_has_the_accented_names_as_extractable_text(dpo, document):
    response = export(dpo, document, "format=pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="dpia-v2.pdf"'
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    for name in NON_LATIN_NAMES:
        assert name in text
    assert dpo.organization.name in text
    assert len(reader.pages) >= 2  # title page, then the content


def test_the_docx_keeps_the_headings_as_word_headings(dpo, document):
    response = export(dpo, document, "format=docx")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    word = docx.Document(io.BytesIO(response.content))
    headings = [p.text for p in word.paragraphs if p.style.name.startswith("Heading")]
    markdown_headings = [
        line.lstrip("#").split("{#")[0].strip()
        for line in document.content_markdown.splitlines()
        if line.startswith("## ")
    ]
    assert markdown_headings
    for heading in markdown_headings:
        assert any(heading in text for text in headings), heading
    assert any(NAMES_LINE in p.text for p in word.paragraphs)


def test_the_html_is_a_page_with_the_organization_and_version(dpo, document):
    response = export(dpo, document, "format=html")
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode("utf-8")
    assert page.lstrip().lower().startswith("<!doctype html")
    assert dpo.organization.name in page
    assert "Łódź" in page


def test_markdown_and_text_are_the_content_in_utf8(dpo, document):
    markdown = export(dpo, document, "format=md")
    assert markdown["Content-Type"] == "text/markdown; charset=utf-8"
    assert markdown.content.decode("utf-8") == document.content_markdown
    text = export(dpo, document, "format=TXT")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert NAMES_LINE in text.content.decode("utf-8")
    assert "{#" not in text.content.decode("utf-8")


def test_version_1_exports_the_content_before_the_edit(dpo, document):
    response = export(dpo, document, "format=md&version=1")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="dpia-v1.md"'
    assert response.content.decode("utf-8") == document.versions.get(number=1).content_markdown
    assert NAMES_LINE not in response.content.decode("utf-8")


def test_an_unknown_format_is_a_validation_error_naming_the_valid_ones(dpo, document):
    response = export(dpo, document, "format=odt")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert error["details"]["validFormats"] == ["html", "pdf", "md", "txt", "docx"]
    assert export(dpo, document, "").status_code == 400


def test_an_unknown_version_is_not_found(dpo, document):
    response = export(dpo, document, "format=pdf&version=7")
    assert response.status_code == 404


def test_a_document_without_content_cannot_be_exported(dpo):
    pending = LegalDocumentFactory(
        organization=dpo.organization, status=Status.PROCESSING, version=0, content_markdown=""
    )
    response = export(dpo, pending, "format=pdf")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "CONFLICT"


def test_an_export_is_audited_with_format_and_version(dpo, document):
    export(dpo, document, "format=md&version=1")
    event = AuditEvent.objects.get(action="document.export", object_id=str(document.pk))
    assert event.details == {"format": "md", "version": 1}


def test_an_auditor_may_export(dpo, auditor, document):
    assert export(auditor, document, "format=txt").status_code == 200


def test_a_renderer_failure_is_conversion_failed(dpo, document, monkeypatch):
    from legal_documents.exports import ExportRenderError
    from legal_documents.services import exporting

    def broken(markdown, meta, fmt):  # type: ignore[no-untyped-def]
        raise ExportRenderError(fmt, "the renderer gave up")

    monkeypatch.setattr(exporting, "export_document", broken)
    response = export(dpo, document, "format=pdf")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "CONVERSION_FAILED"
    assert error["details"] == {"originalFormat": "md", "targetFormat": "pdf"}
