"""The webhook endpoints API: plans, roles, registration, listing, deletion, deliveries."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from organizations.models import Plan, Role
from tests.conftest import make_caller
from tests.factories import OrganizationFactory
from tests.webhooks.factories import WebhookDeliveryFactory, WebhookEndpointFactory
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

URL = "/api/v1/webhooks"


def register(caller, url="https://hooks.example.com/legaldocs", events=None):  # type: ignore[no-untyped-def]
    body = {"url": url, "events": events or ["document.created", "document.finalized"]}
    return caller.client.post(URL, body, format="json")


def test_a_free_organization_gets_plan_required_on_every_webhook_route():
    free = make_caller(Role.ADMIN, organization=OrganizationFactory(plan=Plan.FREE))
    endpoint = WebhookEndpointFactory(organization=free.organization)
    responses = [
        register(free),
        free.client.get(URL),
        free.client.delete(f"{URL}/{endpoint.pk}"),
        free.client.get(f"{URL}/{endpoint.pk}/deliveries"),
    ]
    for response in responses:
        assert response.status_code == 403, response.content
        assert response.json()["error"]["code"] == "PLAN_REQUIRED"
    assert WebhookEndpoint.objects.filter(organization=free.organization).count() == 1


def test_an_enterprise_organization_may_register_webhooks():
    enterprise = make_caller(Role.ADMIN, organization=OrganizationFactory(plan=Plan.ENTERPRISE))
    assert register(enterprise).status_code == 201


def test_registration_returns_the_endpoint_with_its_secret_shown_once(org_admin):
    response = register(org_admin)
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"id", "url", "events", "isActive", "createdAt", "secret"}
    assert body["url"] == "https://hooks.example.com/legaldocs"
    assert body["events"] == ["document.created", "document.finalized"]
    assert body["isActive"] is True
    assert body["secret"].startswith("whsec_")

    listed = org_admin.client.get(URL).json()
    assert listed["totalCount"] == 1
    assert listed["hasMore"] is False
    assert listed["webhooks"][0]["id"] == body["id"]
    assert "secret" not in listed["webhooks"][0]
    assert body["secret"] not in str(listed)


def test_the_secret_is_stored_encrypted_and_still_signs(org_admin):
    secret = register(org_admin).json()["secret"]
    endpoint = WebhookEndpoint.objects.get(organization=org_admin.organization)
    assert secret not in endpoint.secret_encrypted
    assert endpoint.get_secret() == secret


def test_an_admin_may_register_and_an_auditor_may_only_read(org_admin, auditor):
    assert register(org_admin).status_code == 201
    refused = register(auditor)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "PERMISSION_DENIED"
    assert auditor.client.get(URL).json()["totalCount"] == 1


@pytest.mark.parametrize(
    "events",
    [["document.deleted"], ["document.created", "nonsense"], []],
)
def test_unknown_or_missing_events_are_a_validation_error(org_admin, events):
    response = org_admin.client.post(
        URL, {"url": "https://a.example.com/h", "events": events}, "json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "events" in error["details"]


def test_the_list_shows_only_the_callers_organization_newest_first(dpo, outsider):
    WebhookEndpointFactory(organization=outsider.organization)
    older = WebhookEndpointFactory(organization=dpo.organization)
    newer = WebhookEndpointFactory(organization=dpo.organization)
    body = dpo.client.get(URL, {"limit": 1}).json()
    assert body["totalCount"] == 2
    assert body["hasMore"] is True
    assert [item["id"] for item in body["webhooks"]] == [str(newer.pk)]
    assert dpo.client.get(URL, {"offset": 1}).json()["webhooks"][0]["id"] == str(older.pk)


def test_deleting_an_endpoint_removes_it_and_is_audited(org_admin):
    endpoint_id = register(org_admin).json()["id"]
    response = org_admin.client.delete(f"{URL}/{endpoint_id}")
    assert response.status_code == 204
    assert org_admin.client.get(URL).json()["totalCount"] == 0
    actions = set(
        AuditEvent.objects.filter(
            organization=org_admin.organization, object_id=endpoint_id
        ).values_list("action", flat=True)
    )
    assert actions == {"webhook.create", "webhook.delete"}


def test_deliveries_are_listed_newest_first_in_the_envelope(dpo):
    endpoint = WebhookEndpointFactory(organization=dpo.organization)
    first = WebhookDeliveryFactory(endpoint=endpoint, attempt=1, status="retrying",
                                   status_code=500, duration_ms=12, error="HTTP 500")  # fmt: skip
    second = WebhookDeliveryFactory(endpoint=endpoint, event_id=first.event_id, attempt=2,
                                    status="succeeded", status_code=204, duration_ms=8)  # fmt: skip
    WebhookDeliveryFactory()  # another endpoint's

    body = dpo.client.get(f"{URL}/{endpoint.pk}/deliveries").json()
    assert body["totalCount"] == 2
    assert body["hasMore"] is False
    assert [item["id"] for item in body["deliveries"]] == [str(second.pk), str(first.pk)]
    latest = body["deliveries"][0]
    assert set(latest) == {"id", "eventId", "event", "attempt", "status", "statusCode",
                           "durationMs", "error", "createdAt"}  # fmt: skip
    assert latest["eventId"] == first.event_id
    assert (latest["attempt"], latest["status"], latest["statusCode"]) == (2, "succeeded", 204)
    assert body["deliveries"][1]["error"] == "HTTP 500"


def test_another_organizations_webhook_is_not_found(dpo):
    outsider = make_caller(Role.ADMIN)  # an admin: DPOs may not delete anywhere
    endpoint = WebhookEndpointFactory(organization=dpo.organization)
    for response in (
        outsider.client.delete(f"{URL}/{endpoint.pk}"),
        outsider.client.get(f"{URL}/{endpoint.pk}/deliveries"),
    ):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "NOT_FOUND"
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk).exists()


def test_registration_and_deletion_are_audited_with_the_url_and_events(org_admin):
    endpoint_id = register(org_admin).json()["id"]
    org_admin.client.delete(f"{URL}/{endpoint_id}")
    events = AuditEvent.objects.filter(object_id=endpoint_id).order_by("id")
    assert [(e.action, e.object_type, e.outcome) for e in events] == [
        ("webhook.create", "webhook", "allowed"),
        ("webhook.delete", "webhook", "allowed"),
    ]
    details = {"url": "https://hooks.example.com/legaldocs",
               "events": ["document.created", "document.finalized"]}  # fmt: skip
    assert [e.details for e in events] == [details, details]  # no marker through the API
    for event in events:
        assert event.organization_id == org_admin.organization.pk
        assert event.actor.startswith(org_admin.membership.user.email + " (key ")
        assert event.actor_user_id == org_admin.membership.user.pk
