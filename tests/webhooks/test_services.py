"""The endpoint services: creation and deletion write their own audit events (API and admin)."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from audit.services import Actor
from organizations.models import Plan
from tests.factories import OrganizationFactory
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.exceptions import InvalidEndpoint, PlanRequired
from webhooks.models import WebhookEndpoint
from webhooks.services import webhook_endpoint_create, webhook_endpoint_delete

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="admin@example.com", ip="192.0.2.7")


def test_a_created_endpoint_is_audited_with_its_url_and_ordered_events():
    organization = OrganizationFactory(plan=Plan.BUSINESS)
    registered = webhook_endpoint_create(
        organization=organization,
        url="https://hooks.example.com/h",
        events=["document.stale", "document.created"],
        actor=ACTOR,
    )
    endpoint = WebhookEndpoint.objects.get(pk=registered.endpoint.pk)
    assert endpoint.is_active is True and endpoint.get_secret() == registered.secret
    event = AuditEvent.objects.get(action="webhook.create")
    assert (event.organization_id, event.object_type, event.object_id) == (
        organization.pk, "webhook", str(endpoint.pk)
    )  # fmt: skip
    assert (event.actor, event.ip) == ("admin@example.com", "192.0.2.7")
    assert event.details == {
        "url": "https://hooks.example.com/h",
        "events": ["document.created", "document.stale"],
    }


def test_the_admin_marks_its_events_and_may_create_an_inactive_endpoint():
    organization = OrganizationFactory(plan=Plan.ENTERPRISE)
    endpoint = webhook_endpoint_create(
        organization=organization, url="https://hooks.example.com/h",
        events=["document.created"], actor=ACTOR, via="admin", is_active=False,
    ).endpoint  # fmt: skip
    endpoint_id = endpoint.pk
    webhook_endpoint_delete(endpoint=endpoint, actor=ACTOR, via="admin")

    assert not WebhookEndpoint.objects.filter(pk=endpoint_id).exists()
    events = AuditEvent.objects.filter(object_id=str(endpoint_id)).order_by("id")
    assert [e.action for e in events] == ["webhook.create", "webhook.delete"]
    details = {"url": "https://hooks.example.com/h", "events": ["document.created"], "via": "admin"}
    assert [e.details for e in events] == [details, details]


def test_a_deletion_through_the_api_is_audited_without_a_marker():
    endpoint = WebhookEndpointFactory(
        organization=OrganizationFactory(plan=Plan.BUSINESS), events=["document.finalized"]
    )
    endpoint_id, organization_id = endpoint.pk, endpoint.organization_id
    webhook_endpoint_delete(endpoint=endpoint, actor=ACTOR)

    event = AuditEvent.objects.get(action="webhook.delete")
    assert (event.organization_id, event.object_id) == (organization_id, str(endpoint_id))
    assert event.details == {"url": endpoint.url, "events": ["document.finalized"]}


@pytest.mark.parametrize(
    ("plan", "events", "error"),
    [
        (Plan.FREE, ["document.created"], PlanRequired),
        (Plan.BUSINESS, ["document.deleted"], InvalidEndpoint),
    ],
)
def test_a_refused_endpoint_is_neither_saved_nor_audited(plan, events, error):
    with pytest.raises(error):
        webhook_endpoint_create(
            organization=OrganizationFactory(plan=plan), url="https://hooks.example.com/h",
            events=events, actor=ACTOR,
        )  # fmt: skip
    assert not WebhookEndpoint.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="webhook.").exists()
