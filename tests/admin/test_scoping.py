"""A DPO of another organization never reaches a document: not by URL, popup or autocomplete."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from legal_documents.models import LegalDocument
from tests.admin.support import change_url, flow_url, status_url
from tests.factories import ClientCompanyFactory

pytestmark = pytest.mark.django_db

AUTOCOMPLETE = "/admin/autocomplete/"


def test_another_organizations_change_page_sends_the_dpo_away(outsider_staff, document):
    response = outsider_staff.client.get(change_url(document))
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")
    assert not AuditEvent.objects.filter(action="document.read", object_id=str(document.pk))


def test_another_organizations_history_status_and_steps_are_not_found(outsider_staff, document):
    history = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    assert outsider_staff.client.get(history).status_code == 404
    assert outsider_staff.client.get(status_url(document)).status_code == 404
    assert outsider_staff.client.post(flow_url(document, "draft")).status_code == 404
    assert LegalDocument.objects.get(pk=document.pk).status == "completed"


def test_the_list_and_its_popup_show_only_the_organizations_documents(
    dpo_staff, outsider_staff, document
):
    changelist = reverse("admin:legal_documents_legaldocument_changelist")
    assert str(document.pk) in dpo_staff.client.get(changelist).content.decode()
    for url in (changelist, f"{changelist}?_popup=1&_to_field=id"):
        assert str(document.pk) not in outsider_staff.client.get(url).content.decode()


def test_autocomplete_never_offers_another_organizations_documents(
    dpo_staff, outsider_staff, document
):
    params = {"app_label": "legal_documents", "model_name": "documentversion",
              "field_name": "document", "term": ""}  # fmt: skip
    own = dpo_staff.client.get(AUTOCOMPLETE, params)
    assert [row["id"] for row in own.json()["results"]] == [str(document.pk)]
    foreign = outsider_staff.client.get(AUTOCOMPLETE, params)
    assert foreign.status_code == 200
    assert foreign.json()["results"] == []


def test_autocomplete_never_offers_another_organizations_client_companies(
    dpo_staff, outsider_staff
):
    company = ClientCompanyFactory(organization=dpo_staff.organization)
    params = {"app_label": "legal_documents", "model_name": "legaldocument",
              "field_name": "client_company", "term": company.name}  # fmt: skip
    assert dpo_staff.client.get(AUTOCOMPLETE, params).json()["results"][0]["id"] == str(company.pk)
    assert outsider_staff.client.get(AUTOCOMPLETE, params).json()["results"] == []


def test_user_autocomplete_is_closed_to_members_so_no_email_leaks(outsider_staff, dpo):
    params = {"app_label": "organizations", "model_name": "membership",
              "field_name": "user", "term": dpo.membership.user.email}  # fmt: skip
    assert outsider_staff.client.get(AUTOCOMPLETE, params).status_code == 403


def test_audit_events_versions_and_packages_of_another_organization_are_not_listed(
    dpo_staff, outsider_staff, document
):
    dpo_staff.client.get(change_url(document))  # one more event in the DPO's organization
    for model in ("audit_auditevent", "legal_documents_documentversion"):
        html = outsider_staff.client.get(reverse(f"admin:{model}_changelist")).content.decode()
        assert str(document.pk) not in html


def test_the_audit_user_filter_offers_only_members_of_the_organization(dpo_staff, outsider_staff):
    html = outsider_staff.client.get(reverse("admin:audit_auditevent_changelist")).content
    assert dpo_staff.membership.user.email not in html.decode()
