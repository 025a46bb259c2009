"""The consistency report: one defect of each kind in a clean register is found, alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from compliance.report import KINDS, register_report
from register import services
from tests.compliance.register_seed import ACTOR, activity, clean_register, vendor
from tests.factories import LegalDocumentFactory

pytestmark = pytest.mark.django_db
REPORT = "/api/v1/compliance/register-report"


def kinds(organization) -> list[str]:
    return [
        item.kind for item in register_report(organization_id=organization.pk, now=timezone.now())
    ]


def only_item(organization, kind: str):
    items = register_report(organization_id=organization.pk, now=timezone.now())
    assert [item.kind for item in items] == [kind]
    return items[0]


def test_a_clean_register_has_nothing_to_report(dpo):
    clean_register(dpo.organization)

    assert kinds(dpo.organization) == []
    body = dpo.client.get(REPORT).json()
    assert body["items"] == [] and body["counts"] == {"high": 0, "medium": 0, "low": 0}


def test_a_processor_with_no_dpa_on_file(dpo):
    clean_register(dpo.organization)
    hosting = vendor(dpo.organization, "Hosting GmbH")
    services.vendor_update(vendor=hosting, actor=ACTOR, data={"dpa_status": "none"})

    item = only_item(dpo.organization, "processor-without-dpa")

    assert (item.severity, item.article) == ("high", "Art. 28(3)")
    assert [o.id for o in item.objects] == [str(hosting.pk)]


def test_a_recipient_outside_the_eea_with_no_transfer_mechanism(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    services.activity_update(
        activity=payroll, actor=ACTOR,
        data={"recipients": [{"name": "Payroll desk", "country": "India"}]},
    )  # fmt: skip

    item = only_item(dpo.organization, "transfer-without-mechanism")

    assert item.article == "Art. 44-46"
    assert [o.type for o in item.objects] == ["transfer", "processing_activity"]
    assert "India" in item.message


def test_a_privacy_policy_whose_retention_differs_from_the_register(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    services.activity_update(
        activity=payroll, actor=ACTOR,
        data={"retention": [{"category": "Payslips", "period": "6 years"}]},
    )  # fmt: skip

    item = only_item(dpo.organization, "privacy-policy-retention-differs")

    assert {o.type for o in item.objects} == {"document", "processing_activity"}
    assert "6 years" in item.message


def test_a_policy_without_content_is_compared_by_its_stored_inputs(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    LegalDocumentFactory(
        organization=dpo.organization, document_type="PRIVACY_POLICY", status="processing",
        content_markdown="", register_sources={"activities": {str(payroll.pk): 1}},
        inputs={"retentionPeriods": [{"category": "Payslips", "period": "3 years"}]},
    )  # fmt: skip

    item = only_item(dpo.organization, "privacy-policy-retention-differs")

    assert "inputs" in item.message


def test_an_activity_whose_screening_requires_a_dpia_it_does_not_have(dpo):
    register = clean_register(dpo.organization)
    register["dpia"].delete()

    item = only_item(dpo.organization, "dpia-missing")

    assert item.article == "Art. 35(1)"
    assert item.objects[0].name == "CCTV"
    assert "Systematic monitoring" in item.message


def test_a_dpia_past_its_review_date(dpo):
    clean_register(dpo.organization)
    cctv = activity(dpo.organization, "CCTV")
    services.activity_update(
        activity=cctv, actor=ACTOR,
        data={"next_review_date": timezone.now().date() - timedelta(days=1)},
    )  # fmt: skip

    item = only_item(dpo.organization, "dpia-review-overdue")

    assert item.article == "Art. 35(11)"
    assert [o.type for o in item.objects] == ["document", "processing_activity"]


def test_the_dpias_own_review_date_wins_over_the_activitys(dpo):
    register = clean_register(dpo.organization)
    register["dpia"].answers = {"nextReviewDate": {"answer": "2020-01-31"}}
    register["dpia"].save()

    item = only_item(dpo.organization, "dpia-review-overdue")

    assert "2020-01-31" in item.message


def test_special_category_data_without_an_art_9_condition(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    services.activity_update(activity=payroll, actor=ACTOR, data={"art9_conditions": []})

    item = only_item(dpo.organization, "special-category-without-condition")

    assert item.article == "Art. 9"
    assert "Health data" in item.message


def test_special_category_data_in_german_without_a_condition_is_reported_like_english(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    services.activity_update(
        activity=payroll, actor=ACTOR,
        data={"art9_conditions": [], "special_categories": [],
              "data_categories": ["Bankverbindung", "Gesundheitsdaten"]},
    )  # fmt: skip

    item = only_item(dpo.organization, "special-category-without-condition")

    assert "Gesundheitsdaten" in item.message


def test_a_data_category_no_concept_names_needs_classification(dpo):
    clean_register(dpo.organization)
    payroll = activity(dpo.organization, "Payroll")
    services.activity_update(
        activity=payroll, actor=ACTOR,
        data={"data_categories": ["Bank details", "Sick leave days", "Xylophon-Notizen"]},
    )  # fmt: skip

    item = only_item(dpo.organization, "data-category-needs-classification")

    assert (item.severity, item.article) == ("medium", "Art. 9(1)")
    assert [o.id for o in item.objects] == [str(payroll.pk)]
    assert "Xylophon-Notizen" in item.message
    body = dpo.client.get(REPORT + "?kind=data-category-needs-classification").json()
    assert [entry["kind"] for entry in body["items"]] == ["data-category-needs-classification"]


def test_consent_without_a_withdrawal_mechanism(dpo):
    clean_register(dpo.organization)
    newsletter = activity(dpo.organization, "Newsletter")
    services.activity_update(activity=newsletter, actor=ACTOR, data={"consent_withdrawal": ""})

    item = only_item(dpo.organization, "consent-without-withdrawal")

    assert item.article == "Art. 7(3)"


def test_a_breach_notification_still_open_past_72_hours(dpo):
    register = clean_register(dpo.organization)
    breach = register["breach"]
    breach.inputs = {
        **breach.inputs,
        "discoveredAt": (timezone.now() - timedelta(hours=80)).isoformat(),
    }
    breach.save()

    item = only_item(dpo.organization, "breach-notification-overdue")

    assert item.article == "Art. 33(1)"
    assert "8 h" in item.message  # 80 h since discovery: 8 h past the 72


def test_a_finalized_breach_notification_is_not_open(dpo):
    register = clean_register(dpo.organization)
    breach = register["breach"]
    breach.inputs = {
        **breach.inputs,
        "discoveredAt": (timezone.now() - timedelta(hours=80)).isoformat(),
    }
    breach.stage = "final"
    breach.save()

    assert kinds(dpo.organization) == []


def test_the_api_lists_every_kind_most_severe_first_and_audits_the_read(dpo, auditor):
    register = clean_register(dpo.organization)
    organization = dpo.organization
    services.vendor_update(
        vendor=vendor(organization, "Hosting GmbH"), actor=ACTOR, data={"dpa_status": "none"}
    )
    services.activity_update(
        activity=activity(organization, "Newsletter"), actor=ACTOR, data={"consent_withdrawal": ""}
    )
    register["dpia"].delete()

    body = auditor.client.get(REPORT).json()
    high = auditor.client.get(f"{REPORT}?severity=high").json()

    assert [item["severity"] for item in body["items"]] == ["high", "high", "medium"]
    assert body["counts"] == {"high": 2, "medium": 1, "low": 0}
    assert {item["kind"] for item in high["items"]} == {"processor-without-dpa", "dpia-missing"}
    first = body["items"][0]
    assert set(first) == {"kind", "severity", "article", "objects", "message", "suggestedAction"}
    assert set(first["objects"][0]) == {"type", "id", "name"}
    assert (
        AuditEvent.objects.filter(organization=organization, action="register_report.read").count()
        == 2
    )


def test_another_organizations_register_is_not_in_the_report(dpo, outsider):
    clean_register(outsider.organization)
    services.vendor_update(
        vendor=vendor(outsider.organization, "Hosting GmbH"), actor=ACTOR,
        data={"dpa_status": "none"},
    )  # fmt: skip

    assert dpo.client.get(REPORT).json()["items"] == []
    assert outsider.client.get(REPORT).json()["totalCount"] == 1


def test_every_kind_has_a_test():
    tested = {
        "processor-without-dpa", "transfer-without-mechanism",
        "privacy-policy-retention-differs", "dpia-missing", "dpia-review-overdue",
        "special-category-without-condition", "consent-without-withdrawal",
        "breach-notification-overdue", "data-category-needs-classification",
        "vendor-dpa-missing-items",  # tests/compliance/test_vendor_dpa_review_finding.py
    }  # fmt: skip
    assert tested == set(KINDS)


def test_an_unknown_filter_value_is_a_validation_error_not_a_server_error(dpo):
    for query in ("severity=urgent", "kind=nonsense", "severity=high&kind=x%00"):
        response = dpo.client.get(f"{REPORT}?{query}")

        assert response.status_code == 400, query
        error = response.json()["error"]
        assert error["code"] == "VALIDATION_ERROR"
        assert set(error["details"]) <= {"severity", "kind"} and error["details"]
    # A blank value (an emptied form field) narrows nothing, as in the admin page.
    assert dpo.client.get(f"{REPORT}?severity=&kind=").status_code == 200
