"""The legal document endpoints: create, get, list, compliance, limits, errors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from gdpr.doctypes.registry import DOCUMENT_TYPES
from legal_documents.models import LegalDocument, Status
from legal_documents.services.documents import run_generation
from tests.factories import ClientCompanyFactory
from tests.legal_documents.samples import FULL_INPUTS

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def full_inputs(document_type: str) -> dict:
    inputs = dict(FULL_INPUTS[document_type])
    if document_type == "BREACH_NOTIFICATION":
        # Discovered an hour ago: the 72-hour deadline is still ahead, no delay to explain.
        inputs["discoveredAt"] = (timezone.now() - timedelta(hours=1)).isoformat()
    return inputs


def create(caller, document_type: str = "DPIA", **fields):  # type: ignore[no-untyped-def]
    body = {"documentType": document_type, **(fields or full_inputs(document_type))}
    return caller.client.post(URL, body, format="json")


def generate_now(document_id: str) -> LegalDocument:
    """Run the queued job in-process (the worker path is tested end to end elsewhere)."""
    document = LegalDocument.objects.get(pk=document_id)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    return LegalDocument.objects.get(pk=document_id)


@pytest.mark.parametrize("document_type", sorted(DOCUMENT_TYPES))
def test_creating_a_document_answers_201_processing_then_it_completes(dpo, document_type):
    response = create(dpo, document_type)
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["status"] == "processing"
    assert created["documentType"] == document_type
    assert created["estimatedCompletionTime"].endswith("Z")

    pending = dpo.client.get(f"{URL}/{created['id']}").json()
    assert pending["content"] is None

    generate_now(created["id"])
    document = dpo.client.get(f"{URL}/{created['id']}").json()
    assert document["status"] == "completed"
    assert document["version"] == 1
    assert document["content"]["markdown"].startswith("#")
    assert "<script" not in document["content"]["html"]
    assert document["compliance"]["complete"] is True, document["compliance"]

    report = dpo.client.get(f"{URL}/{created['id']}/compliance").json()
    assert report["complete"] is True
    assert report["documentType"] == document_type
    assert {item["status"] for item in report["items"]} == {"present"}


def test_minimal_inputs_complete_with_the_missing_items_reported(dpo):
    created = create(dpo, "RECORD_OF_PROCESSING", companyName="Tiny SARL").json()
    generate_now(created["id"])
    document = dpo.client.get(f"{URL}/{created['id']}").json()
    assert document["status"] == "completed"
    assert document["compliance"]["complete"] is False
    assert "b-purposes" in document["compliance"]["missing"]
    assert "[To be completed]" in document["content"]["markdown"]


def test_an_unknown_document_type_is_a_validation_error(dpo):
    response = dpo.client.post(URL, {"documentType": "POEM", "companyName": "x"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "documentType" in response.json()["error"]["details"]


def test_unknown_fields_and_missing_company_are_validation_errors(dpo):
    response = create(dpo, "DPIA", companyName="x", favouriteColour="blue")
    assert response.json()["error"]["details"] == {"favouriteColour": ["Unknown field for DPIA."]}
    response = dpo.client.post(URL, {"documentType": "DPIA"}, format="json")
    assert "companyName" in response.json()["error"]["details"]


def test_a_client_company_of_another_organization_is_refused(dpo, outsider):
    foreign = ClientCompanyFactory(organization=outsider.organization)
    response = create(dpo, "DPIA", clientCompanyId=str(foreign.pk))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "clientCompanyId" in response.json()["error"]["details"]
    assert not LegalDocument.objects.exists()


def test_a_client_company_of_the_organization_names_the_document(dpo):
    company = ClientCompanyFactory(organization=dpo.organization, name="Łódź Logistics Sp. z o.o.")
    created = create(dpo, "PRIVACY_POLICY", clientCompanyId=str(company.pk)).json()
    document = generate_now(created["id"])
    assert "Łódź Logistics Sp. z o.o." in document.content_markdown


def test_an_overlong_text_is_content_too_long(dpo):
    response = create(dpo, "DPIA", companyName="x", processingActivity="y" * 100_001)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "CONTENT_TOO_LONG"


def test_the_sixth_concurrent_generation_is_refused(dpo):
    for _ in range(5):
        assert create(dpo, "DPIA").status_code == 201
    response = create(dpo, "DPIA")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "GENERATION_LIMIT"
    assert LegalDocument.objects.filter(status=Status.PROCESSING).count() == 5


def test_a_dpo_lists_their_own_documents_and_an_auditor_the_organizations(dpo, org_admin, auditor):
    mine = create(dpo, "DPIA").json()["id"]
    theirs = create(org_admin, "DPIA").json()["id"]
    assert [d["id"] for d in dpo.client.get(URL).json()["documents"]] == [mine]
    listed = auditor.client.get(URL).json()
    assert {d["id"] for d in listed["documents"]} == {mine, theirs}
    assert listed["totalCount"] == 2 and listed["hasMore"] is False


def test_the_list_filters_and_paginates(dpo, settings):
    settings.RATE_LIMIT_WRITES = "100/min"
    settings.MAX_CONCURRENT_GENERATIONS = 100
    for document_type in ["DPIA", "DPIA", "PRIVACY_POLICY"]:
        create(dpo, document_type)
    page = dpo.client.get(f"{URL}?documentType=DPIA&limit=1").json()
    assert page["totalCount"] == 2 and page["hasMore"] is True and len(page["documents"]) == 1
    assert dpo.client.get(f"{URL}?status=completed").json()["totalCount"] == 0
    assert dpo.client.get(f"{URL}?status=nope").status_code == 400


def test_reading_a_document_is_audited(dpo):
    document_id = create(dpo, "DPIA").json()["id"]
    dpo.client.get(f"{URL}/{document_id}")
    assert AuditEvent.objects.filter(action="document.read", object_id=document_id).exists()
    assert AuditEvent.objects.filter(action="document.create", object_id=document_id).exists()


def test_compliance_of_a_document_without_content_is_a_conflict(dpo):
    document_id = create(dpo, "DPIA").json()["id"]
    response = dpo.client.get(f"{URL}/{document_id}/compliance")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "CONFLICT"


def test_an_auditor_cannot_create_documents(auditor):
    response = create(auditor, "DPIA")
    assert response.status_code == 403
