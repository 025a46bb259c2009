"""The register round-trips through Excel, in each document language (issue 29, item 5).

A DPO exports the record of processing as XLSX, edits one cell in their spreadsheet program
and imports the file again: exactly that entry is updated, with exactly that field changed,
and every other entry of the file is unchanged. The register is written through the API, as
a DPO writes it (objects for purposes, retention and recipients; legal bases worded in the
document's language; a transfer with its safeguard; vendors linked).
"""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook, load_workbook

from register.importing.headers import SheetKind, field_for
from register.models import ProcessingActivity, Vendor
from tests.legal_documents.test_register_documents import create

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("register_imports_here", "staleness_task_here"),
]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
LANGUAGES = ("en", "de", "fr", "es", "it")
# A legal basis as lawyers of each language cite it.
CONTRACT = {
    "en": "Art. 6(1)(b) GDPR",
    "de": "Art. 6 Abs. 1 lit. b DSGVO",
    "fr": "article 6.1 b) du RGPD",
    "es": "artículo 6.1.b) del RGPD",
    "it": "art. 6, par. 1, lett. b) GDPR",
}
ENGLISH_RECORD_SHEET = "Record (Art. 30(1))"


def _post(caller, path: str, body: dict) -> dict:  # type: ignore[no-untyped-def]
    response = caller.client.post(f"/api/v1/{path}", body, format="json")
    assert response.status_code == 201, response.content
    return dict(response.json())


def _write_register(caller, language: str) -> None:  # type: ignore[no-untyped-def]
    lohncloud = _post(caller, "vendors", {
        "name": "Lohncloud GmbH", "address": "Hauptstr. 1, 10115 Berlin", "country": "Germany",
        "services": "Payroll processing", "dpaStatus": "signed", "dpaSignedOn": "2024-03-01",
        "subProcessors": [{"name": "Rechenzentrum AG", "country": "Germany"}],
    })  # fmt: skip
    crm = _post(caller, "vendors", {
        "name": "CRMly Inc.", "country": "United States", "services": "CRM hosting",
        "transferMechanism": "Standard Contractual Clauses (module 2)",
    })  # fmt: skip
    _post(caller, "processing-activities", {
        "name": "Payroll", "reference": "HR-01", "description": "Monthly salary payments.",
        "purposes": [{"purpose": "Paying salaries", "legalBasis": CONTRACT[language]}],
        "legalBases": [CONTRACT[language]], "dataSubjects": ["Employees"],
        "dataCategories": ["Bank details", "Salary"],
        "specialCategories": ["Trade union membership"], "art9Conditions": ["Art. 9(2)(b)"],
        "retention": [{"category": "Payroll records", "period": "10 years"}],
        "securityMeasures": ["Encryption at rest", "Role-based access"], "systems": ["SAP HR"],
        "owner": "HR", "nextReviewDate": "2027-01-31", "vendorIds": [lohncloud["id"]],
    })  # fmt: skip
    _post(caller, "processing-activities", {
        "name": "Customer management", "purposes": ["Managing customer relationships"],
        "legalBases": [CONTRACT[language]], "dataSubjects": ["Customers"],
        "dataCategories": ["Contact details", "Order history"],
        "retention": ["3 years after the last order"], "securityMeasures": ["MFA"],
        "recipients": [
            "Tax advisers",
            {"name": "Support Desk Ltd", "country": "India", "safeguard": "SCC module 2"},
        ],
        "vendorIds": [crm["id"]],
    })  # fmt: skip
    _post(caller, "processing-activities", {
        "name": "Newsletter", "purposes": ["Sending the newsletter"], "legalBases": ["consent"],
        "dataSubjects": ["Subscribers"], "dataCategories": ["E-mail address"],
        "retention": [{"category": "E-mail address", "period": "until consent is withdrawn"}],
        "securityMeasures": ["Double opt-in"],
        "consentWithdrawal": "Unsubscribe link in every e-mail",
    })  # fmt: skip
    _post(caller, "processing-activities", {
        "name": "Client data hosting", "role": "processor",
        "purposes": ["Hosting client data on behalf of clients"], "legalBases": ["Art. 6(1)(b)"],
        "jointControllers": ["Client Alpha GmbH"], "dataSubjects": ["Clients' customers"],
        "dataCategories": ["Account data"], "retention": ["As instructed by the client"],
        "securityMeasures": ["ISO 27001 data centre"],
    })  # fmt: skip


def _exported_record(caller, language: str) -> bytes:  # type: ignore[no-untyped-def]
    record = create(caller, "RECORD_OF_PROCESSING", language=language)
    response = caller.client.get(f"/api/v1/legal-documents/{record.pk}/export", {"format": "xlsx"})
    assert response.status_code == 200, response.content
    return bytes(response.content)


def _import(caller, content: bytes, *, dry_run: bool) -> dict:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("record.xlsx", content, content_type=XLSX)
    response = caller.client.post(
        "/api/v1/processing-activities/import",
        {"file": upload, "dryRun": "true" if dry_run else "false"},
        format="multipart",
    )
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "completed", response.content
    return dict(response.json()["result"])


def _edit_cell(content: bytes, *, activity: str, field: str, value: str) -> bytes:
    """The workbook with one cell changed, as a spreadsheet program saves it: the cell of
    `field` in the row of `activity`, found by the headers the import reads."""
    workbook = load_workbook(io.BytesIO(content))
    edited = 0
    for sheet in workbook.worksheets:
        fields = {cell.column: field_for(str(cell.value or ""), SheetKind.ACTIVITIES)
                  for cell in sheet[1]}  # fmt: skip
        names = [column for column, name in fields.items() if name == "name"]
        targets = [column for column, name in fields.items() if name == field]
        if not names or not targets:
            continue
        for row in sheet.iter_rows(min_row=2):
            if row[names[0] - 1].value == activity:
                row[targets[0] - 1].value = value
                edited += 1
    assert edited == 1, f"{field} of {activity}: {edited} cells"
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


def _state(caller) -> dict:  # type: ignore[no-untyped-def]
    """Every entry of the organization, every field, as the API shows it."""
    state = {}
    for path, key in (("processing-activities", "processingActivities"), ("vendors", "vendors")):
        response = caller.client.get(f"/api/v1/{path}", {"limit": 100})
        for entry in response.json()[key]:
            entry.pop("updatedAt", None)
            entry.pop("revision", None)
            state[entry["id"]] = entry
    return state


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_updates_exactly_the_edited_cell_of_its_own_xlsx_record(dpo, language):
    _write_register(dpo, language)
    exported = _exported_record(dpo, language)
    before = _state(dpo)
    edited = _edit_cell(
        exported, activity="Newsletter", field="security_measures",
        value="Double opt-in\nRate limiting of sign-ups",
    )  # fmt: skip

    plan = _import(dpo, edited, dry_run=False)

    rows = {(row["entity"], row["name"]): row for row in plan["rows"]}
    assert rows.pop(("activity", "Newsletter"))["changedFields"] == ["security_measures"]
    actions = {name: row["action"] for name, row in rows.items()}
    assert actions == dict.fromkeys(rows, "unchanged"), [
        (name, row["changedFields"], row["problems"]) for name, row in rows.items()
    ]
    assert len(rows) == 3 + 2  # the three other activities and both vendors
    newsletter = ProcessingActivity.objects.get(organization=dpo.organization, name="Newsletter")
    assert newsletter.security_measures == ["Double opt-in", "Rate limiting of sign-ups"]
    after = _state(dpo)
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {str(newsletter.pk)}
    assert {k for k, v in before[str(newsletter.pk)].items()
            if after[str(newsletter.pk)][k] != v} == {"securityMeasures"}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_finds_its_own_unedited_xlsx_record_unchanged(dpo, language):
    _write_register(dpo, language)

    plan = _import(dpo, _exported_record(dpo, language), dry_run=True)

    assert plan["totals"]["unchanged"] == 4 + 2, [
        (row["name"], row["action"], row["changedFields"]) for row in plan["rows"]
    ]
    assert plan["totals"]["updated"] == plan["totals"]["created"] == 0


@pytest.mark.parametrize("language", ("de", "fr", "es", "it"))
def test_it_exports_the_record_with_headers_and_sheet_names_in_the_document_language(dpo, language):
    _write_register(dpo, language)

    workbook = load_workbook(io.BytesIO(_exported_record(dpo, language)))

    assert ENGLISH_RECORD_SHEET not in workbook.sheetnames
    record = workbook.worksheets[0]
    headers = [str(cell.value) for cell in record[1]]
    assert "(b) Purposes" not in headers and "Processing activity" not in headers
    fields = {field_for(header, SheetKind.ACTIVITIES) for header in headers}
    assert {"name", "purposes", "data_subjects", "recipients", "third_countries",
            "retention", "security_measures"} <= fields  # fmt: skip
    assert Vendor.objects.filter(organization=dpo.organization).count() == 2
    assert isinstance(workbook, Workbook)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_header_of_its_xlsx_record_names_its_field_in_every_language(language):
    from gdpr.i18n import _, activate
    from legal_documents.exports import xlsx

    with activate(language):
        for kind, columns in ((SheetKind.ACTIVITIES, xlsx.ACTIVITY_COLUMNS),
                              (SheetKind.VENDORS, xlsx.VENDOR_COLUMNS)):  # fmt: skip
            for name, header in columns:
                assert field_for(_(header), kind) == name, (_(header), name)
        sheets = [_(title) for title in (xlsx.RECORD_SHEET, xlsx.PROCESSOR_SHEET,
                                         xlsx.VENDOR_SHEET, xlsx.ABOUT_SHEET)]  # fmt: skip
    assert all(len(sheet) <= 31 for sheet in sheets), sheets
    assert len(set(sheets)) == 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_reads_back_every_role_and_dpa_status_label_of_its_xlsx_record(language):
    from gdpr.i18n import _, activate
    from legal_documents.exports import xlsx
    from register.importing.parsing import _ACTIVITY_ROLES, _DPA_STATUSES, _VENDOR_ROLES, _choice
    from register.models import ActivityRole

    with activate(language):
        for code, label in xlsx.LABELS["role"].items():
            table = _ACTIVITY_ROLES if code in ActivityRole.values else _VENDOR_ROLES
            assert _choice(_(label), table) == code, (_(label), code)
            assert _choice(_(label), _VENDOR_ROLES) == code, (_(label), code)
        for code, label in xlsx.LABELS["dpa_status"].items():
            assert _choice(_(label), _DPA_STATUSES) == code, (_(label), code)
