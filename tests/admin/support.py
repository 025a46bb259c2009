"""URL helpers of the admin tests."""

from __future__ import annotations

from django.contrib.messages.storage.cookie import MessageSerializer
from django.core import signing
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


# django.contrib.messages.storage.cookie.CookieStorage.key_salt
MESSAGES_SALT = "django.contrib.messages"


def readable(value: str) -> str:
    """The cookie as anybody holding it reads it: signed values are compressed, not secret."""
    try:
        signer = signing.get_cookie_signer(salt=MESSAGES_SALT)
        return str(signer.unsign_object(value, serializer=MessageSerializer))
    except signing.BadSignature:
        return value
