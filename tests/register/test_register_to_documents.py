"""Issue 17's path end to end: a spreadsheet register imported through the API becomes the
source of the record of processing, a privacy policy and a DPA (no fact typed twice)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from register.models import ProcessingActivity, Vendor
from tests.legal_documents.test_api import generate_now
from tests.support.register_workbook import ACTIVITIES, VENDORS, register_workbook

pytestmark = pytest.mark.django_db
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def create(caller, document_type: str, **fields):  # type: ignore[no-untyped-def]
    response = caller.client.post(
        "/api/v1/legal-documents",
        {"documentType": document_type, "companyName": "Muster GmbH", **fields},
        format="json",
    )
    assert response.status_code == 201, response.content
    return generate_now(response.json()["id"])


@pytest.fixture
def imported(dpo, register_imports_here):  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("verzeichnis.xlsx", register_workbook(), content_type=XLSX)
    response = dpo.client.post(
        "/api/v1/processing-activities/import", {"file": upload}, format="multipart"
    )
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "completed", response.content  # run here at once
    assert ProcessingActivity.objects.filter(organization=dpo.organization).count() == 12
    assert Vendor.objects.filter(organization=dpo.organization).count() == 6
    return dpo


def test_the_whole_register_record_contains_every_imported_activity(imported) -> None:
    document = create(imported, "RECORD_OF_PROCESSING")

    text = document.content_text  # as read (the Markdown escapes "&" in "SE & Co. KG")
    assert document.register_sources["wholeRegister"] is True
    assert len(document.register_sources["activities"]) == 12
    for row in ACTIVITIES:
        assert row["Verarbeitungstätigkeit"] in text, row["Verarbeitungstätigkeit"]
    # The processors of the vendors sheet are named where their activities use them.
    for name in ("DATEV eG", "Personio SE & Co. KG", "Securitas Sicherheitsdienste GmbH"):
        assert name in text, [line for line in text.splitlines() if "Personio" in line][:2]


def test_a_privacy_policy_and_a_dpa_from_ids_carry_the_register_facts(imported) -> None:
    newsletter = ProcessingActivity.objects.get(name="Newsletter-Versand")
    applicants = ProcessingActivity.objects.get(name="Bewerbermanagement")

    policy = create(
        imported, "PRIVACY_POLICY", processingActivityIds=[str(newsletter.pk), str(applicants.pk)]
    )
    text = policy.content_text
    for fact in (
        "Information über Produkte und Veranstaltungen per E-Mail",  # purpose
        "Durchführung von Bewerbungsverfahren",
        "Bis zum Widerruf der Einwilligung",  # retention
        "Abmeldelink in jedem Newsletter",  # how consent is withdrawn
        "United States",  # Mailchimp: a transfer outside the EEA
    ):
        assert fact in text, fact
    assert "Videoaufnahmen" not in text  # an activity the policy does not cover

    datev = Vendor.objects.get(name="DATEV eG")
    dpa = create(imported, "DATA_PROCESSING_AGREEMENT", vendorId=str(datev.pk))
    text = dpa.content_text
    datev_row = next(row for row in VENDORS if row["Vendor"] == "DATEV eG")
    for fact in (
        "DATEV eG",
        datev_row["Address"],
        "Payroll accounting",
        "Lohn- und Gehaltsabrechnung",
    ):
        assert fact in text, fact
    assert dpa.register_sources["vendors"] == {str(datev.pk): datev.revision}
