"""The register's own XLSX export (the record of processing, legal_documents/exports/xlsx.py)
imports again: into another organization, every column of the record is recognised and the
same activities come out, with their purposes, data subjects, vendors and measures (the
round trip of an edited export, in each language: test_import_round_trip.py)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from legal_documents.exports.xlsx import ACTIVITY_COLUMNS
from register.models import ProcessingActivity
from tests.conftest import make_caller
from tests.legal_documents.test_register_documents import create, seed_register

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("register_imports_here", "staleness_task_here"),
]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
RECORD_SHEET = "Record (Art. 30(1))"


def _exported_record(dpo) -> bytes:  # type: ignore[no-untyped-def]
    record = create(dpo, "RECORD_OF_PROCESSING")
    response = dpo.client.get(f"/api/v1/legal-documents/{record.pk}/export", {"format": "xlsx"})
    assert response.status_code == 200, response.content
    return bytes(response.content)


def _import(caller, content: bytes, **fields: str) -> dict:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("record.xlsx", content, content_type=XLSX)
    response = caller.client.post(
        "/api/v1/processing-activities/import", {"file": upload, **fields}, format="multipart"
    )
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "completed", response.content
    return dict(response.json()["result"])


def test_it_recognises_every_column_of_its_own_xlsx_record(dpo):
    seed_register(dpo.organization)
    other = make_caller()

    plan = _import(other, _exported_record(dpo), dryRun="true")

    (record,) = [sheet for sheet in plan["sheets"] if sheet["sheet"] == RECORD_SHEET]
    assert record["kind"] == "activities"
    assert record["ignoredColumns"] == []
    assert len(record["columns"]) == len(ACTIVITY_COLUMNS)
    assert not ProcessingActivity.objects.filter(organization=other.organization).exists()


def test_it_imports_the_same_activities_from_its_own_xlsx_record_into_another_organization(dpo):
    register = seed_register(dpo.organization)
    other = make_caller()

    plan = _import(other, _exported_record(dpo))

    assert plan["totals"]["activities"]["created"] == 4
    imported = {
        activity.name: activity
        for activity in ProcessingActivity.objects.filter(organization=other.organization)
    }
    originals = ProcessingActivity.objects.filter(organization=dpo.organization)
    assert set(imported) == {activity.name for activity in originals}
    payroll = imported[register["payroll"].name]
    assert any("Paying salaries" in purpose for purpose in payroll.purposes)
    # The vendors come with the record (its Vendors sheet), and the activity links to them.
    assert [vendor.name for vendor in payroll.vendors.all()] == ["Lohncloud GmbH"]
    assert any("Encryption at rest" in measure for measure in payroll.security_measures)
    assert "contract" in [basis["code"] for basis in payroll.legal_bases if isinstance(basis, dict)]
