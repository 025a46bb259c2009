"""End to end: the API, a real Celery worker and the real Redis broker."""

import time

import pytest

from tests.legal_documents.samples import FULL_INPUTS


@pytest.mark.django_db(transaction=True)
def test_a_created_document_is_completed_by_the_worker(dpo, celery_worker_process):
    body = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}
    created = dpo.client.post("/api/v1/legal-documents", body, format="json").json()
    assert created["status"] == "processing"

    deadline = time.monotonic() + 60
    while True:
        document = dpo.client.get(f"/api/v1/legal-documents/{created['id']}").json()
        if document["status"] != "processing" or time.monotonic() > deadline:
            break
        time.sleep(0.1)

    assert document["status"] == "completed", document
    assert document["version"] == 1
    assert "Data Protection Impact Assessment" in document["content"]["markdown"]
