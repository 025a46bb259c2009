"""The admin: endpoints of the staff user's organization, secret shown once, read-only attempts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from audit.models import AuditEvent
from tests.factories import MembershipFactory
from tests.support.second_factor import verified_login
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(dpo) -> Client:  # type: ignore[no-untyped-def]
    """An admin-site session of a staff admin of `dpo`'s organization with webhook rights."""
    membership = MembershipFactory(organization=dpo.organization, role="admin")
    user = membership.user
    user.is_staff = True
    user.save()
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="webhooks"))
    client = Client()
    verified_login(client, user)
    return client


def test_the_admin_lists_only_the_staff_users_organizations_endpoints(staff_client, dpo):
    own = WebhookEndpointFactory(organization=dpo.organization, url="https://own.example.com/h")
    WebhookEndpointFactory(url="https://foreign.example.com/h")
    page = staff_client.get("/admin/webhooks/webhookendpoint/").content.decode()
    assert own.url in page
    assert "foreign.example.com" not in page


def test_creating_an_endpoint_in_the_admin_shows_its_secret_once(staff_client, dpo):
    response = staff_client.post(
        "/admin/webhooks/webhookendpoint/add/",
        {
            "organization": str(dpo.organization.pk),
            "url": "https://admin.example.com/h",
            "events": ["document.created"],
            "is_active": "on",
        },
        follow=True,
    )
    assert response.status_code == 200
    endpoint = WebhookEndpoint.objects.get(url="https://admin.example.com/h")
    assert endpoint.get_secret() in response.content.decode()
    change_page = staff_client.get(f"/admin/webhooks/webhookendpoint/{endpoint.pk}/change/")
    assert endpoint.get_secret() not in change_page.content.decode()


def test_the_admin_refuses_a_private_target(staff_client, dpo, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    response = staff_client.post(
        "/admin/webhooks/webhookendpoint/add/",
        {
            "organization": str(dpo.organization.pk),
            "url": "https://169.254.169.254/latest",
            "events": ["document.created"],
        },
    )
    assert response.status_code == 200
    assert "link-local" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_delivery_attempts_are_read_only_in_the_admin(staff_client, dpo):
    delivery = WebhookDeliveryFactory(
        endpoint=WebhookEndpointFactory(organization=dpo.organization)
    )
    page = staff_client.get(f"/admin/webhooks/webhookdelivery/{delivery.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert staff_client.get("/admin/webhooks/webhookdelivery/add/").status_code == 403


def test_creating_and_deleting_in_the_admin_are_audited_as_via_the_admin(staff_client, dpo):
    staff_client.post(
        "/admin/webhooks/webhookendpoint/add/",
        {
            "organization": str(dpo.organization.pk),
            "url": "https://admin.example.com/h",
            "events": ["document.finalized", "document.created"],
        },
    )
    endpoint = WebhookEndpoint.objects.get(url="https://admin.example.com/h")
    assert endpoint.is_active is False  # the box was left unticked
    staff_client.post(f"/admin/webhooks/webhookendpoint/{endpoint.pk}/delete/", {"post": "yes"})
    assert not WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()

    events = AuditEvent.objects.filter(object_id=str(endpoint.pk)).order_by("id")
    assert [(e.action, e.object_type) for e in events] == [
        ("webhook.create", "webhook"),
        ("webhook.delete", "webhook"),
    ]
    details = {"url": "https://admin.example.com/h", "events": endpoint.events, "via": "admin"}
    assert [e.details for e in events] == [details, details]
    assert sorted(endpoint.events) == ["document.created", "document.finalized"]
    for event in events:
        assert event.organization_id == dpo.organization.pk
        assert event.actor.endswith(" (admin)")
