"""PATCH /legal-documents/{id}: a manual edit is a new version, checked like generated text."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from legal_documents.models import LegalDocument, Status
from tests.legal_documents.history_support import (
    edit,
    first_present_item,
    generated_document,
    without_item,
)
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db


def test_an_edit_makes_the_next_version_with_author_and_reason(dpo):
    document = generated_document(dpo)
    response = edit(dpo, document, document.content_markdown + "\nA clarification.", "Clarified")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 2
    assert body["stage"] == document.stage
    assert body["content"]["markdown"].endswith("A clarification.")
    assert body["compliance"] == {"complete": True, "missing": []}
    assert body["removedItems"] == []
    version = LegalDocument.objects.get(pk=document.pk).versions.get(number=2)
    assert version.change_reason == "Clarified"
    assert version.author == dpo.membership.user
    assert AuditEvent.objects.filter(
        action="document.update", object_id=str(document.pk), details__version=2
    ).exists()


def test_deleting_a_mandatory_section_is_reported_as_removed(dpo):
    document = generated_document(dpo)
    item_id = first_present_item(document)
    response = edit(dpo, document, without_item(document.content_markdown, item_id), "Shorter")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["removedItems"] == [item_id]
    assert body["compliance"]["complete"] is False
    assert item_id in body["compliance"]["missing"]


def test_an_edit_is_refused_while_the_document_is_processing(dpo):
    document = generated_document(dpo)
    LegalDocument.objects.filter(pk=document.pk).update(status=Status.PROCESSING)
    response = edit(dpo, document, "# New text\n")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "CONFLICT"
    assert LegalDocument.objects.get(pk=document.pk).versions.count() == 1


def test_content_over_100000_characters_is_content_too_long(dpo):
    document = generated_document(dpo)
    response = edit(dpo, document, "x" * 100_001)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"


def test_a_change_reason_is_required(dpo):
    document = generated_document(dpo)
    response = dpo.client.patch(
        f"/api/v1/legal-documents/{document.pk}", {"markdown": "# x"}, format="json"
    )
    assert response.status_code == 400
    assert "changeReason" in response.json()["error"]["details"]


def test_an_auditor_cannot_edit(dpo, auditor):
    document = generated_document(dpo)
    response = edit(auditor, document, "# Auditor's version\n")
    assert response.status_code == 403
    assert LegalDocument.objects.get(pk=document.pk).version == 1


def test_an_edit_fires_the_document_updated_webhook(dpo, django_capture_on_commit_callbacks):
    document = generated_document(dpo)
    WebhookEndpointFactory(organization=dpo.organization, events=["document.updated"])
    with django_capture_on_commit_callbacks(execute=True):
        response = edit(dpo, document, document.content_markdown + "\nMore.", "More")
    assert response.status_code == 200
    delivery = WebhookDelivery.objects.get(event="document.updated")
    assert delivery.payload["documentId"] == str(document.pk)
    assert delivery.payload["data"]["version"] == 2
    assert delivery.payload["data"]["documentType"] == "DPIA"


def test_a_change_reason_of_500_characters_is_kept_whole(dpo):
    document = generated_document(dpo)
    reason = "Aligned with the supervisory authority's guidance. " * 9 + "Done."
    assert len(reason) <= 500
    response = edit(dpo, document, document.content_markdown + "\nMore.", reason)
    assert response.status_code == 200, response.content
    stored = LegalDocument.objects.get(pk=document.pk)
    assert stored.versions.get(number=2).change_reason == reason
    assert stored.history.latest().history_change_reason == reason
