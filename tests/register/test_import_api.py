"""POST /api/v1/processing-activities/import with the realistic register workbook."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from audit.models import AuditEvent
from register.models import ProcessingActivity, Transfer, Vendor
from tests.conftest import Caller, make_caller
from tests.support.register_workbook import (
    VENDOR_HEADERS,
    activities_copy,
    french_register_csv,
    register_workbook,
    vendors_copy,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("register_imports_here")]

URL = "/api/v1/processing-activities/import"
STATUS_URL = "/api/v1/processing-activities/imports"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def finished(caller: Caller, response: Any) -> dict[str, Any]:
    """The import a POST queued (202), as its GET shows it once run (here: at once)."""
    assert response.status_code == 202, response.content
    found = caller.client.get(f"{STATUS_URL}/{response.json()['id']}")
    assert found.status_code == 200, found.content
    return dict(found.json())


def post_upload(caller: Caller, upload: Any, **fields: Any) -> dict[str, Any]:
    """The import of an upload, finished (completed or failed)."""
    response = caller.client.post(URL, {"file": upload, **fields}, format="multipart")
    return finished(caller, response)


def result_of(caller: Caller, upload: Any, **fields: Any) -> dict[str, Any]:
    """The plan of a completed import (dry run: what it would do; else: what was done)."""
    found = post_upload(caller, upload, **fields)
    assert found["status"] == "completed", found
    return dict(found["result"])


def post_file(caller: Caller, content: bytes, name: str = "register.xlsx", **fields: Any):
    return result_of(caller, SimpleUploadedFile(name, content, content_type=XLSX), **fields)


def revisions() -> dict[str, int]:
    entries = [*ProcessingActivity.objects.all(), *Vendor.objects.all()]
    return {entry.name: entry.revision for entry in entries}


def test_the_register_workbook_creates_every_activity_and_vendor_with_its_facts(dpo):
    body = post_file(dpo, register_workbook())
    assert body["totals"]["activities"] == {
        "created": 12,
        "updated": 0,
        "unchanged": 0,
        "skipped": 0,
    }
    assert body["totals"]["vendors"] == {"created": 6, "updated": 0, "unchanged": 0, "skipped": 0}
    kinds = {sheet["sheet"]: sheet["kind"] for sheet in body["sheets"]}
    assert kinds == {"Verarbeitungstätigkeiten": "activities", "Processors": "vendors"}
    assert body["ignoredSheets"] == ["Hinweise"]
    assert ProcessingActivity.objects.filter(organization=dpo.organization).count() == 12
    assert Vendor.objects.filter(organization=dpo.organization).count() == 6
    rows = {row["name"]: row for row in body["rows"]}
    payroll = ProcessingActivity.objects.get(name="Lohn- und Gehaltsabrechnung")
    assert rows[payroll.name] | {"id": str(payroll.pk)} == rows[payroll.name]
    assert rows[payroll.name]["row"] == 6  # below the title block and the header row
    assert payroll.reference == "VVT-01"
    assert payroll.legal_bases == [
        {"code": "contract", "wording": "Art. 6 Abs. 1 lit. b DSGVO i.V.m. § 26 BDSG"},
        {
            "code": "legal-obligation",
            "wording": "Art. 6 Abs. 1 lit. c DSGVO (§ 41 EStG, § 28a SGB IV)",
        },
    ]
    assert payroll.art9_conditions == [
        {"code": "b", "wording": "Art. 9 Abs. 2 lit. b DSGVO (Kirchensteuermerkmal)"}
    ]
    assert payroll.data_subjects == ["Beschäftigte", "Auszubildende"]
    assert {"category": "Buchungsbelege", "period": "8 Jahre (§ 147 AO)"} in payroll.retention
    assert payroll.recipients == ["Finanzamt", "Sozialversicherungsträger"]
    assert [vendor.name for vendor in payroll.vendors.all()] == ["DATEV eG"]
    assert payroll.owner == "Personalabteilung"

    newsletter = ProcessingActivity.objects.get(reference="VVT-04")
    assert newsletter.legal_bases[0]["code"] == "consent"
    assert "Abmeldelink in jedem Newsletter" in newsletter.consent_withdrawal
    assert [v.name for v in newsletter.vendors.all()] == [
        "Mailchimp (The Rocket Science Group LLC)"
    ]
    health = ProcessingActivity.objects.get(reference="VVT-10")
    assert [condition["code"] for condition in health.art9_conditions] == ["h"]
    assert health.special_categories == [
        "Gesundheitsdaten (Ergebnisse der arbeitsmedizinischen Vorsorge)"
    ]
    # "USA (Zoom)" in the third-country column names the vendor: a link, not a recipient.
    assert [v.name for v in ProcessingActivity.objects.get(reference="VVT-11").vendors.all()] == [
        "Zoom Video Communications, Inc."
    ]
    # A third-country recipient that is not a vendor: a recipient with its country and
    # safeguard, and a Transfer of the activity.
    crm = ProcessingActivity.objects.get(reference="VVT-05")
    assert crm.recipients == [
        "Vertrieb (intern)",
        # The cell's words: every reader recognises them (adequacy-decision, the transfer).
        {
            "name": "Muster Holding AG",
            "country": "Schweiz",
            "safeguard": "Angemessenheitsbeschluss (Schweiz)",
        },
    ]
    transfer = Transfer.objects.get(activity=crm)
    assert (transfer.recipient, transfer.country, transfer.mechanism) == (
        "Muster Holding AG",
        "Schweiz",
        "adequacy-decision",
    )
    logs = rows["Protokollierung zur IT-Sicherheit"]
    assert logs["problems"] == ["legal basis not recognised (kept as written): 'Art. 32 DSGVO'"]

    datev = Vendor.objects.get(name="DATEV eG")
    assert (datev.reference, datev.country, datev.dpa_status) == ("AV-01", "Germany", "signed")
    assert datev.dpa_signed_on == datetime.date(2022, 3, 1)
    assert datev.transfers.count() == 0
    assert set(datev.activities.values_list("reference", flat=True)) == {"VVT-01", "VVT-12"}
    personio = Vendor.objects.get(reference="AV-02")
    assert personio.sub_processors == [
        {"name": "Amazon Web Services EMEA SARL", "country": "Luxembourg"}
    ]
    assert Vendor.objects.get(reference="AV-06").dpa_status == "requested"
    transfers = {t.recipient: t.mechanism for t in Transfer.objects.filter(vendor__isnull=False)}
    # Mailchimp's sub-processors in the United States are transfers too, with no safeguard
    # of their own named: as the API records them for the same vendor (wanted_transfers).
    assert transfers == {
        "Mailchimp (The Rocket Science Group LLC)": "standard-contractual-clauses",
        "Google LLC": "",
        "Amazon Web Services, Inc.": "",
        "Zendesk, Inc.": "binding-corporate-rules",
        "Zoom Video Communications, Inc.": "",
    }
    mailchimp = Vendor.objects.get(reference="AV-03")
    assert mailchimp.transfer_mechanism_wording.startswith("Standard Contractual Clauses")
    assert rows["Zoom Video Communications, Inc."]["problems"] == [
        "outside the EEA (United States) with no transfer mechanism"
    ]
    # Each write is audited through record_change, and the import as a whole once.
    assert AuditEvent.objects.filter(action="processing_activity.created").count() == 12
    assert AuditEvent.objects.filter(action="vendor.created").count() == 6
    imported = AuditEvent.objects.get(action="processing_activity.imported")
    assert imported.details["totals"]["created"] == 18


def test_importing_the_same_workbook_again_changes_nothing(dpo):
    post_file(dpo, register_workbook())
    before = revisions()
    events = AuditEvent.objects.count()

    body = post_file(dpo, register_workbook())

    assert {row["action"] for row in body["rows"]} == {"unchanged"}
    assert body["totals"]["unchanged"] == 18
    assert revisions() == before
    # Only the import itself is recorded: no event for an unchanged row.
    assert AuditEvent.objects.count() == events + 1
    assert AuditEvent.objects.order_by("-id").first().action == "processing_activity.imported"


def test_a_dry_run_shows_the_plan_and_writes_nothing(dpo):
    body = post_file(dpo, register_workbook(), dryRun="true")

    assert body["dryRun"] is True
    assert body["totals"]["created"] == 18
    assert all(row["id"] is None for row in body["rows"])
    assert not ProcessingActivity.objects.exists()
    assert not Vendor.objects.exists()
    assert not AuditEvent.objects.filter(action__endswith=".created").exists()


def test_a_changed_row_updates_exactly_that_entry(dpo):
    post_file(dpo, register_workbook())
    before = revisions()
    vendors = vendors_copy()
    zoom = next(vendor for vendor in vendors if vendor["Vendor ID"] == "AV-05")
    zoom["Transfer mechanism"] = "Standard Contractual Clauses"
    activities = activities_copy()
    activities[6]["Löschfrist"] = "25 Monate"  # Webanalyse

    dry = post_file(dpo, register_workbook(activities=activities, vendors=vendors), dryRun=True)
    assert revisions() == before
    body = post_file(dpo, register_workbook(activities=activities, vendors=vendors))

    assert dry["rows"] == body["rows"]
    changed = {
        row["name"]: row["changedFields"] for row in body["rows"] if row["action"] == "updated"
    }
    assert changed == {
        "Zoom Video Communications, Inc.": [
            "transfer_mechanism", "transfer_mechanism_wording", "transfers",
        ],
        "Webanalyse": ["retention"],
    }  # fmt: skip
    after = revisions()
    assert {name for name in after if after[name] != before[name]} == set(changed)
    assert ProcessingActivity.objects.get(reference="VVT-07").retention == ["25 Monate"]
    zoom_transfer = Transfer.objects.get(vendor__reference="AV-05")
    assert zoom_transfer.mechanism == "standard-contractual-clauses"


def test_a_sheet_without_a_column_leaves_that_field_alone(dpo):
    post_file(dpo, register_workbook())
    before = revisions()
    headers = tuple(h for h in VENDOR_HEADERS if h not in ("Transfer mechanism", "Services"))

    body = post_file(dpo, register_workbook(vendor_headers=headers))

    assert body["totals"]["updated"] == 0
    assert revisions() == before
    mailchimp = Vendor.objects.get(reference="AV-03")
    assert mailchimp.transfer_mechanism == "standard-contractual-clauses"
    assert mailchimp.services == "Newsletter dispatch"


def test_a_row_is_matched_by_its_reference_when_renamed(dpo):
    post_file(dpo, register_workbook())
    activities = activities_copy()
    activities[4]["Verarbeitungstätigkeit"] = "CRM und Vertriebssteuerung"
    crm = ProcessingActivity.objects.get(reference="VVT-05")

    body = post_file(dpo, register_workbook(activities=activities))

    row = next(row for row in body["rows"] if row["reference"] == "VVT-05")
    assert (row["action"], row["id"], row["changedFields"]) == ("updated", str(crm.pk), ["name"])
    assert ProcessingActivity.objects.filter(organization=dpo.organization).count() == 12


def test_a_french_csv_register_is_read_with_its_encoding_and_delimiter(dpo):
    upload = SimpleUploadedFile("registre.csv", french_register_csv(), content_type="text/csv")
    body = result_of(dpo, upload)

    assert body["totals"]["created"] == 3
    payroll = ProcessingActivity.objects.get(reference="T-01")
    assert payroll.name == "Gestion de la paie"
    assert payroll.legal_bases == [
        {"code": "legal-obligation", "wording": "Obligation légale (article 6.1.c du RGPD)"}
    ]
    assert payroll.data_categories == ["État civil", "Coordonnées bancaires", "Rémunération"]
    cctv = ProcessingActivity.objects.get(reference="T-03")
    assert cctv.data_subjects == ["Salariés", "Visiteurs"]
    assert cctv.legal_bases[0]["code"] == "legitimate-interests"
    assert cctv.owner == "Services généraux"


def test_bases_and_mechanisms_in_any_language_are_imported_without_problems(dpo):
    content = (
        "Processing activity;Purpose;Legal basis;Recipients;Third countries;Safeguards\n"
        "Nómina;Pago;artículo 6, apartado 1, letra b), del RGPD;;;\n"
        "Videosorveglianza;Sicurezza;legittimo interesse;;;\n"
        "CRM;Vertrieb;Art. 6 Abs. 1 lit. f DSGVO;;USA (Muster Inc.);Standardvertragsklauseln\n"
    ).encode()
    upload = SimpleUploadedFile("register.csv", content, content_type="text/csv")

    body = result_of(dpo, upload)

    assert [row["problems"] for row in body["rows"]] == [[], [], []]
    codes = {
        activity.name: [entry["code"] for entry in activity.legal_bases]
        for activity in ProcessingActivity.objects.filter(organization=dpo.organization)
    }
    assert codes == {
        "Nómina": ["contract"], "Videosorveglianza": ["legitimate-interests"],
        "CRM": ["legitimate-interests"],
    }  # fmt: skip
    transfer = Transfer.objects.get(activity__name="CRM")
    assert transfer.mechanism == "standard-contractual-clauses"


def test_a_sheet_without_a_register_header_row_is_refused_with_the_headers_found(dpo):
    upload = SimpleUploadedFile(
        "export.csv", b"Kunde;Umsatz;Datum\nMeier;100;2024-01-01\n", content_type="text/csv"
    )
    found = post_upload(dpo, upload)

    assert found["status"] == "failed"
    assert found["result"] is None
    error = found["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "header row" in error["message"]
    assert error["details"]["headersFound"] == {"export.csv": ["Kunde", "Umsatz", "Datum"]}
    assert any(
        "Verarbeitungstätigkeit" in name
        for name in error["details"]["expectedHeaders"]["activities"]
    )
    assert not ProcessingActivity.objects.exists()


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("register.xlsx", b"PK\x03\x04 not really a zip", "VALIDATION_ERROR"),
        ("register.pdf", b"%PDF-1.7\n%binary", "INVALID_FILE_TYPE"),
        ("register.csv", b"", "VALIDATION_ERROR"),
    ],
)
def test_a_file_that_is_no_register_fails_the_import_with_the_error_envelope(
    dpo, name, content, code
):
    upload = SimpleUploadedFile(name, content or b" ", content_type="application/octet-stream")
    found = post_upload(dpo, upload)

    assert found["status"] == "failed"
    assert found["error"]["code"] == code
    assert found["error"]["message"]


def test_neither_or_both_of_file_and_asset_id_is_a_validation_error(dpo):
    response = dpo.client.post(URL, {"dryRun": True}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "file" in response.json()["error"]["details"]


def upload_asset(caller: Caller, content: bytes, name: str) -> str:
    upload = SimpleUploadedFile(name, content, content_type=XLSX)
    response = caller.client.post("/api/v1/assets/upload", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_an_uploaded_asset_of_the_organization_is_imported_by_id(dpo):
    asset_id = upload_asset(dpo, register_workbook(), "VVT-2026.xlsx")

    body = finished(dpo, dpo.client.post(URL, {"assetId": asset_id}, format="json"))["result"]

    assert body["fileName"] == "VVT-2026.xlsx"
    assert body["totals"]["created"] == 18


def test_an_asset_of_another_organization_is_not_found(dpo):
    asset_id = upload_asset(dpo, register_workbook(), "VVT-2026.xlsx")
    outsider = make_caller()

    response = outsider.client.post(URL, {"assetId": asset_id, "dryRun": True}, format="json")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"
    assert not ProcessingActivity.objects.exists()
    assert AuditEvent.objects.filter(
        organization=outsider.organization, outcome="denied", object_id=asset_id
    ).exists()
    assert AuditEvent.objects.filter(
        organization=dpo.organization, outcome="denied", object_id=asset_id
    ).exists()


def test_auditors_may_not_import(auditor):
    upload = SimpleUploadedFile("register.xlsx", register_workbook(), content_type=XLSX)
    response = auditor.client.post(URL, {"file": upload, "dryRun": True}, format="multipart")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "PERMISSION_DENIED"


def test_a_failure_while_applying_writes_nothing(dpo, monkeypatch):
    # The import writes through the register services, which record every change.
    from register import services

    calls = 0
    original = services.record_change

    def failing_on_the_tenth(**kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 10:
            raise RuntimeError("the database went away")
        return original(**kwargs)

    monkeypatch.setattr(services, "record_change", failing_on_the_tenth)

    upload = SimpleUploadedFile("register.xlsx", register_workbook(), content_type=XLSX)
    found = post_upload(dpo, upload)

    assert found["status"] == "failed"
    assert found["error"]["code"] == "INTERNAL_ERROR"
    assert "database" not in found["error"]["message"]  # internal errors stay in the log
    assert not ProcessingActivity.objects.exists()
    assert not Vendor.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="vendor.").exists()


def test_the_import_is_in_the_openapi_schema(dpo):
    schema = dpo.client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/processing-activities/import"]["post"]
    assert "multipart/form-data" in operation["requestBody"]["content"]
    assert "202" in operation["responses"]
    status = schema["paths"]["/api/v1/processing-activities/imports/{id}"]["get"]
    answer = status["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][answer.rsplit("/", 1)[-1]]["properties"]
    assert {"id", "status", "progress", "result", "error"} <= set(fields)


def test_an_activity_naming_a_vendor_already_in_the_register_is_linked_to_it(dpo):
    cloud = Vendor.objects.create(organization=dpo.organization, name="Acme Cloud GmbH")
    Vendor.objects.create(organization=make_caller().organization, name="Acme Cloud GmbH")
    content = (
        "Verarbeitungstätigkeit;Zweck;Rechtsgrundlage;Empfänger\n"
        "Backup;Datensicherung;Art. 6 Abs. 1 lit. f DSGVO;Acme Cloud GmbH\n"
    ).encode()
    upload = SimpleUploadedFile("vvt.csv", content, content_type="text/csv")

    body = result_of(dpo, upload)

    assert [row["entity"] for row in body["rows"]] == ["activity"]
    backup = ProcessingActivity.objects.get(organization=dpo.organization, name="Backup")
    assert list(backup.vendors.all()) == [cloud]
    assert backup.recipients == []


def test_two_rows_with_one_name_but_different_ids_skip_the_second_not_a_500(dpo):
    # The name is unique per organization: the second row would break the constraint.
    csv = (
        b"ID;Processing activity;Purpose;Legal basis\n"
        b"PA-1;Payroll;Salary payment;Art. 6(1)(b)\n"
        b"PA-2;Payroll;Tax reporting;Art. 6(1)(c)\n"
        b"PA-3;Recruiting;Hiring;Art. 6(1)(b)\n"
    )
    upload = SimpleUploadedFile("register.csv", csv, content_type="text/csv")

    body = result_of(dpo, upload)

    rows = {row["reference"]: row for row in body["rows"]}
    assert (rows["PA-1"]["action"], rows["PA-2"]["action"]) == ("created", "skipped")
    assert "row 2" in rows["PA-2"]["problems"][-1]
    names = ProcessingActivity.objects.filter(organization=dpo.organization).values_list(
        "name", flat=True
    )
    assert sorted(names) == ["Payroll", "Recruiting"]


def test_importing_a_vendor_keeps_the_transfers_of_its_sub_processors(dpo):
    # The import wrote the vendor's own transfer only, replacing every transfer of the
    # vendor: the sub-processor outside the EEA that the API had recorded was lost.
    from audit.services import Actor
    from register.services import vendor_create

    vendor_create(
        organization=dpo.organization, actor=Actor(label="t"),
        data={
            "name": "Acme Cloud Inc.", "country": "United States",
            "transfer_mechanism_wording": "Standard Contractual Clauses",
            "sub_processors": [{"name": "Offshore Support Ltd", "country": "India",
                                "safeguard": "Standard Contractual Clauses"}],
        },
    )  # fmt: skip
    before = sorted(Transfer.objects.values_list("recipient", "country", "mechanism"))
    assert len(before) == 2
    csv = b"Vendor;Country;Transfer mechanism\nAcme Cloud Inc.;United States;SCC\n"

    def post() -> Any:
        upload = SimpleUploadedFile("vendors.csv", csv, content_type="text/csv")
        return result_of(dpo, upload)

    post()

    assert sorted(Transfer.objects.values_list("recipient", "country", "mechanism")) == before
    assert [row["action"] for row in post()["rows"]] == ["unchanged"]


def test_a_name_taken_between_planning_and_writing_is_a_conflict_not_a_500(dpo):
    # An API write that commits the same name while the import plans (the import locks
    # only other imports out) must end as the API's 409, never as an IntegrityError.
    from audit.services import Actor
    from register.exceptions import DuplicateName
    from register.importing.applying import apply_plan
    from register.importing.planning import build_plan
    from register.importing.reading import read_register_file

    csv = b"Vendor;Country\nAcme Cloud Inc.;Germany\n"
    sheets = read_register_file(content=csv, file_name="vendors.csv")
    plan = build_plan(organization=dpo.organization, sheets=sheets)
    Vendor.objects.create(organization=dpo.organization, name="Acme Cloud Inc.")

    with pytest.raises(DuplicateName):
        apply_plan(plan=plan, actor=Actor(label="t"))
