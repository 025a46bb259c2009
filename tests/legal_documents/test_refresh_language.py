"""A refresh writes the sections it rewrites in the document's language: it composes through
the same `writing_request` as generation (legal_documents.services.documents)."""

from __future__ import annotations

import pytest

from tests.legal_documents.test_register_documents import _save, create, seed_register

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("staleness_task_here")]
URL = "/api/v1/legal-documents"


def test_it_rewrites_a_german_record_in_german_after_a_register_change(dpo):
    register = seed_register(dpo.organization)
    record = create(dpo, "RECORD_OF_PROCESSING", language="de")
    assert "Processing activity: Payroll" not in record.content_markdown  # written in German

    _save(register["payroll"], purposes=["Gehaltszahlung", "Lohnsteuer"])
    response = dpo.client.post(f"{URL}/{record.pk}/refresh")

    assert response.status_code == 200, response.content
    assert response.json()["refresh"]["newVersion"] is True
    record.refresh_from_db()
    assert "Lohnsteuer" in record.content_markdown
    assert "Processing activity: Payroll" not in record.content_markdown
    assert "Purposes:" not in record.content_markdown
