"""Writes of webhooks: registering and deleting endpoints, queuing events.

Endpoints are created and deleted here only, by the API and by the admin alike, each with
its audit event (`webhook.create`, `webhook.delete`). `queue_event` is the one entry point
of every app that emits an event (documents, assets, register imports): it queues the event
once the caller's transaction commits, with the one payload (webhooks.events.event_payload).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone

from audit.services import Actor, record_event
from common.background import leases
from organizations.models import Organization, Plan
from webhooks import ssrf
from webhooks.endpoint_secrets import generate_secret
from webhooks.events import WEBHOOK_EVENTS, event_payload
from webhooks.exceptions import InvalidEndpoint, PlanRequired
from webhooks.models import WebhookDelivery, WebhookEndpoint
from webhooks.work import KIND

logger = logging.getLogger(__name__)

PLANS_WITH_WEBHOOKS = frozenset({Plan.BUSINESS, Plan.ENTERPRISE})
# Where an endpoint was created or deleted: the API or the admin site.
Via = Literal["api", "admin"]


@dataclass(frozen=True)
class RegisteredEndpoint:
    endpoint: WebhookEndpoint
    secret: str  # shown once, in the answer to the registration


def organization_has_webhooks(organization: Organization) -> bool:
    return organization.plan in PLANS_WITH_WEBHOOKS


def require_webhooks_plan(organization: Organization) -> None:
    """Raise 403 PLAN_REQUIRED unless the organization's plan includes webhooks."""
    if not organization_has_webhooks(organization):
        raise PlanRequired(plan=organization.plan, required_plans=sorted(PLANS_WITH_WEBHOOKS))


def validate_target(url: str) -> None:
    """Raise 400 VALIDATION_ERROR (details.url) when the SSRF guard refuses `url`."""
    try:
        ssrf.vet_url(url)
    except ssrf.UnsafeTargetError as refusal:
        raise InvalidEndpoint({"url": [str(refusal)]}) from None


def _audit(
    *,
    organization: Organization,
    actor: Actor,
    action: str,
    endpoint_id: uuid.UUID,
    url: str,
    events: list[str],
    via: Via,
) -> None:
    """Record `webhook.<action>`; the admin's events carry `"via": "admin"` in their details,
    the API's no marker (as they always had: older and newer events of a trail read alike)."""
    details: dict[str, Any] = {"url": url, "events": events}
    if via != "api":
        details["via"] = via
    record_event(
        organization=organization,
        actor=actor,
        action=f"webhook.{action}",
        object_type="webhook",
        object_id=endpoint_id,
        details=details,
    )


@transaction.atomic
def webhook_endpoint_create(
    *,
    organization: Organization,
    url: str,
    events: list[str],
    actor: Actor,
    via: Via = "api",
    is_active: bool = True,
) -> RegisteredEndpoint:
    """Register `url` for `events` and audit it (`webhook.create`); the new secret is returned
    once and stored encrypted.

    Raises 403 PLAN_REQUIRED for free organizations, 400 VALIDATION_ERROR for an unknown
    event or a URL the SSRF guard refuses (not https, or not resolving to public addresses);
    then nothing is saved or recorded.
    """
    require_webhooks_plan(organization)
    unknown = sorted(set(events) - set(WEBHOOK_EVENTS))
    if unknown or not events:
        raise InvalidEndpoint(
            {"events": [f"Unknown or missing events: {unknown}; use {WEBHOOK_EVENTS}."]}
        )
    validate_target(url)
    secret = generate_secret()
    endpoint = WebhookEndpoint(
        organization=organization,
        url=url,
        events=[event for event in WEBHOOK_EVENTS if event in events],
        is_active=is_active,
    )
    endpoint.set_secret(secret)
    endpoint.save()
    _audit(
        organization=organization, actor=actor, action="create", endpoint_id=endpoint.pk,
        url=endpoint.url, events=endpoint.events, via=via,
    )  # fmt: skip
    return RegisteredEndpoint(endpoint=endpoint, secret=secret)


@transaction.atomic
def webhook_endpoint_delete(*, endpoint: WebhookEndpoint, actor: Actor, via: Via = "api") -> None:
    """Delete the endpoint and its delivery history and audit it (`webhook.delete`, with the
    URL and events it had); queued attempts then do nothing."""
    endpoint_id, url, events = endpoint.pk, endpoint.url, endpoint.events
    organization = endpoint.organization
    endpoint.delete()
    _audit(
        organization=organization, actor=actor, action="delete", endpoint_id=endpoint_id,
        url=url, events=events, via=via,
    )  # fmt: skip


def queue_event(
    *,
    event: str,
    subject_id: uuid.UUID | str,
    organization_id: uuid.UUID | str,
    data: Mapping[str, Any],
) -> None:
    """Queue `event` for the organization's endpoints once the caller's transaction commits.

    The one way an app emits a webhook event (at once when no transaction is open, e.g. in
    another commit hook). `subject_id` is what the event is about (the document, the asset,
    the register import: its payload key follows the event's name); `data` must be
    JSON-serializable. Best effort: a webhook problem is logged, never raised into the work
    that emitted it. Raises ValueError for an event name not in `WEBHOOK_EVENTS` (a
    programming error), at once.
    """
    _require_known(event)
    frozen = dict(data)

    def emit() -> None:
        try:
            webhook_deliveries_create(
                event=event, subject_id=subject_id, organization_id=organization_id, data=frozen
            )
        except Exception:
            logger.warning("could not queue %s of %s", event, subject_id, exc_info=True)

    transaction.on_commit(emit)


def webhook_deliveries_create(
    *,
    event: str,
    subject_id: uuid.UUID | str,
    organization_id: uuid.UUID | str,
    data: Mapping[str, Any],
) -> list[WebhookDelivery]:
    """One pending delivery per active endpoint of the organization subscribed to `event`.

    All share one event id and the one payload; each is queued (common.background) and its
    `deliver_webhook_task` goes to the `webhooks` queue once committed (a broker refusal is
    logged and the sweeper sends it again). Nothing is sent for an organization whose plan
    has no webhooks. ValueError for an unknown event name.
    """
    _require_known(event)
    organization = Organization.objects.filter(pk=organization_id).first()
    if organization is None or not organization_has_webhooks(organization):
        return []
    endpoints = list(
        WebhookEndpoint.objects.filter(
            organization=organization, is_active=True, events__contains=[event]
        )
    )
    if not endpoints:
        return []
    now = timezone.now()
    body = event_payload(
        event=event, subject_id=subject_id, organization_id=organization_id, data=data,
        timestamp=now,
    )  # fmt: skip
    event_id = f"msg_{uuid.uuid4().hex}"
    deliveries = []
    with transaction.atomic():
        for endpoint in endpoints:
            delivery = WebhookDelivery(
                endpoint=endpoint,
                event_id=event_id,
                event=event,
                payload=body,
                attempt=1,
                next_attempt_at=now,
            )
            leases.queue(KIND, delivery)
            deliveries.append(delivery)
    return deliveries


def _require_known(event: str) -> None:
    if event not in WEBHOOK_EVENTS:
        raise ValueError(f"Unknown webhook event {event!r}; expected one of {WEBHOOK_EVENTS}")
