"""Documents written from the processing register: creation from ids, the whole register,
staleness on a register change, refresh keeping manual edits, the XLSX record (issue 17)."""

from __future__ import annotations

import io
import uuid

import pytest
from openpyxl import load_workbook

from audit.models import AuditEvent
from audit.services import Actor
from legal_documents.models import LegalDocument
from register.models import ActivityRole, ProcessingActivity, Transfer, Vendor, VendorRole
from register.services import record_change
from tests.conftest import make_caller
from tests.legal_documents.test_api import generate_now
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookDelivery

# The register-change receiver's task (staleness) runs here when enqueued.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("staleness_task_here")]
URL = "/api/v1/legal-documents"
ACTOR = Actor(label="dpo@example.com")


def _save(entry, **changes):  # type: ignore[no-untyped-def]
    """A register write as the services make it: save, then record_change."""
    for name, value in changes.items():
        setattr(entry, name, value)
    entry.save()
    record_change(entry=entry, actor=ACTOR, action="updated", changed_fields=list(changes))
    return entry


def seed_register(organization):  # type: ignore[no-untyped-def]
    """Four activities, three vendors, a transfer: a small but realistic register."""
    payroll_cloud = Vendor.objects.create(
        organization=organization, name="Lohncloud GmbH", address="Hauptstr. 1, 10115 Berlin",
        country="Germany", services="Payroll processing and payslips",
        sub_processors=[{"name": "Rechenzentrum AG", "country": "Germany", "services": "Hosting"}],
    )  # fmt: skip
    crm = Vendor.objects.create(
        organization=organization, name="CRMly Inc.", address="1 Market St, San Francisco",
        country="United States", services="CRM hosting", transfer_mechanism="scc",
        transfer_mechanism_wording="Standard Contractual Clauses (module 2)",
    )  # fmt: skip
    mailer = Vendor.objects.create(
        organization=organization, name="Mailer SAS", country="France",
        services="Newsletter dispatch", role=VendorRole.PROCESSOR,
    )  # fmt: skip
    payroll = ProcessingActivity.objects.create(
        organization=organization, name="Payroll", description="Monthly salary payments.",
        purposes=[{"purpose": "Paying salaries", "legalBasis": "Art. 6(1)(b)"}],
        legal_bases=[{"code": "contract", "wording": "employment contract"}],
        data_subjects=["Employees"], data_categories=["Bank details", "Salary"],
        retention=[{"category": "Payroll records", "period": "10 years"}],
        security_measures=["Encryption at rest", "Role-based access"],
    )  # fmt: skip
    payroll.vendors.add(payroll_cloud)
    customers = ProcessingActivity.objects.create(
        organization=organization, name="Customer management",
        purposes=["Managing customer relationships"], legal_bases=["Art. 6(1)(b)"],
        data_subjects=["Customers"], data_categories=["Contact details", "Order history"],
        retention=["3 years after the last order"], security_measures=["MFA"],
    )  # fmt: skip
    customers.vendors.add(crm)
    newsletter = ProcessingActivity.objects.create(
        organization=organization, name="Newsletter", purposes=["Sending the newsletter"],
        legal_bases=["consent"], data_subjects=["Subscribers"], data_categories=["E-mail address"],
        retention=[{"category": "E-mail address", "period": "until consent is withdrawn"}],
        security_measures=["Double opt-in"], consent_withdrawal="Unsubscribe link in every e-mail",
    )  # fmt: skip
    newsletter.vendors.add(mailer)
    hosting = ProcessingActivity.objects.create(
        organization=organization, name="Client data hosting", role=ActivityRole.PROCESSOR,
        purposes=["Hosting client data on behalf of clients"], legal_bases=["Art. 6(1)(b)"],
        joint_controllers=["Client Alpha GmbH"], data_subjects=["Clients' customers"],
        data_categories=["Account data"], retention=["As instructed by the client"],
        security_measures=["ISO 27001 data centre"],
    )  # fmt: skip
    Transfer.objects.create(
        organization=organization, activity=customers, recipient="CRMly Inc.",
        country="United States", mechanism="scc", mechanism_wording="SCC module 2",
    )  # fmt: skip
    return {
        "payroll": payroll, "customers": customers, "newsletter": newsletter,
        "hosting": hosting, "lohncloud": payroll_cloud, "crm": crm, "mailer": mailer,
    }  # fmt: skip


def create(caller, document_type: str, **fields):  # type: ignore[no-untyped-def]
    response = caller.client.post(
        URL, {"documentType": document_type, "companyName": "Acme GmbH", **fields}, format="json"
    )
    assert response.status_code == 201, response.content
    return generate_now(response.json()["id"])


@pytest.fixture
def register(dpo):  # type: ignore[no-untyped-def]
    return seed_register(dpo.organization)


def test_the_whole_register_record_has_every_activity_and_the_processor_part(dpo, register):
    document = create(dpo, "RECORD_OF_PROCESSING", employeeCount=40)
    markdown = document.content_markdown
    for activity in ("payroll", "customers", "newsletter", "hosting"):
        assert f"Processing activity: {register[activity].name}" in markdown
    # The Art. 30(1) table has a row per activity, the 30(2) part names the processor activity.
    assert markdown.count("| Client data hosting |") == 1
    processor_part = markdown.split("Record of the processor (Art. 30(2))")[1]
    assert "Client data hosting" in processor_part
    assert "Client Alpha GmbH" in processor_part
    assert "United States" in markdown and "Lohncloud GmbH" in markdown
    assert document.register_sources["wholeRegister"] is True
    assert set(document.register_sources["activities"]) == {
        str(register[name].pk) for name in ("payroll", "customers", "newsletter", "hosting")
    }
    # Every activity's section carries (b)-(g): the checklist holds for the whole register.
    assert markdown.count("{#b-purposes}") == 4
    for filled in ("b-purposes", "purpose-basis", "c-categories", "g-security",
                   "processor-record", "exemption"):  # fmt: skip
        assert filled not in document.compliance_missing


def test_one_activity_without_security_measures_makes_the_whole_register_incomplete(dpo, register):
    # Filled in three activities of four: the item is missing (each activity must have it).
    _save(register["newsletter"], security_measures=[])
    document = create(dpo, "RECORD_OF_PROCESSING")
    assert document.content_markdown.count("{#g-security}") == 4
    assert "g-security" in document.compliance_missing
    report = dpo.client.get(f"{URL}/{document.pk}/compliance").json()
    assert {item["id"]: item["status"] for item in report["items"]}["g-security"] == "missing"


def test_a_record_with_body_facts_is_written_from_the_body_as_before(dpo, register):
    document = create(dpo, "RECORD_OF_PROCESSING", purposes=["Visitor log"])
    assert document.register_sources == {}
    assert "Processing activity: Payroll" not in document.content_markdown


def test_a_privacy_policy_and_a_dpa_from_ids_contain_the_register_facts(dpo, register):
    policy = create(
        dpo, "PRIVACY_POLICY",
        processingActivityIds=[str(register["customers"].pk), str(register["newsletter"].pk)],
    )  # fmt: skip
    text = policy.content_markdown
    for fact in ("Managing customer relationships", "Sending the newsletter", "Order history",
                 "CRMly Inc.", "United States", "until consent is withdrawn",
                 "Unsubscribe link in every e-mail"):  # fmt: skip
        assert fact in text, fact
    assert "Paying salaries" not in text
    assert policy.inputs["processingActivityIds"] == [
        str(register["customers"].pk), str(register["newsletter"].pk)
    ]  # fmt: skip

    dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    text = dpa.content_markdown
    for fact in ("Lohncloud GmbH", "Hauptstr. 1", "Payroll processing and payslips",
                 "Rechenzentrum AG", "Payroll", "Employees", "Bank details"):  # fmt: skip
        assert fact in text, fact
    assert dpa.register_sources["vendors"] == {str(register["lohncloud"].pk): 1}
    assert set(dpa.register_sources["activities"]) == {str(register["payroll"].pk)}


def test_facts_in_the_body_win_over_the_register(dpo, register):
    document = create(
        dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)],
        dataSubjects=["Employees and contractors"],
    )  # fmt: skip
    assert "Employees and contractors" in document.content_markdown
    assert document.register_sources["explicit"] == ["companyName", "dataSubjects"]


def test_a_dpia_describes_one_activity(dpo, register):
    response = dpo.client.post(
        URL,
        {"documentType": "DPIA", "companyName": "Acme",
         "processingActivityIds": [str(register["payroll"].pk), str(register["hosting"].pk)]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "processingActivityIds" in response.json()["error"]["details"]


def test_ids_of_another_organization_are_refused_like_unknown_ones(dpo, register):
    other = make_caller()
    foreign = seed_register(other.organization)
    unknown = str(uuid.uuid4())
    response = dpo.client.post(
        URL,
        {"documentType": "PRIVACY_POLICY", "companyName": "Acme",
         "processingActivityIds": [str(register["payroll"].pk), str(foreign["payroll"].pk),
                                   unknown]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    messages = " ".join(error["details"]["processingActivityIds"])
    assert str(foreign["payroll"].pk) in messages and unknown in messages
    assert str(register["payroll"].pk) not in messages
    assert "Payroll" not in str(error)  # nothing of the other organization's entry
    response = dpo.client.post(
        URL,
        {"documentType": "DATA_PROCESSING_AGREEMENT", "companyName": "Acme",
         "vendorId": str(foreign["crm"].pk)},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "vendorId" in response.json()["error"]["details"]
    assert not LegalDocument.objects.filter(organization=dpo.organization).exists()


def test_changing_one_vendors_country_marks_exactly_its_documents_stale(
    dpo, register, django_capture_on_commit_callbacks
):
    WebhookEndpointFactory(organization=dpo.organization, events=["document.stale"])
    whole = create(dpo, "RECORD_OF_PROCESSING")
    payroll_dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    payroll_dpia = create(dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)])
    crm_dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["crm"].pk))
    policy = create(
        dpo, "PRIVACY_POLICY", processingActivityIds=[str(register["newsletter"].pk)]
    )  # fmt: skip
    from_body = create(dpo, "DPIA", processingActivity="Visitor log")
    other = make_caller()
    other_register = seed_register(other.organization)
    other_whole = create(other, "RECORD_OF_PROCESSING")

    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], country="Switzerland")

    stale = set(
        LegalDocument.objects.filter(stale_since__isnull=False).values_list("pk", flat=True)
    )
    assert stale == {whole.pk, payroll_dpa.pk, payroll_dpia.pk}
    for untouched in (crm_dpa, policy, from_body, other_whole):
        assert untouched.pk not in stale
    events = WebhookDelivery.objects.filter(event="document.stale")
    assert sorted(d.payload["documentId"] for d in events) == sorted(
        str(pk) for pk in (whole.pk, payroll_dpa.pk, payroll_dpia.pk)
    )
    # The get and the list show it; the list filters on it.
    body = dpo.client.get(f"{URL}/{payroll_dpa.pk}").json()
    assert body["stale"] is True and body["staleSince"]
    assert dpo.client.get(f"{URL}/{crm_dpa.pk}").json()["stale"] is False
    listed = dpo.client.get(URL, {"stale": "true"}).json()
    assert {item["id"] for item in listed["documents"]} == {str(pk) for pk in stale}
    fresh = dpo.client.get(URL, {"stale": "false"}).json()
    assert str(crm_dpa.pk) in {item["id"] for item in fresh["documents"]}

    # A second change leaves the first stale_since (and sends no second event).
    first = LegalDocument.objects.get(pk=payroll_dpa.pk).stale_since
    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], address="Neue Str. 2, Berlin")
    assert LegalDocument.objects.get(pk=payroll_dpa.pk).stale_since == first
    assert WebhookDelivery.objects.filter(event="document.stale").count() == 3
    assert other_register  # the other organization's register was not touched


def test_an_activity_change_marks_the_documents_naming_it_stale(
    dpo, register, django_capture_on_commit_callbacks
):
    dpia = create(dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)])
    dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    other_dpia = create(dpo, "DPIA", processingActivityIds=[str(register["customers"].pk)])
    with django_capture_on_commit_callbacks(execute=True):
        _save(register["payroll"], data_categories=["Bank details", "Salary", "Tax class"])
    stale = set(
        LegalDocument.objects.filter(stale_since__isnull=False).values_list("pk", flat=True)
    )
    assert stale == {dpia.pk, dpa.pk}
    assert other_dpia.pk not in stale


def test_a_deleted_entry_makes_the_documents_naming_it_stale(dpo, register):
    from legal_documents.staleness import mark_stale

    dpia = create(dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)])
    other = create(dpo, "DPIA", processingActivityIds=[str(register["customers"].pk)])
    payroll_id = register["payroll"].pk
    register["payroll"].delete()
    marked = mark_stale(organization_id=dpo.organization.pk, activity_ids=[payroll_id])
    assert marked == [str(dpia.pk)]
    assert LegalDocument.objects.get(pk=other.pk).stale_since is None
    response = dpo.client.post(f"{URL}/{dpia.pk}/refresh")
    assert response.status_code == 409
    assert str(payroll_id) in str(response.json()["error"]["details"])


def test_a_dpa_needs_its_vendor(dpo, register):
    response = dpo.client.post(
        URL,
        {"documentType": "DATA_PROCESSING_AGREEMENT", "companyName": "Acme",
         "processingActivityIds": [str(register["payroll"].pk)]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 400
    assert "processingActivityIds" in response.json()["error"]["details"]


def test_a_new_activity_makes_only_the_whole_register_stale(
    dpo, register, django_capture_on_commit_callbacks
):
    whole = create(dpo, "RECORD_OF_PROCESSING")
    dpia = create(dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)])
    with django_capture_on_commit_callbacks(execute=True):
        added = ProcessingActivity.objects.create(organization=dpo.organization, name="CCTV")
        record_change(entry=added, actor=ACTOR, action="created")
    assert LegalDocument.objects.get(pk=whole.pk).stale_since is not None
    assert LegalDocument.objects.get(pk=dpia.pk).stale_since is None


def _edit(caller, document, markdown, reason="Manual edit"):  # type: ignore[no-untyped-def]
    response = caller.client.patch(
        f"{URL}/{document.pk}", {"markdown": markdown, "changeReason": reason}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_refresh_writes_the_change_and_keeps_an_unrelated_manual_edit(
    dpo, register, django_capture_on_commit_callbacks
):
    dpa = create(dpo, "DATA_PROCESSING_AGREEMENT", vendorId=str(register["lohncloud"].pk))
    # A manual edit of a section the vendor's country does not touch: the security measures.
    marker = "Reviewed by the works council on 2026-03-01."
    lines = dpa.content_markdown.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.endswith("{#b-confidentiality}"))
    edited = "\n".join([*lines[: heading + 1], "", marker, *lines[heading + 1 :]]) + "\n"
    _edit(dpo, dpa, edited, "Works council note")
    assert "Switzerland" not in edited

    with django_capture_on_commit_callbacks(execute=True):
        _save(register["lohncloud"], country="Switzerland")
    assert dpo.client.get(f"{URL}/{dpa.pk}").json()["stale"] is True

    with django_capture_on_commit_callbacks(execute=True):
        response = dpo.client.post(f"{URL}/{dpa.pk}/refresh")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 3 and body["stale"] is False and body["staleSince"] is None
    assert body["refresh"]["changedEntries"] == ["Vendor 'Lohncloud GmbH' changed"]
    assert body["refresh"]["newVersion"] is True
    markdown = body["content"]["markdown"]
    assert "Switzerland" in markdown
    assert marker in markdown  # the unrelated manual edit survived
    # The version history records the refresh, with the diff to the version before.
    versions = dpo.client.get(f"{URL}/{dpa.pk}/versions").json()["versions"]
    assert versions[-1]["changeReason"].startswith(
        "Refreshed from the register: Vendor 'Lohncloud GmbH' changed."
    )
    previous = dpo.client.get(f"{URL}/{dpa.pk}/versions/2").json()["content"]
    assert "Switzerland" not in previous and "Switzerland" in markdown
    assert AuditEvent.objects.filter(action="document.refresh", object_id=str(dpa.pk)).exists()
    assert dpo.client.get(f"{URL}/{dpa.pk}/verify").json()["valid"] is True
    document = LegalDocument.objects.get(pk=dpa.pk)
    assert document.register_sources["vendors"] == {str(register["lohncloud"].pk): 2}
    assert document.inputs["processorCountry"] == "Switzerland"


def test_refresh_of_the_whole_register_adds_a_new_activity_and_keeps_edits(
    dpo, register, django_capture_on_commit_callbacks
):
    whole = create(dpo, "RECORD_OF_PROCESSING")
    marker = "Confirmed with HR on 2026-02-01."
    edited = whole.content_markdown.replace(
        "Monthly salary payments.", f"Monthly salary payments.\n\n{marker}"
    )
    assert edited != whole.content_markdown
    _edit(dpo, whole, edited)
    with django_capture_on_commit_callbacks(execute=True):
        added = ProcessingActivity.objects.create(
            organization=dpo.organization, name="CCTV", purposes=["Securing the premises"]
        )
        record_change(entry=added, actor=ACTOR, action="created")
    response = dpo.client.post(f"{URL}/{whole.pk}/refresh")
    assert response.status_code == 200, response.content
    markdown = response.json()["content"]["markdown"]
    assert "Processing activity: CCTV" in markdown and "Securing the premises" in markdown
    assert marker in markdown
    assert response.json()["refresh"]["changedEntries"] == ["Activity 'CCTV' added"]


def test_refresh_is_for_writers_and_for_documents_from_the_register(dpo, register):
    from_body = create(dpo, "DPIA", processingActivity="Visitor log")
    response = dpo.client.post(f"{URL}/{from_body.pk}/refresh")
    assert response.status_code == 409
    dpia = create(dpo, "DPIA", processingActivityIds=[str(register["payroll"].pk)])
    auditor = make_caller("auditor", organization=dpo.organization)
    assert auditor.client.post(f"{URL}/{dpia.pk}/refresh").status_code == 403
    unchanged = dpo.client.post(f"{URL}/{dpia.pk}/refresh")
    assert unchanged.status_code == 200
    assert unchanged.json()["refresh"]["newVersion"] is False
    assert unchanged.json()["version"] == 1


def test_the_record_exports_as_xlsx_with_one_row_per_activity(dpo, register):
    _save(register["payroll"], name='=HYPERLINK("http://evil")')
    whole = create(dpo, "RECORD_OF_PROCESSING")
    response = dpo.client.get(f"{URL}/{whole.pk}/export", {"format": "xlsx"})
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    workbook = load_workbook(io.BytesIO(response.content))
    record = workbook["Record (Art. 30(1))"]
    rows = list(record.iter_rows(values_only=True))
    assert rows[0][0] == "Processing activity" and rows[0][2] == "(b) Purposes"
    names = [row[0] for row in rows[1:]]
    assert sorted(names) == sorted(
        ["=HYPERLINK(\"http://evil\")", "Customer management", "Newsletter",
         "Client data hosting"]
    )  # fmt: skip
    injected = next(cell for cell in record["A"] if str(cell.value).startswith("="))
    assert injected.data_type == "s"  # text, not a formula
    customers = next(row for row in rows if row[0] == "Customer management")
    assert "Managing customer relationships" in customers[2]
    assert "CRMly Inc." in customers[8]  # (d): the vendor; its country on the Vendors sheet
    assert "Acme GmbH" in customers[1]
    vendors = {row[0]: row for row in workbook["Vendors"].iter_rows(values_only=True)}
    assert vendors["CRMly Inc."][2] == "United States"
    processors = list(workbook["Processors (Art. 30(2))"].iter_rows(values_only=True))
    assert [row[0] for row in processors[1:]] == ["Client data hosting"]
    # PDF and DOCX as before; other types refuse xlsx with a clear 400.
    assert dpo.client.get(f"{URL}/{whole.pk}/export", {"format": "pdf"}).status_code == 200
    assert dpo.client.get(f"{URL}/{whole.pk}/export", {"format": "docx"}).status_code == 200
    dpia = create(dpo, "DPIA", processingActivityIds=[str(register["customers"].pk)])
    refused = dpo.client.get(f"{URL}/{dpia.pk}/export", {"format": "xlsx"})
    assert refused.status_code == 400
    assert "RECORD_OF_PROCESSING" in refused.json()["error"]["message"]


def test_a_control_character_in_an_activity_name_does_not_fail_the_xlsx_export(dpo, register):
    # The register API takes any text but NUL; a spreadsheet cell refuses C0 controls.
    _save(register["payroll"], name="Pay\x01roll\x1b")
    whole = create(dpo, "RECORD_OF_PROCESSING")
    response = dpo.client.get(f"{URL}/{whole.pk}/export", {"format": "xlsx"})
    assert response.status_code == 200, response.content
    record = load_workbook(io.BytesIO(response.content))["Record (Art. 30(1))"]
    assert "Payroll" in [row[0] for row in record.iter_rows(values_only=True)]


def test_a_record_of_one_activity_exports_as_one_row(full_inputs, now):
    from gdpr.composition import compose
    from gdpr.doctypes.registry import get_document_type
    from legal_documents.exports.xlsx import activity_rows

    markdown = compose(
        document_type=get_document_type("RECORD_OF_PROCESSING"),
        inputs=full_inputs["RECORD_OF_PROCESSING"],
        now=now,
    )
    rows, processors = activity_rows(markdown, "Record of Processing Activities")
    assert len(rows) == 1
    assert rows[0][0] == "Customer relationship management"
    assert "Contract management" in rows[0][2]
    assert len(processors) == 1  # the Art. 30(2) statement, as written


def test_a_language_model_provider_leaves_the_whole_register_to_the_rules(now):
    from gdpr.doctypes.registry import get_document_type
    from legal_documents.providers import WritingRequest
    from legal_documents.providers.openai import OpenAIProvider

    request = WritingRequest(
        document_type=get_document_type("RECORD_OF_PROCESSING"),
        inputs={"companyName": "Acme", "registerActivities": [
            {"processingActivity": {"name": "Payroll"}, "purposes": ["Paying salaries"]},
        ]},
        now=now,
    )  # fmt: skip
    # No model is reachable here: any call to it would fail the test.
    provider = OpenAIProvider(model="none", api_key="", base_url="http://127.0.0.1:9", timeout=1)
    markdown = provider.write_document(request)
    assert markdown == request.template_markdown()
    assert "Processing activity: Payroll" in markdown


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_a_translated_register_exports_one_row_per_activity_by_name(full_inputs, now, language):
    from gdpr.composition import compose
    from gdpr.doctypes.registry import get_document_type
    from legal_documents.exports.xlsx import activity_rows

    activity = full_inputs["RECORD_OF_PROCESSING"]
    markdown = compose(
        document_type=get_document_type("RECORD_OF_PROCESSING"),
        inputs={
            "companyName": "Acme",
            "registerActivities": [
                {**activity, "processingActivity": {"name": "Payroll"}},
                {**activity, "processingActivity": {"name": "Newsletter"}},
            ],
        },
        now=now,
        language=language,
    )
    rows, _processors = activity_rows(markdown, "Record of Processing Activities")
    assert [row[0] for row in rows] == ["Payroll", "Newsletter"]
