"""The register's API: CRUD of activities and vendors, filters, roles, audit, transfers."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from register.models import ProcessingActivity, Transfer, Vendor
from tests.register.factories import ProcessingActivityFactory, VendorFactory

pytestmark = pytest.mark.django_db

ACTIVITIES = "/api/v1/processing-activities"
VENDORS = "/api/v1/vendors"


def payroll(**overrides):
    return {
        "name": "Payroll",
        "reference": "PA-7",
        "purposes": ["Salary payment", {"purpose": "Tax reporting", "legalBasis": "Art. 6(1)(c)"}],
        "legalBases": ["Art. 6(1)(b) employment contract", {"code": "legal-obligation"}],
        "dataSubjects": ["Employees"],
        "dataCategories": ["Bank details", "Sick leave days"],
        "specialCategories": ["Health data (sick leave)"],
        "art9Conditions": ["Art. 9(2)(b) employment and social security law"],
        "retention": [{"category": "Payslips", "period": "10 years"}, "Bank details: 6 months"],
        "recipients": [
            {"name": "Tax office", "role": "public-authority", "country": "DE"},
            {
                "name": "Support desk",
                "role": "processor",
                "country": "India",
                "safeguard": "Standard Contractual Clauses",
            },
        ],
        "dpiaScreening": {"vulnerableSubjects": True, "largeScale": False},
        "nextReviewDate": "2027-03-31",
        **overrides,
    }


def test_a_dpo_creates_an_activity_with_texts_and_objects_recognised_and_kept(dpo):
    response = dpo.client.post(ACTIVITIES, payroll(), format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["legalBases"] == [
        {"code": "contract", "wording": "Art. 6(1)(b) employment contract"},
        {"code": "legal-obligation", "wording": "legal-obligation"},
    ]
    assert body["art9Conditions"] == [
        {"code": "art-9-2-b", "wording": "Art. 9(2)(b) employment and social security law"}
    ]
    assert body["purposes"][1] == {"purpose": "Tax reporting", "legalBasis": "Art. 6(1)(c)"}
    assert body["retention"][0] == {"category": "Payslips", "period": "10 years"}
    assert body["revision"] == 2  # created (1), then the write recorded (record_change)
    # Only the recipient outside the EEA is a transfer, with its mechanism recognised.
    [transfer] = body["transfers"]
    assert (transfer["recipient"], transfer["country"]) == ("Support desk", "India")
    assert transfer["mechanism"] == "standard-contractual-clauses"
    assert transfer["mechanismWording"] == "Standard Contractual Clauses"
    assert body["dpiaScreeningResult"]["required"] is True  # vulnerable + Art. 9 data
    assert AuditEvent.objects.filter(
        action="processing_activity.created", object_id=body["id"]
    ).exists()


def test_a_legal_basis_that_names_nothing_is_refused_with_the_accepted_forms(dpo):
    response = dpo.client.post(
        ACTIVITIES, payroll(legalBases=["because we always did"]), format="json"
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "Accepted forms" in str(error["details"]["legalBases"])


def test_an_art_9_condition_must_cite_one(dpo):
    response = dpo.client.post(ACTIVITIES, payroll(art9Conditions=["consent"]), format="json")

    assert response.status_code == 400
    assert "Art. 9(2)" in str(response.json()["error"]["details"]["art9Conditions"])


def test_a_name_in_use_is_a_conflict(dpo):
    ProcessingActivityFactory(organization=dpo.organization, name="Payroll")

    response = dpo.client.post(ACTIVITIES, payroll(), format="json")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "CONFLICT"


def test_an_update_moves_the_revision_and_keeps_transfers_in_step(dpo):
    created = dpo.client.post(ACTIVITIES, payroll(), format="json").json()

    response = dpo.client.patch(
        f"{ACTIVITIES}/{created['id']}",
        {"recipients": [{"name": "Support desk", "country": "Switzerland"}]},
        format="json",
    )

    assert response.status_code == 200, response.content
    assert response.json()["revision"] == created["revision"] + 1
    # Switzerland is outside the EEA: still a transfer, now with no mechanism identified.
    [transfer] = Transfer.objects.filter(activity_id=created["id"])
    assert (transfer.country, transfer.mechanism) == ("Switzerland", "")
    assert response.json()["legalBases"] == created["legalBases"]  # untouched fields stay


def test_an_update_that_changes_nothing_records_nothing(dpo):
    created = dpo.client.post(ACTIVITIES, payroll(), format="json").json()

    response = dpo.client.patch(
        f"{ACTIVITIES}/{created['id']}", {"reference": "PA-7"}, format="json"
    )

    assert response.json()["revision"] == created["revision"]
    assert not AuditEvent.objects.filter(action="processing_activity.updated").exists()


def test_vendor_links_accept_only_the_organizations_vendors(dpo, outsider):
    own = VendorFactory(organization=dpo.organization)
    foreign = VendorFactory(organization=outsider.organization)

    refused = dpo.client.post(
        ACTIVITIES, payroll(vendorIds=[str(own.pk), str(foreign.pk)]), format="json"
    )
    accepted = dpo.client.post(ACTIVITIES, payroll(vendorIds=[str(own.pk)]), format="json")

    assert refused.status_code == 400
    assert "vendorIds" in refused.json()["error"]["details"]
    assert accepted.status_code == 201
    assert accepted.json()["vendorIds"] == [str(own.pk)]


def test_a_vendor_outside_the_eea_has_a_transfer_with_its_mechanism(dpo):
    response = dpo.client.post(
        VENDORS,
        {"name": "CloudPay Inc.", "country": "US", "role": "processor", "dpaStatus": "signed",
         "transferMechanism": "EU-US Data Privacy Framework (adequacy)",
         "subProcessors": [{"name": "Hosting Ltd", "country": "United Kingdom"}, "Mailer"]},
        format="json",
    )  # fmt: skip

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["transferMechanism"] == "adequacy-decision"
    assert body["transferMechanismWording"] == "EU-US Data Privacy Framework (adequacy)"
    assert body["outsideEea"] is True
    transfers = {(t["recipient"], t["mechanism"]) for t in body["transfers"]}
    # The sub-processor in a third country is an onward transfer, with no mechanism given.
    assert transfers == {("CloudPay Inc.", "adequacy-decision"), ("Hosting Ltd", "")}


def test_a_vendor_mechanism_in_another_language_is_recognised(dpo):
    response = dpo.client.post(
        VENDORS,
        {"name": "CloudPay Inc.", "country": "US", "transferMechanism": "Standardvertragsklauseln"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["transferMechanism"] == "standard-contractual-clauses"
    assert body["transferMechanismWording"] == "Standardvertragsklauseln"
    assert [t["mechanism"] for t in body["transfers"]] == ["standard-contractual-clauses"]


def test_bases_conditions_and_safeguards_in_other_languages_are_recognised(dpo):
    body = payroll(
        legalBases=["Art. 6 Abs. 1 lit. b DSGVO", "intérêt légitime", "obbligo di legge"],
        art9Conditions=["ausdrückliche Einwilligung", "artículo 9, apartado 2, letra h), del RGPD"],
        recipients=[
            {"name": "Support desk", "country": "India", "safeguard": "clausole contrattuali tipo"}
        ],
    )

    response = dpo.client.post(ACTIVITIES, body, format="json")

    assert response.status_code == 201, response.content
    created = response.json()
    assert [entry["code"] for entry in created["legalBases"]] == [
        "contract", "legitimate-interests", "legal-obligation"
    ]  # fmt: skip
    assert [entry["code"] for entry in created["art9Conditions"]] == ["art-9-2-a", "art-9-2-h"]
    [transfer] = created["transfers"]
    assert transfer["mechanism"] == "standard-contractual-clauses"


def test_moving_a_vendor_into_the_eea_removes_its_transfer(dpo):
    vendor = dpo.client.post(VENDORS, {"name": "CloudPay", "country": "US"}, format="json").json()
    assert Transfer.objects.filter(vendor_id=vendor["id"]).count() == 1

    response = dpo.client.patch(f"{VENDORS}/{vendor['id']}", {"country": "Ireland"}, format="json")

    assert response.status_code == 200
    assert response.json()["transfers"] == []
    assert not Transfer.objects.filter(vendor_id=vendor["id"]).exists()


def test_deleting_is_audited_and_takes_the_transfers(dpo):
    vendor = dpo.client.post(VENDORS, {"name": "CloudPay", "country": "US"}, format="json").json()

    response = dpo.client.delete(f"{VENDORS}/{vendor['id']}")

    assert response.status_code == 204
    assert not Vendor.objects.filter(pk=vendor["id"]).exists()
    assert not Transfer.objects.exists()
    assert AuditEvent.objects.filter(action="vendor.deleted", object_id=vendor["id"]).exists()


def test_lists_use_the_envelope_page_and_filter(dpo):
    organization = dpo.organization
    for n in range(3):
        ProcessingActivityFactory(organization=organization, name=f"Marketing {n}")
    ProcessingActivityFactory(
        organization=organization, name="CCTV", role="processor", next_review_date="2026-01-10"
    )
    ProcessingActivityFactory(name="Marketing elsewhere")  # another organization

    page = dpo.client.get(f"{ACTIVITIES}?search=marketing&limit=2").json()
    due = dpo.client.get(f"{ACTIVITIES}?reviewDueBefore=2026-02-01").json()
    processors = dpo.client.get(f"{ACTIVITIES}?role=processor").json()

    assert page["totalCount"] == 3 and page["hasMore"] is True
    assert [a["name"] for a in page["processingActivities"]] == ["Marketing 0", "Marketing 1"]
    assert [a["name"] for a in due["processingActivities"]] == ["CCTV"]
    assert [a["name"] for a in processors["processingActivities"]] == ["CCTV"]


def test_vendor_filters(dpo):
    organization = dpo.organization
    VendorFactory(organization=organization, name="Local", country="DE", dpa_status="signed")
    VendorFactory(organization=organization, name="Far", country="US", dpa_status="none")

    def names(query):
        response = dpo.client.get(f"{VENDORS}?{query}")
        assert response.status_code == 200, response.content
        return [v["name"] for v in response.json()["vendors"]]

    assert names("dpaStatus=none") == ["Far"]
    assert names("country=de") == ["Local"]
    assert names("outsideEea=true") == ["Far"]
    assert names("outsideEea=false") == ["Local"]
    assert dpo.client.get(f"{VENDORS}?dpaStatus=maybe").status_code == 400


def test_auditors_read_but_never_write(dpo, auditor):
    activity = ProcessingActivityFactory(organization=dpo.organization)

    read = auditor.client.get(f"{ACTIVITIES}/{activity.pk}")
    listed = auditor.client.get(ACTIVITIES)
    created = auditor.client.post(ACTIVITIES, payroll(), format="json")
    changed = auditor.client.patch(f"{ACTIVITIES}/{activity.pk}", {"name": "x"}, format="json")
    deleted = auditor.client.delete(f"{VENDORS}/{VendorFactory(organization=dpo.organization).pk}")

    assert (read.status_code, listed.status_code) == (200, 200)
    assert [created.status_code, changed.status_code, deleted.status_code] == [403, 403, 403]
    assert created.json()["error"]["code"] == "PERMISSION_DENIED"
    assert ProcessingActivity.objects.count() == 1


def test_a_read_of_one_entry_is_audited(dpo):
    vendor = VendorFactory(organization=dpo.organization)

    dpo.client.get(f"{VENDORS}/{vendor.pk}")

    assert AuditEvent.objects.filter(action="vendor.read", object_id=str(vendor.pk)).exists()


def test_transfers_are_listed_read_only(dpo):
    dpo.client.post(VENDORS, {"name": "CloudPay", "country": "US"}, format="json")
    dpo.client.post(VENDORS, {"name": "Local", "country": "FR"}, format="json")

    listed = dpo.client.get("/api/v1/transfers?mechanism=none").json()
    posted = dpo.client.post("/api/v1/transfers", {}, format="json")

    assert [t["recipient"] for t in listed["transfers"]] == ["CloudPay"]
    assert posted.status_code == 405


def test_an_id_that_is_not_a_uuid_is_not_taken_for_a_detail_route(dpo):
    # /processing-activities/import belongs to the import: never a lookup of id "import".
    response = dpo.client.get(f"{ACTIVITIES}/import")

    assert response.status_code in (404, 405)
    assert not AuditEvent.objects.filter(action="processing_activity.read").exists()


def test_the_schema_documents_the_register_routes(dpo):
    schema = dpo.client.get("/api/schema/?format=json").json()

    assert "/api/v1/processing-activities/{id}" in schema["paths"]
    assert "/api/v1/vendors" in schema["paths"]
    assert "/api/v1/compliance/register-report" in schema["paths"]
    create = schema["paths"]["/api/v1/processing-activities"]["post"]
    assert create["requestBody"]["content"]["application/json"]["examples"]


def test_a_service_writer_giving_texts_stores_codes_and_wording_too(dpo):
    from audit.services import Actor
    from register import services

    activity = services.activity_create(
        organization=dpo.organization, actor=Actor(label="import"),
        data={"name": "Imported", "legal_bases": ["Einwilligung (Art. 6(1)(a))", "Vertrag"],
              "art9_conditions": ["Art. 9(2)(h)"]},
    )  # fmt: skip

    assert activity.legal_bases == [
        {"code": "consent", "wording": "Einwilligung (Art. 6(1)(a))"},
        {"code": "contract", "wording": "Vertrag"},  # German words name the basis too
    ]
    assert activity.art9_conditions == [{"code": "art-9-2-h", "wording": "Art. 9(2)(h)"}]


def test_a_name_taken_between_the_check_and_the_save_is_a_conflict(dpo, monkeypatch):
    from audit.services import Actor
    from register import services
    from register.exceptions import DuplicateName

    ProcessingActivityFactory(organization=dpo.organization, name="Payroll")
    # As if a concurrent request inserted the name after this one checked it.
    monkeypatch.setattr(services, "_check_name", lambda **kwargs: None)

    with pytest.raises(DuplicateName):
        services.activity_create(
            organization=dpo.organization, actor=Actor(label="t"), data={"name": "Payroll"}
        )
