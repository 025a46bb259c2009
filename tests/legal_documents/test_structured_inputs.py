"""Structured create inputs (objects beside strings): accepted, kept, and written out."""

from __future__ import annotations

import pytest

from legal_documents.models import LegalDocument
from legal_documents.services.documents import run_generation

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def generate_now(document_id: str) -> LegalDocument:
    """Run the queued job in-process (the worker path is tested end to end elsewhere)."""
    document = LegalDocument.objects.get(pk=document_id)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    return LegalDocument.objects.get(pk=document_id)


def test_company_details_as_an_object_are_written_into_the_document(dpo):
    response = dpo.client.post(
        URL,
        {
            "documentType": "DATA_SUBJECT_REQUEST_FORM",
            "companyName": "Nordwind Logistik GmbH",
            "companyDetails": {
                "address": "Speicherstadt 5, 20457 Hamburg",
                "email": "privacy@nordwind.example",
                "dpo": {"name": "Dr. Lena Vogt", "email": "dpo@nordwind.example"},
                "fleetSize": 140,
            },
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "Speicherstadt 5, 20457 Hamburg" in markdown
    assert "Dr. Lena Vogt" in markdown
    assert "fleetSize: 140" in markdown
