"""`language` on the create body, the document, the list, the questionnaire and the exports."""

from __future__ import annotations

import io
import zipfile

import docx
import pypdf
import pytest

from gdpr.i18n import COMPLETE_LANGUAGES, SUPPORTED_LANGUAGES
from legal_documents.models import LegalDocument
from tests.factories import LegalDocumentFactory
from tests.legal_documents.history_support import DOCUMENTS_URL, generated_document
from tests.legal_documents.test_api import create, full_inputs, generate_now

pytestmark = pytest.mark.django_db

INCOMPLETE = [lang for lang in SUPPORTED_LANGUAGES if lang not in COMPLETE_LANGUAGES]


def test_a_document_is_english_unless_asked(dpo):
    response = create(dpo, "PRIVACY_POLICY")
    assert response.status_code == 201, response.content
    assert response.json()["language"] == "en"
    document = generate_now(response.json()["id"])
    assert document.language == "en"
    body = dpo.client.get(f"{DOCUMENTS_URL}/{document.pk}").json()
    assert body["language"] == "en"


@pytest.mark.parametrize("language", COMPLETE_LANGUAGES)
def test_a_complete_language_is_accepted_and_kept(dpo, language):
    response = create(
        dpo, "RECORD_OF_PROCESSING", **full_inputs("RECORD_OF_PROCESSING"), language=language
    )
    assert response.status_code == 201, response.content
    document = generate_now(response.json()["id"])
    assert document.language == language
    assert document.compliance_complete is True


@pytest.mark.parametrize("language", [*INCOMPLETE, "pt", "EN-GB"])
def test_another_language_is_refused_naming_the_accepted_ones(dpo, language):
    response = create(dpo, "DPIA", **full_inputs("DPIA"), language=language)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "language" in error["details"]
    assert "accepted: " + ", ".join(COMPLETE_LANGUAGES) in error["details"]["language"][0]
    assert not LegalDocument.objects.exists()


def test_the_list_shows_and_filters_the_language(dpo):
    english = generated_document(dpo)
    german = LegalDocumentFactory(
        organization=dpo.organization, creator=dpo.membership.user, language="de"
    )
    listed = dpo.client.get(DOCUMENTS_URL).json()["documents"]
    assert {item["id"]: item["language"] for item in listed} == {
        str(english.pk): "en",
        str(german.pk): "de",
    }
    filtered = dpo.client.get(f"{DOCUMENTS_URL}?language=de").json()["documents"]
    assert [item["id"] for item in filtered] == [str(german.pk)]
    refused = dpo.client.get(f"{DOCUMENTS_URL}?language=pt")
    assert refused.status_code == 400


def _german(dpo) -> LegalDocument:  # type: ignore[no-untyped-def]
    """A generated document switched to German (the catalogs may not be complete yet)."""
    document = generated_document(dpo, "PRIVACY_POLICY")
    LegalDocument.objects.filter(pk=document.pk).update(language="de")
    return LegalDocument.objects.get(pk=document.pk)


def test_the_questionnaire_is_asked_in_the_document_language(dpo):
    document = _german(dpo)
    questions = dpo.client.get(f"{DOCUMENTS_URL}/{document.pk}/questionnaire").json()
    articles = {q["id"]: q["article"] for q in questions["questions"]}
    # Citations are in the German official form whatever the state of the catalogs.
    assert articles["childrenData"] == "Art. 8 DSGVO"
    options = {q["id"]: q["options"] for q in questions["questions"]}
    assert "E-mail" in options["rightsRequestChannel"]  # option values are answers: unchanged
    labels = {q["id"]: q["optionLabels"] for q in questions["questions"]}
    assert "Webformular" in labels["rightsRequestChannel"]
    assert "Web form" not in labels["rightsRequestChannel"]


def test_a_regenerated_draft_keeps_the_language(dpo):
    document = _german(dpo)
    response = dpo.client.post(f"{DOCUMENTS_URL}/{document.pk}/draft", {}, format="json")
    assert response.status_code == 202, response.content
    regenerated = generate_now(str(document.pk))
    assert regenerated.language == "de"
    assert "DSGVO" in regenerated.content_markdown
    assert "(Art. 13(1)(a))" not in regenerated.content_markdown


def _export(dpo, document, fmt):  # type: ignore[no-untyped-def]
    response = dpo.client.get(f"{DOCUMENTS_URL}/{document.pk}/export?format={fmt}")
    assert response.status_code == 200, response.content
    return response.content


def test_every_export_carries_the_language(dpo):
    document = _german(dpo)
    assert b'<html lang="de">' in _export(dpo, document, "html")
    pdf = pypdf.PdfReader(io.BytesIO(_export(dpo, document, "pdf")))
    assert pdf.trailer["/Root"]["/Lang"] == "de-DE"
    content = _export(dpo, document, "docx")
    word = docx.Document(io.BytesIO(content))
    assert word.core_properties.language == "de-DE"
    styles = zipfile.ZipFile(io.BytesIO(content)).read("word/styles.xml").decode()
    assert 'w:lang w:val="de-DE"' in styles


def test_an_english_export_says_english(dpo):
    document = generated_document(dpo, "PRIVACY_POLICY")
    assert b'<html lang="en">' in _export(dpo, document, "html")
    pdf = pypdf.PdfReader(io.BytesIO(_export(dpo, document, "pdf")))
    assert pdf.trailer["/Root"]["/Lang"] == "en-GB"
