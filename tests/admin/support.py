"""URL helpers of the admin tests."""

from __future__ import annotations

from django.urls import reverse

from legal_documents.models import LegalDocument
from tests.support import flow


def change_url(document: LegalDocument) -> str:
    return reverse("admin:legal_documents_legaldocument_change", args=[document.pk])


def flow_url(document: LegalDocument, step: str) -> str:
    return reverse("admin:legal_documents_legaldocument_flow", args=[document.pk, step])


def status_url(document: LegalDocument) -> str:
    return reverse("admin:legal_documents_legaldocument_status", args=[document.pk])


def add_url(document_type: str | None = None) -> str:
    url = reverse("admin:legal_documents_legaldocument_add")
    return f"{url}?type={document_type}" if document_type else url


def run_job(document: LegalDocument) -> LegalDocument:
    """Run the document's queued job in-process (the real worker runs in the browser tests)."""
    return flow.run_job(str(document.pk))
