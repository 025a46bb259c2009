"""The register in the admin: saved through the services, scoped, read-only for auditors;
the DPO's start page and the consistency report page."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from register.models import ProcessingActivity, Transfer, Vendor
from tests.compliance.register_seed import clean_register
from tests.factories import LegalDocumentFactory, UserFactory
from tests.register.factories import ProcessingActivityFactory, VendorFactory
from tests.support.second_factor import verified_login

pytestmark = pytest.mark.django_db

ACTIVITY_ADD = "admin:register_processingactivity_add"


def activity_form(**fields):
    data = {
        "name": "Recruiting", "reference": "", "description": "", "owner": "HR",
        "role": "controller", "consent_withdrawal": "", "next_review_date": "",
        "purposes": json.dumps(["Hiring"]),
        "legal_bases": json.dumps(["Art. 6(1)(b) steps before a contract"]),
        "data_subjects": json.dumps(["Applicants"]), "data_categories": "[]",
        "special_categories": "[]", "art9_conditions": "[]", "retention": "[]",
        "security_measures": "", "systems": "[]",
        "recipients": json.dumps([{"name": "Job board", "country": "US"}]),
        "joint_controllers": "[]", "dpia_screening": "{}",
    }  # fmt: skip
    data.update(fields)
    return data


def test_a_dpo_adds_an_activity_through_the_services(dpo_staff):
    response = dpo_staff.client.post(reverse(ACTIVITY_ADD), activity_form())

    assert response.status_code == 302, response.content.decode()[:3000]
    activity = ProcessingActivity.objects.get(name="Recruiting")
    assert activity.organization == dpo_staff.organization
    # The text was recognised and kept, the emptied box is an empty list, the recipient in
    # a third country is a transfer with no mechanism, the write is audited (via the admin).
    assert activity.legal_bases == [
        {"code": "contract", "wording": "Art. 6(1)(b) steps before a contract"}
    ]
    assert activity.security_measures == []
    assert Transfer.objects.get(activity=activity).mechanism == ""
    event = AuditEvent.objects.get(action="processing_activity.created")
    assert event.actor.endswith("(admin)")
    assert activity.revision == 2


def test_the_admin_refuses_what_the_api_refuses(dpo_staff):
    ProcessingActivityFactory(organization=dpo_staff.organization, name="Recruiting")

    duplicate = dpo_staff.client.post(reverse(ACTIVITY_ADD), activity_form())
    unrecognised = dpo_staff.client.post(
        reverse(ACTIVITY_ADD), activity_form(name="Other", legal_bases='["we just do"]')
    )

    assert duplicate.status_code == 200 and "already used" in duplicate.content.decode()
    assert unrecognised.status_code == 200 and "Accepted forms" in unrecognised.content.decode()
    assert ProcessingActivity.objects.count() == 1


def test_a_superuser_without_an_organization_is_told_on_the_form_not_given_a_500():
    superuser = UserFactory(is_staff=True, is_superuser=True)
    client = Client(raise_request_exception=False)
    verified_login(client, superuser)

    response = client.post(reverse(ACTIVITY_ADD), activity_form())

    assert response.status_code == 200
    assert "member of its organization" in response.content.decode()
    assert not ProcessingActivity.objects.exists()


def test_a_dpo_is_offered_only_the_vendors_of_their_organization(dpo_staff, outsider_staff):
    VendorFactory(organization=dpo_staff.organization, name="Own vendor")
    VendorFactory(organization=outsider_staff.organization, name="Foreign vendor")

    page = dpo_staff.client.get(reverse(ACTIVITY_ADD)).content.decode()

    assert "Own vendor" in page and "Foreign vendor" not in page


def test_a_superuser_linking_another_organizations_vendor_is_told_on_the_form(dpo_staff):
    superuser = UserFactory(is_staff=True, is_superuser=True)
    client = Client(raise_request_exception=False)
    verified_login(client, superuser)
    activity = ProcessingActivityFactory(organization=dpo_staff.organization, name="Payroll")
    own = VendorFactory(organization=dpo_staff.organization, name="Own vendor")
    foreign = VendorFactory(name="Foreign vendor")
    change = reverse("admin:register_processingactivity_change", args=[activity.pk])

    page = client.get(change).content.decode()
    assert own.name in page and foreign.name not in page
    response = client.post(change, activity_form(name="Payroll", vendors=[str(foreign.pk)]))

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not activity.vendors.exists()


def test_a_vendors_change_moves_its_revision_and_its_transfer(dpo_staff):
    vendor = VendorFactory(organization=dpo_staff.organization, name="Mailer", country="DE")
    url = reverse("admin:register_vendor_change", args=[vendor.pk])
    form = {
        "name": "Mailer", "reference": "", "role": "processor", "services": "", "address": "",
        "country": "US", "dpa_status": "signed", "dpa_signed_on": "", "transfer_mechanism": "",
        "transfer_mechanism_wording": "Standard Contractual Clauses", "sub_processors": "[]",
    }  # fmt: skip

    response = dpo_staff.client.post(url, form)

    assert response.status_code == 302, response.content.decode()[:3000]
    vendor.refresh_from_db()
    assert (vendor.country, vendor.transfer_mechanism) == ("US", "standard-contractual-clauses")
    assert vendor.revision == 2
    assert Transfer.objects.get(vendor=vendor).mechanism == "standard-contractual-clauses"
    history = dpo_staff.client.get(reverse("admin:register_vendor_history", args=[vendor.pk]))
    assert history.status_code == 200


def test_deleting_in_the_admin_goes_through_the_service(dpo_staff):
    vendor = VendorFactory(organization=dpo_staff.organization)
    url = reverse("admin:register_vendor_delete", args=[vendor.pk])

    response = dpo_staff.client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Vendor.objects.filter(pk=vendor.pk).exists()
    assert AuditEvent.objects.filter(action="vendor.deleted", object_id=str(vendor.pk)).exists()


def test_an_auditor_views_but_never_adds(auditor_staff):
    ProcessingActivityFactory(organization=auditor_staff.organization, name="Payroll")
    changelist = reverse("admin:register_processingactivity_changelist")

    assert "Payroll" in auditor_staff.client.get(changelist).content.decode()
    assert auditor_staff.client.get(reverse(ACTIVITY_ADD)).status_code == 403


def test_another_organizations_register_stays_out_of_sight(dpo_staff, outsider_staff):
    activity = ProcessingActivityFactory(organization=dpo_staff.organization, name="Secret")
    changelist = reverse("admin:register_processingactivity_changelist")
    change = reverse("admin:register_processingactivity_change", args=[activity.pk])

    assert "Secret" not in outsider_staff.client.get(changelist).content.decode()
    assert outsider_staff.client.get(change).status_code == 302  # back to the index
    history = reverse("admin:register_processingactivity_history", args=[activity.pk])
    assert outsider_staff.client.get(history).status_code in (302, 404)


def test_the_start_page_shows_the_organizations_figures_only(dpo_staff, outsider_staff):
    organization = dpo_staff.organization
    register = clean_register(organization)
    register["dpia"].delete()  # the CCTV activity now lacks its DPIA (high)
    ProcessingActivityFactory(
        organization=organization, name="Visitor log",
        next_review_date=timezone.now().date() + timedelta(days=12),
    )  # fmt: skip
    LegalDocumentFactory(
        organization=organization, document_type="PRIVACY_POLICY",
        stale_since=timezone.now() - timedelta(days=2),
    )  # fmt: skip
    start = reverse("admin:compliance_start")

    page = dpo_staff.client.get(start).content.decode()
    foreign = outsider_staff.client.get(start).content.decode()

    assert 'data-severity="high"' in page and "dpia-missing" in page
    assert "Visitor log" in page  # a review due in 12 days
    assert "stale since" in page
    assert "h left" in page  # the open breach, discovered 10 h ago
    assert "Visitor log" not in foreign and "dpia-missing" not in foreign
    assert AuditEvent.objects.filter(
        organization=organization, action="register_report.read"
    ).exists()


def test_the_start_page_loads_the_register_once(dpo_staff):
    clean_register(dpo_staff.organization)

    with CaptureQueriesContext(connection) as queries:
        dpo_staff.client.get(reverse("admin:compliance_start"))

    vendor_reads = [
        query["sql"] for query in queries.captured_queries
        if query["sql"].startswith('SELECT "register_vendor"."id"')
    ]  # fmt: skip
    assert len(vendor_reads) == 1, vendor_reads


def test_the_index_links_the_start_page_first(dpo_staff):
    index = dpo_staff.client.get(reverse("admin:index")).content.decode()

    assert index.index(reverse("admin:compliance_start")) < index.index('class="app-')


def test_the_report_page_links_each_object(dpo_staff):
    register = clean_register(dpo_staff.organization)
    register["dpia"].delete()
    cctv = ProcessingActivity.objects.get(name="CCTV")

    page = dpo_staff.client.get(reverse("admin:compliance_register_report")).content.decode()

    assert reverse("admin:register_processingactivity_change", args=[cctv.pk]) in page
    assert "Art. 35(1)" in page


def test_a_bulk_delete_goes_through_the_service_for_each_row(dpo_staff):
    vendors = [VendorFactory(organization=dpo_staff.organization) for _ in range(2)]
    changelist = reverse("admin:register_vendor_changelist")

    dpo_staff.client.post(
        changelist,
        {"action": "delete_selected", "_selected_action": [str(v.pk) for v in vendors],
         "post": "yes"},
    )  # fmt: skip

    assert not Vendor.objects.exists()
    assert AuditEvent.objects.filter(action="vendor.deleted").count() == 2
