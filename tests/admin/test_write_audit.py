"""A write is audited by its service: the API and the admin record the same event, once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from audit.services import Actor
from legal_documents.models import DocumentationPackage
from legal_documents.packages.services import documentation_package_request
from legal_documents.services.manual_edit import legal_document_manual_edit
from tests.admin.support import add_url, flow_url
from tests.legal_documents.history_support import generated_document
from tests.legal_documents.test_api import create

pytestmark = pytest.mark.django_db

URL = "/api/v1/legal-documents"


def _api_step(step: str, body: dict[str, Any] | None = None) -> Callable[..., Any]:
    def write(caller, dpo):  # type: ignore[no-untyped-def]
        document = generated_document(dpo)
        return caller.client.post(f"{URL}/{document.pk}/{step}", body or {}, format="json")

    return write


def _admin_step(step: str, body: dict[str, Any] | None = None) -> Callable[..., Any]:
    def write(staff, dpo):  # type: ignore[no-untyped-def]
        return staff.client.post(flow_url(generated_document(dpo), step), body or {})

    return write


def _from_register(dpo):  # type: ignore[no-untyped-def]
    from register.models import ProcessingActivity
    from tests.legal_documents.test_register_documents import create as create_from
    from tests.legal_documents.test_register_documents import seed_register

    payroll = ProcessingActivity.objects.filter(organization=dpo.organization, name="Payroll")
    if not payroll.exists():
        seed_register(dpo.organization)
    return create_from(dpo, "DPIA", processingActivityIds=[str(payroll.get().pk)])


def _admin_rebuild(staff, dpo):  # type: ignore[no-untyped-def]
    package = DocumentationPackage.objects.create(organization=dpo.organization, filters={})
    changelist = reverse("admin:legal_documents_documentationpackage_changelist")
    return staff.client.post(
        changelist, {"action": "rebuild_selected", "_selected_action": [str(package.pk)]}
    )


# action: (the API's write, the admin's write); each gets the API caller or the staff member.
WRITES: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "document.create": (
        lambda caller, dpo: create(caller),
        lambda staff, dpo: staff.client.post(
            add_url("DPIA"), {"documentType": "DPIA", "companyName": "Acme GmbH"}
        ),
    ),
    "document.answer": (
        _api_step(
            "questionnaire/answers", {"questionId": "retentionApproach", "answer": "Criteria-based"}
        ),
        _admin_step("answers", {"retentionApproach": "Criteria-based"}),
    ),
    "document.draft": (_api_step("draft"), _admin_step("draft")),
    "document.finalize": (_api_step("generate"), _admin_step("finalize")),
    "document.iterate": (
        _api_step("iterate", {"message": "Shorten the introduction."}),
        _admin_step("iterate", {"message": "Shorten the introduction."}),
    ),
    "document.refresh": (
        lambda caller, dpo: caller.client.post(f"{URL}/{_from_register(dpo).pk}/refresh"),
        lambda staff, dpo: staff.client.post(flow_url(_from_register(dpo), "refresh")),
    ),
    "package.create": (
        lambda caller, dpo: caller.client.post("/api/v1/documentation-packages", {}, format="json"),
        _admin_rebuild,
    ),
}


@pytest.mark.parametrize("action", sorted(WRITES))
def test_the_api_and_the_admin_record_one_event_of_the_same_action(dpo, dpo_staff, action):
    api_write, admin_write = WRITES[action]
    for write, channel, actor_suffix in (
        (api_write, dpo, ")"),
        (admin_write, dpo_staff, "(admin)"),
    ):
        before = list(AuditEvent.objects.filter(action=action).values_list("pk", flat=True))
        response = write(channel, dpo)
        assert response.status_code in (200, 201, 202, 302), response.content
        recorded = AuditEvent.objects.filter(action=action).exclude(pk__in=before)
        assert recorded.count() == 1, list(recorded.values("action", "actor", "details"))
        event = recorded.get()
        assert event.outcome == "allowed"
        assert event.actor_user_id == dpo.membership.user_id
        assert event.actor.endswith(actor_suffix)


def test_the_manual_edit_service_records_its_update(dpo):
    document = generated_document(dpo)
    actor = Actor(label="a script", user_id=dpo.membership.user_id)
    result = legal_document_manual_edit(
        document_id=document.pk,
        organization_id=document.organization_id,
        actor=actor,
        markdown=document.content_markdown + "\n\nOne more sentence.",
        change_reason="Typo",
    )
    event = AuditEvent.objects.get(action="document.update", object_id=str(document.pk))
    assert (event.actor, event.details["version"]) == ("a script", result.document.version)
    assert event.details["changeReason"] == "Typo"


def test_the_package_service_records_its_creation(dpo):
    actor = Actor(label="a script", user_id=dpo.membership.user_id)
    package = documentation_package_request(organization=dpo.organization, actor=actor, filters={})
    event = AuditEvent.objects.get(action="package.create", object_id=str(package.pk))
    assert (event.actor, event.details) == ("a script", {"filters": {}})
