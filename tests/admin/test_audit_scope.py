"""DPOs read the audit events of the documents they see, not the organization's whole trail."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from audit.services import Actor, record_event
from organizations.services import api_key_create
from tests.admin.conftest import other_member

pytestmark = pytest.mark.django_db

URL = "admin:audit_auditevent_changelist"


@pytest.fixture
def organization_events(dpo_staff, document) -> None:  # type: ignore[no-untyped-def]
    """Besides the document's own events: a key issued to a member and a refused login."""
    api_key_create(membership=dpo_staff.membership, actor=Actor(label="boss@example.com"))
    record_event(
        organization=dpo_staff.organization,
        actor=Actor(label="key:abc", ip="203.0.113.9"),
        action="auth.api_key",
        outcome="denied",
        details={"reason": "revoked key"},
    )


def listed(staff) -> list[AuditEvent]:  # type: ignore[no-untyped-def]
    response = staff.client.get(reverse(URL))
    assert response.status_code == 200
    return list(response.context["cl"].queryset)


def test_a_dpo_lists_only_the_audit_events_of_documents(dpo_staff, document, organization_events):
    events = listed(dpo_staff)
    assert events, "the document's own events are listed"
    assert {(event.object_type, event.object_id) for event in events} == {
        ("document", str(document.pk))
    }
    assert not any(event.ip == "203.0.113.9" for event in events)


def test_a_dpo_cannot_open_an_organization_event_by_its_url(dpo_staff, organization_events):
    event = AuditEvent.objects.get(action="api_key.create", actor="boss@example.com")
    url = reverse("admin:audit_auditevent_change", args=[event.pk])
    response = dpo_staff.client.get(url)
    assert response.status_code == 302  # Django's answer for a row outside the queryset
    assert "boss@example.com" not in dpo_staff.client.get(response["Location"]).content.decode()


def test_auditors_and_admins_list_the_whole_trail(
    auditor_staff, dpo_staff, document, organization_events
):
    admin_member = other_member(dpo_staff.organization, "admin")
    trail = set(
        AuditEvent.objects.filter(organization=dpo_staff.organization).values_list("pk", flat=True)
    )
    for staff in (auditor_staff, admin_member):
        assert trail <= {event.pk for event in listed(staff)}
