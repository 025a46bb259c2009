"""One policy for webhook endpoints, API and admin alike.

Organization admins create and delete endpoints; DPOs and auditors list them and read their
delivery attempts.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from tests.admin.conftest import staff
from tests.admin.support import readable
from tests.conftest import make_caller
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

URL = "/api/v1/webhooks"
ROLES = ["admin", "dpo", "auditor"]
MANAGES = {"admin"}


@pytest.fixture
def endpoint(dpo) -> WebhookEndpoint:  # type: ignore[no-untyped-def]
    """An endpoint of the DPO's (business-plan) organization, with one delivery attempt."""
    endpoint = WebhookEndpointFactory(organization=dpo.organization)
    WebhookDeliveryFactory(endpoint=endpoint)
    return endpoint


@pytest.mark.parametrize("role", ROLES)
def test_every_role_lists_endpoints_and_their_deliveries_through_the_api(dpo, endpoint, role):
    caller = make_caller(role, organization=dpo.organization)
    listed = caller.client.get(URL)
    assert listed.status_code == 200, listed.content
    assert [row["id"] for row in listed.json()["webhooks"]] == [str(endpoint.pk)]
    deliveries = caller.client.get(f"{URL}/{endpoint.pk}/deliveries")
    assert deliveries.status_code == 200, deliveries.content
    assert deliveries.json()["totalCount"] == 1


@pytest.mark.parametrize("role", ROLES)
def test_only_organization_admins_create_endpoints_through_the_api(dpo, role):
    caller = make_caller(role, organization=dpo.organization)
    body = {"url": "https://hooks.example.com/new", "events": ["document.created"]}
    response = caller.client.post(URL, body, format="json")
    expected = 201 if role in MANAGES else 403
    assert response.status_code == expected, response.content
    assert WebhookEndpoint.objects.filter(url=body["url"]).exists() == (role in MANAGES)


@pytest.mark.parametrize("role", ROLES)
def test_only_organization_admins_delete_endpoints_through_the_api(dpo, endpoint, role):
    caller = make_caller(role, organization=dpo.organization)
    response = caller.client.delete(f"{URL}/{endpoint.pk}")
    expected = 204 if role in MANAGES else 403
    assert response.status_code == expected, response.content
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists() == (role not in MANAGES)


@pytest.mark.parametrize("role", ROLES)
def test_every_role_lists_endpoints_and_deliveries_in_the_admin(dpo, endpoint, role):
    member = staff(make_caller(role, organization=dpo.organization))
    endpoints = member.client.get(reverse("admin:webhooks_webhookendpoint_changelist"))
    assert endpoints.status_code == 200
    assert endpoint.url in endpoints.content.decode()
    deliveries = member.client.get(reverse("admin:webhooks_webhookdelivery_changelist"))
    assert deliveries.status_code == 200
    assert [row.endpoint_id for row in deliveries.context["cl"].result_list] == [endpoint.pk]


@pytest.mark.parametrize("role", ROLES)
def test_only_organization_admins_create_endpoints_in_the_admin(dpo, role):
    member = staff(make_caller(role, organization=dpo.organization))
    response = member.client.post(
        reverse("admin:webhooks_webhookendpoint_add"),
        {
            "organization": str(dpo.organization.pk),
            "url": "https://admin-created.example.com/h",
            "events": ["document.created"],
            "is_active": "on",
        },
    )
    created = WebhookEndpoint.objects.filter(url="https://admin-created.example.com/h").exists()
    assert created == (role in MANAGES), response.status_code
    assert AuditEvent.objects.filter(action="webhook.create").exists() == created
    if role not in MANAGES:
        assert response.status_code == 403


@pytest.mark.parametrize("role", ROLES)
def test_only_organization_admins_delete_endpoints_in_the_admin(dpo, endpoint, role):
    member = staff(make_caller(role, organization=dpo.organization))
    response = member.client.post(
        reverse("admin:webhooks_webhookendpoint_delete", args=[endpoint.pk]), {"post": "yes"}
    )
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists() == (role not in MANAGES)
    deleted = AuditEvent.objects.filter(action="webhook.delete", object_id=str(endpoint.pk))
    assert deleted.exists() == (role in MANAGES)
    if role not in MANAGES:
        assert response.status_code == 403


def test_a_new_webhook_secret_is_shown_but_never_set_in_a_cookie(dpo):
    """Shown once on the next page; kept in the session, never in the messages cookie."""
    admin_member = staff(make_caller("admin", organization=dpo.organization))
    response = admin_member.client.post(
        reverse("admin:webhooks_webhookendpoint_add"),
        {
            "organization": str(dpo.organization.pk),
            "url": "https://cookie-check.example.com/h",
            "events": ["document.created"],
            "is_active": "on",
        },
    )
    assert response.status_code == 302, response.content
    secret = WebhookEndpoint.objects.get(url="https://cookie-check.example.com/h").get_secret()
    page = admin_member.client.get(response["Location"])
    assert secret in page.content.decode()
    for morsel in [*response.cookies.values(), *page.cookies.values()]:
        assert secret not in readable(morsel.value), morsel.key
