"""Auditors review everything read-only: no buttons to change, and a crafted POST is refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from legal_documents.models import DocumentationPackage, LegalDocument
from legal_documents.packages.services import documentation_package_build
from tests.admin.support import add_url, change_url, flow_url

pytestmark = pytest.mark.django_db


def test_an_auditor_sees_documents_without_add_or_step_buttons(auditor_staff, document):
    listing = auditor_staff.client.get(reverse("admin:legal_documents_legaldocument_changelist"))
    assert str(document.pk) in listing.content.decode()
    assert add_url() not in listing.content.decode()
    html = auditor_staff.client.get(change_url(document)).content.decode()
    assert "Regenerate draft" not in html
    assert 'name="_save"' not in html
    assert "Delete" not in html
    assert '<fieldset class="aligned" disabled>' in html  # the questionnaire, read-only


@pytest.mark.parametrize("step", ["answers", "draft", "finalize", "iterate"])
def test_a_crafted_step_post_by_an_auditor_is_refused_and_audited(auditor_staff, document, step):
    response = auditor_staff.client.post(flow_url(document, step), {"message": "x"})
    assert response.status_code == 403
    assert LegalDocument.objects.get(pk=document.pk).version == 1
    event = AuditEvent.objects.get(action=f"document.{step}", outcome="denied")
    assert event.actor_user_id == auditor_staff.membership.user_id


def test_a_crafted_change_or_add_post_by_an_auditor_is_refused(auditor_staff, document):
    assert auditor_staff.client.post(change_url(document), {"status": "failed"}).status_code == 403
    assert auditor_staff.client.post(add_url("DPIA"), {"companyName": "X"}).status_code == 403
    assert LegalDocument.objects.count() == 1


def test_an_auditor_reads_the_history_and_its_diff(auditor_staff, document):
    history = reverse("admin:legal_documents_legaldocument_history", args=[document.pk])
    assert auditor_staff.client.get(history).status_code == 200
    record = document.history.order_by("history_id").first()
    diff = reverse(
        "admin:legal_documents_legaldocument_simple_history", args=[document.pk, record.history_id]
    )
    assert auditor_staff.client.get(diff).status_code == 200
    assert auditor_staff.client.post(diff, {}).status_code == 403
    reads = AuditEvent.objects.filter(action="document.read", details__view="history")
    assert reads.count() == 2


def test_an_auditor_verifies_the_audit_chain_of_the_organization(auditor_staff, document):
    response = auditor_staff.client.get(reverse("admin:audit_auditevent_chain"))
    html = response.content.decode()
    assert response.status_code == 200
    assert auditor_staff.organization.name in html
    assert ">valid<" in html
    assert AuditEvent.objects.filter(action="audit.verify").exists()


def test_audit_events_are_filtered_by_document_user_action_and_outcome(
    auditor_staff, dpo_staff, document
):
    dpo_staff.client.get(change_url(document))
    url = reverse("admin:audit_auditevent_changelist")
    user_id = dpo_staff.membership.user_id
    query = f"?document={document.pk}&actor_user={user_id}&action=document.read&outcome=allowed"
    response = auditor_staff.client.get(url + query)
    events = list(response.context["cl"].result_list)
    assert len(events) == 1
    assert events[0].actor_user_id == user_id


def test_an_auditor_downloads_an_inspection_package_and_the_download_is_audited(
    auditor_staff, document
):
    package = DocumentationPackage.objects.create(organization=auditor_staff.organization)
    documentation_package_build(package_id=str(package.pk))
    url = reverse("admin:legal_documents_documentationpackage_download", args=[package.pk])
    listing = auditor_staff.client.get(
        reverse("admin:legal_documents_documentationpackage_changelist")
    )
    assert url in listing.content.decode()
    response = auditor_staff.client.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content)[:2] == b"PK"
    assert AuditEvent.objects.filter(action="package.download", object_id=str(package.pk))


def test_an_auditor_is_not_offered_the_rebuild_action_and_cannot_post_it(auditor_staff):
    package = DocumentationPackage.objects.create(organization=auditor_staff.organization)
    changelist = reverse("admin:legal_documents_documentationpackage_changelist")
    assert "rebuild_selected" not in auditor_staff.client.get(changelist).content.decode()
    auditor_staff.client.post(
        changelist, {"action": "rebuild_selected", "_selected_action": [str(package.pk)]}
    )
    assert DocumentationPackage.objects.count() == 1
