"""GET /api/v1/legal-documents/{id} carries the document's language-neutral `assessment`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from gdpr.assessment.transfers import find_country
from tests.legal_documents.samples import FULL_INPUTS

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def create(caller, document_type: str, language: str = "en", **inputs):  # type: ignore[no-untyped-def]
    body = {"documentType": document_type, "language": language, **FULL_INPUTS[document_type]}
    response = caller.client.post(URL, {**body, **inputs}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def assessment_of(caller, document_id: str) -> dict:  # type: ignore[no-untyped-def]
    response = caller.client.get(f"{URL}/{document_id}")
    assert response.status_code == 200, response.content
    return response.json()["assessment"]


def test_a_dpia_shows_its_screening_ratings_and_concepts_as_codes(dpo):
    found = assessment_of(dpo, create(dpo, "DPIA"))

    assert found["documentType"] == "DPIA"
    assert found["decisions"]["dpiaRequired"] is True
    assert found["decisions"]["art36PriorConsultation"] is True
    assert found["decisions"]["specialCategoriesWithoutCondition"] is False
    assert {risk["key"] for risk in found["ratings"]["risks"]} >= {
        "illegitimate-access",
        "unwanted-modification",
        "disappearance",
    }
    assert {
        "field": "specialCategories",
        "wording": "Biometric data",
        "scheme": "data-category-group",
        "code": "art-9",
    } in found["concepts"]
    assert found["transfers"] == [
        {
            # None while the finder knows EEA countries only; "US" with gdpr.countries.
            "country": find_country("United States"),
            "recipient": "CloudCo Inc.",
            "mechanism": "standard-contractual-clauses",
            "adequacy": True,
            "adequacyLimited": True,
            "needsSafeguard": False,
        }
    ]


def test_the_document_language_does_not_change_the_assessment(dpo):
    english = assessment_of(dpo, create(dpo, "DPIA", language="en"))
    german = assessment_of(dpo, create(dpo, "DPIA", language="de"))
    assert german == english


def test_a_breach_shows_the_72_hour_deadline_and_the_art_34_decision(dpo):
    discovered = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    document_id = create(dpo, "BREACH_NOTIFICATION", discoveredAt=discovered.isoformat())

    found = assessment_of(dpo, document_id)

    deadline = (discovered + timedelta(hours=72)).isoformat().replace("+00:00", "Z")
    assert found["deadlines"]["art33Notification"] == deadline
    assert found["ratings"] == {"breach": {"riskLevel": "high"}}
    assert found["decisions"]["art33Notification"] is True
    assert found["decisions"]["art34Communication"] is True
    assert found["decisions"]["art33DeadlinePassed"] is False


def test_a_request_form_shows_its_due_dates(dpo):
    found = assessment_of(dpo, create(dpo, "DATA_SUBJECT_REQUEST_FORM"))
    assert found["deadlines"] == {
        "requestReceived": "2026-01-31",
        "responseDue": "2026-03-02",
        "extendedResponseDue": "2026-04-30",
    }


def test_a_questionnaire_answer_changes_the_assessment(dpo):
    document_id = create(dpo, "DATA_PROCESSING_AGREEMENT")
    assert assessment_of(dpo, document_id)["decisions"]["processorOutsideEea"] is True

    answered = dpo.client.post(
        f"{URL}/{document_id}/questionnaire/answers",
        {"questionId": "processorInEu", "answer": True},
        format="json",
    )
    assert answered.status_code == 200, answered.content

    assert assessment_of(dpo, document_id)["decisions"]["processorOutsideEea"] is False


def test_list_items_leave_the_assessment_out(dpo):
    create(dpo, "RECORD_OF_PROCESSING")
    response = dpo.client.get(URL)
    assert response.status_code == 200
    (item,) = response.json()["documents"]
    assert "assessment" not in item


def test_another_organization_cannot_read_the_assessment(dpo, outsider):
    document_id = create(dpo, "DPIA")
    response = outsider.client.get(f"{URL}/{document_id}")
    assert response.status_code == 404
    assert "assessment" not in response.json()
    assert "Biometric" not in response.content.decode()


def test_the_openapi_schema_documents_the_assessment(client: Client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    detail = schema["paths"]["/api/v1/legal-documents/{id}"]["get"]["responses"]["200"]
    document = components[detail["content"]["application/json"]["schema"]["$ref"].split("/")[-1]]

    field = document["properties"]["assessment"]
    reference = (field.get("allOf") or field.get("oneOf") or [field])[0]["$ref"].split("/")[-1]
    assessment = components[reference]
    assert {"concepts", "unclassified", "ratings", "decisions", "transfers", "deadlines"} <= set(
        assessment["properties"]
    )
    concept = components[assessment["properties"]["concepts"]["items"]["$ref"].split("/")[-1]]
    assert set(concept["properties"]) == {"field", "wording", "scheme", "code"}
    decisions = components[assessment["properties"]["decisions"]["$ref"].split("/")[-1]]
    assert {"dpiaRequired", "art33Notification", "art34Communication"} <= set(
        decisions["properties"]
    )
