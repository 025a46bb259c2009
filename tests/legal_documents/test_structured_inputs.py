"""Structured create inputs (objects beside strings): accepted, kept, and written out.

The rich bodies are the OpenAPI examples (gdpr/doctypes/examples.py), so every
example the schema shows is also proven to work end to end.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gdpr.doctypes.examples import EXAMPLES
from legal_documents.models import LegalDocument
from legal_documents.services.documents import run_generation
from tests.legal_documents.samples import FULL_INPUTS

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"

COMPANY_FACTS = [
    "Nordwind Logistik GmbH",
    "Speicherstadt 5, 20457 Hamburg, Germany",
    "privacy@nordwind.example",
    "+49 40 1234 5678",
    "https://nordwind.example",
    "HRB 123456 (Amtsgericht Hamburg)",
    "DE123456789",
    "Dr. Lena Vogt",
    "dpo@nordwind.example",
    "fleetSize: 140",
    "industry: road freight",
]
PROCESSING_FACTS = [
    "Telematics of the delivery fleet",
    "On-board units record position, speed and driving events of each van.",
    "Route planning",
    "Driver safety coaching",
    # Original legal-basis wording, kept beside the recognised code.
    '"Art. 6(1)(b) employment contract"',
    '"legitimate interest in fleet safety"',
    '"Art. 9(2)(b) employment law obligations"',
    "Art. 9(2)(b) obligations and rights in employment",
    # Recipients with role and country; a non-EEA one with its safeguard is a transfer.
    "FleetTrack Telematics GmbH (processor; Germany)",
    "RouteAI Inc.",
    "United States",
    '"Standard Contractual Clauses"',
    "Works council (internal)",
    "Hamburg Police (public authority; DE)",
    "Insurance broker",
    "India",
    "Offshore Support Pvt Ltd",
    "SCC module 3, transfer impact assessment of 2026-01-15",
    # Retention per category with its criteria.
    "Raw GPS positions: 30 days, criteria: until the route is settled and the complaint"
    " window has closed",
    "Driving behaviour reports: 12 months, criteria: from the date of the report (annual"
    " safety review)",
    "Driver master data: end of employment plus 3 years",
]
EXPECTED_FACTS: dict[str, list[str]] = {
    "RECORD_OF_PROCESSING": [*COMPANY_FACTS, *PROCESSING_FACTS, "Proof of delivery"],
    "DPIA": [*COMPANY_FACTS, *PROCESSING_FACTS],
    "PRIVACY_POLICY": [
        *COMPANY_FACTS,
        *PROCESSING_FACTS[8:],
        "Shipment tracking for recipients",
        "Recipients follow their parcel and choose a delivery slot.",
        "Parcel tracking",
        "Delivery slot booking",
        '"Art. 6(1)(b) delivery contract"',
        "consent of the data subject (Art. 6(1)(a))",
    ],
    "DATA_PROCESSING_AGREEMENT": [
        *COMPANY_FACTS,
        "FleetTrack Telematics GmbH",
        "Torstrasse 20, 10119 Berlin, Germany",
        "privacy@fleettrack.example",
        "CloudHost SE (Ireland): hosting",
        "MapData Ltd (United Kingdom): map matching",
        "SupportDesk GmbH (Germany), ticketing",
        '"adequacy decision"',
    ],
    "BREACH_NOTIFICATION": [
        *COMPANY_FACTS,
        "2026-03-01T08:30:00Z",
        "2026-02-28T22:10:00Z",
        "A misconfigured export exposed driver reports on a public link.",
        "Approximate number of data subjects: 160",
        "Approximate number of records: 4,800",
        "Driver ID",
        "Driving behaviour events",
        "Drivers could face unfair judgement of their driving.",
        "Public link revoked",
        "Access logs reviewed",
        # The DPO contact point comes from companyDetails.dpo (no dpoContact given).
        "Contact point for more information: Dr. Lena Vogt, dpo@nordwind.example",
    ],
    "DATA_SUBJECT_REQUEST_FORM": [*COMPANY_FACTS, "Jonas Weber", "jonas.weber@mail.example"],
}


def generate_now(document_id: str) -> LegalDocument:
    """Run the queued job in-process (the worker path is tested end to end elsewhere)."""
    document = LegalDocument.objects.get(pk=document_id)
    run_generation(document_id=str(document.pk), job_id=str(document.job_id))
    return LegalDocument.objects.get(pk=document_id)


def create(caller, document_type: str, body: dict):  # type: ignore[no-untyped-def]
    return caller.client.post(URL, {"documentType": document_type, **body}, format="json")


def test_company_details_as_an_object_are_written_into_the_document(dpo):
    response = create(
        dpo,
        "DATA_SUBJECT_REQUEST_FORM",
        {
            "companyName": "Nordwind Logistik GmbH",
            "companyDetails": {
                "address": "Speicherstadt 5, 20457 Hamburg",
                "email": "privacy@nordwind.example",
                "dpo": {"name": "Dr. Lena Vogt", "email": "dpo@nordwind.example"},
                "fleetSize": 140,
            },
        },
    )
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "Speicherstadt 5, 20457 Hamburg" in markdown
    assert "Dr. Lena Vogt" in markdown
    assert "fleetSize: 140" in markdown


@pytest.mark.parametrize("document_type", sorted(EXAMPLES))
def test_a_rich_structured_body_keeps_every_fact_in_the_document(dpo, document_type):
    response = create(dpo, document_type, copy.deepcopy(EXAMPLES[document_type]))
    assert response.status_code == 201, response.content
    document = generate_now(response.json()["id"])
    assert document.status == "completed"
    # The stored inputs are what was sent, objects included.
    assert document.inputs["companyDetails"]["dpo"]["name"] == "Dr. Lena Vogt"
    markdown = document.content_markdown
    missing = [fact for fact in EXPECTED_FACTS[document_type] if fact not in markdown]
    assert not missing, missing


def test_the_dpo_of_company_details_fills_the_dpo_contact_of_the_record(dpo):
    response = create(dpo, "RECORD_OF_PROCESSING", copy.deepcopy(EXAMPLES["RECORD_OF_PROCESSING"]))
    markdown = generate_now(response.json()["id"]).content_markdown
    assert (
        "**Data protection officer:** Dr. Lena Vogt, dpo@nordwind.example, +49 40 1234 5600"
        in markdown
    )


def test_a_given_dpo_contact_wins_over_the_company_details_dpo(dpo):
    body = {**copy.deepcopy(EXAMPLES["RECORD_OF_PROCESSING"]), "dpoContact": "Privacy Office"}
    response = create(dpo, "RECORD_OF_PROCESSING", body)
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "**Data protection officer:** Privacy Office" in markdown


@pytest.mark.parametrize("document_type", sorted(FULL_INPUTS))
def test_the_plain_string_forms_still_give_the_same_facts(dpo, document_type):
    body = dict(FULL_INPUTS[document_type])
    response = create(dpo, document_type, body)
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "Hauptstrasse 1, 10115 Berlin, privacy@acme.example" in markdown
    for recipient in body.get("recipients", []):
        assert recipient in markdown
    for period in body.get("retentionPeriods", []):
        assert period in markdown


def test_free_text_legal_bases_are_recognised_for_the_consent_clause(dpo):
    body = {
        "companyName": "Acme",
        "legalBasis": ["the data subject's consent to the newsletter"],
    }
    response = create(dpo, "PRIVACY_POLICY", body)
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "consent of the data subject (Art. 6(1)(a))" in markdown
    assert "the data subject's consent to the newsletter" in markdown
    assert "you may withdraw it at any time" in markdown


@pytest.mark.parametrize(
    "wording",
    [
        "Art. 6 Abs. 1 lit. f DSGVO",
        "intérêt légitime",
        "articolo 6, paragrafo 1, lettera f), del GDPR",
    ],
)
def test_a_legal_basis_in_another_language_is_accepted_and_recognised(dpo, wording):
    body = {"companyName": "Acme", "legalBasis": [wording]}
    response = create(dpo, "PRIVACY_POLICY", body)
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "legitimate interests (Art. 6(1)(f))" in markdown
    assert wording in markdown


def test_mechanisms_and_roles_in_another_language_are_accepted_and_recognised(dpo):
    body = copy.deepcopy(EXAMPLES["RECORD_OF_PROCESSING"])
    body["thirdCountryTransfers"] = []
    for entry in body["recipients"]:
        if isinstance(entry, dict) and entry["name"] == "RouteAI Inc.":
            entry["safeguard"] = "Standardvertragsklauseln, Transfer Impact Assessment 2026-01"
            entry["role"] = "Auftragsverarbeiter"
    response = create(dpo, "RECORD_OF_PROCESSING", body)
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    assert "| United States | RouteAI Inc. | standard contractual clauses" in markdown
    assert "Module 2 (controller to processor)" in markdown


@pytest.mark.parametrize("document_type", ["DPIA", "RECORD_OF_PROCESSING", "PRIVACY_POLICY"])
def test_an_unrecognisable_legal_basis_is_refused_with_the_accepted_forms(dpo, document_type):
    response = create(
        dpo, document_type, {"companyName": "Acme", "legalBasis": ["because we always did"]}
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    message = " ".join(error["details"]["legalBasis"]["0"])
    assert "because we always did" in message
    assert "Accepted forms" in message
    assert "legitimate-interests" in message
    assert "Art. 6(1)(a)" in message


def test_an_unrecognisable_transfer_mechanism_is_refused(dpo):
    body = {
        "companyName": "Acme",
        "thirdCountryTransfers": [{"country": "Japan", "mechanism": "a handshake"}],
    }
    response = create(dpo, "RECORD_OF_PROCESSING", body)
    assert response.status_code == 400
    details = response.json()["error"]["details"]
    assert "Standard Contractual Clauses" in str(details["thirdCountryTransfers"])


def test_a_recipient_outside_the_eea_without_safeguard_is_a_missing_item(dpo):
    body = copy.deepcopy(EXAMPLES["RECORD_OF_PROCESSING"])
    body["recipients"] = [
        {"name": "FleetTrack Telematics GmbH", "role": "processor", "country": "DE"},
        {"name": "CheapOCR Ltd", "role": "processor", "country": "Vietnam"},
    ]
    body["thirdCountryTransfers"] = []
    response = create(dpo, "RECORD_OF_PROCESSING", body)
    document_id = response.json()["id"]
    markdown = generate_now(document_id).content_markdown
    report = dpo.client.get(f"{URL}/{document_id}/compliance").json()
    missing = [item["id"] for item in report["items"] if item["status"] == "missing"]
    assert missing == ["e-transfers"]
    assert "Art. 44-46" in markdown
    assert "CheapOCR Ltd (Vietnam)" in markdown
    # The EEA recipient is no transfer.
    assert "| DE |" not in markdown


def test_a_recipient_outside_the_eea_with_a_safeguard_needs_no_separate_transfer(dpo):
    body = copy.deepcopy(EXAMPLES["RECORD_OF_PROCESSING"])
    body["thirdCountryTransfers"] = []
    # SCCs alone are not enough (Art. 46, Clause 14 of Decision (EU) 2021/914): the transfer
    # impact assessment is named; the module follows from the recipient's processor role.
    for entry in body["recipients"]:
        if isinstance(entry, dict) and entry["name"] == "RouteAI Inc.":
            entry["safeguard"] = "Standard Contractual Clauses, transfer impact assessment 2026-01"
    response = create(dpo, "RECORD_OF_PROCESSING", body)
    document_id = response.json()["id"]
    markdown = generate_now(document_id).content_markdown
    assert "| United States | RouteAI Inc. | standard contractual clauses" in markdown
    assert "Module 2 (controller to processor)" in markdown
    report = dpo.client.get(f"{URL}/{document_id}/compliance").json()
    assert report["complete"] is True, report


def test_a_client_company_with_details_object_feeds_the_document(dpo):
    created = dpo.client.post(
        "/api/v1/client-companies",
        {"name": "Nordwind Logistik GmbH", "details": EXAMPLES["DPIA"]["companyDetails"]},
        format="json",
    )
    assert created.status_code == 201, created.content
    company = created.json()
    assert company["details"]["dpo"] == {
        "name": "Dr. Lena Vogt",
        "email": "dpo@nordwind.example",
        "phone": "+49 40 1234 5600",
    }
    assert company["details"]["fleetSize"] == 140
    body = {
        key: value
        for key, value in copy.deepcopy(EXAMPLES["BREACH_NOTIFICATION"]).items()
        if key not in {"companyName", "companyDetails"}
    }
    response = create(dpo, "BREACH_NOTIFICATION", {**body, "clientCompanyId": company["id"]})
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    missing = [fact for fact in EXPECTED_FACTS["BREACH_NOTIFICATION"] if fact not in markdown]
    assert not missing, missing


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("companyDetails", 42),
        ("companyDetails", {"dpo": 7}),
        ("companyDetails", {"employees": -3}),
        ("companyDetails", {"note": "nul \x00 inside"}),
        ("recipients", [{"role": "processor"}]),
        ("recipients", [{"name": "X", "role": "friend"}]),
        ("recipients", [{"name": "X", "colour": "blue"}]),
        ("retentionPeriods", [{"category": "Logs"}]),
        ("processingActivity", {"description": "no name"}),
    ],
)
def test_malformed_structured_inputs_are_validation_errors(dpo, field, value):
    response = create(dpo, "RECORD_OF_PROCESSING", {"companyName": "Acme", field: value})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert field in error["details"]


def test_the_openapi_schema_shows_both_forms_and_one_example_per_type(dpo):
    schema = dpo.client.get("/api/schema/?format=json").json()
    body = schema["paths"]["/api/v1/legal-documents"]["post"]["requestBody"]
    content = body["content"]["application/json"]
    examples = {example["value"]["documentType"] for example in content["examples"].values()}
    assert examples == set(EXAMPLES)
    components = schema["components"]["schemas"]
    alternatives = components[content["schema"]["$ref"].rsplit("/", 1)[1]]["oneOf"]
    assert len(alternatives) == len(EXAMPLES)
    record = components["RecordOfProcessingCreateBodyRequest"]["properties"]
    assert record["companyDetails"]["oneOf"][0] == {"type": "string"}
    assert record["recipients"]["items"]["oneOf"][1]["$ref"].endswith("RecipientRequest")
    assert record["retentionPeriods"]["items"]["oneOf"][1]["$ref"].endswith("RetentionRequest")
    assert record["processingActivity"]["oneOf"][0] == {"type": "string"}
    company = components["ClientCompanyRequest"]["properties"]["details"]
    assert company["oneOf"][1]["$ref"].endswith("CompanyDetailsObjectRequest")


def test_the_documented_example_body_is_accepted_and_written(dpo):
    inputs_page = (Path(__file__).parents[2] / "docs" / "INPUTS.md").read_text(encoding="utf-8")
    section = inputs_page.split("## The create body", 1)[1]
    body = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    response = dpo.client.post(URL, body, format="json")
    assert response.status_code == 201, response.content
    markdown = generate_now(response.json()["id"]).content_markdown
    for fact in ("fleetSize: 140", "Dr. Lena Vogt", '"Art. 6(1)(b) employment contract"'):
        assert fact in markdown
