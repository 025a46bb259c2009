"""Writes of webhooks: registering and deleting endpoints, dispatching document events.

Endpoints are created and deleted here only, by the API and by the admin alike, each with
its audit event (`webhook.create`, `webhook.delete`). `dispatch_document_event` is the one
entry point for the document code: call it after the document's transaction has committed.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.services import Actor, record_event
from organizations.models import Organization, Plan
from webhooks import ssrf
from webhooks.endpoint_secrets import generate_secret
from webhooks.events import (
    ASSET_EVENTS,
    DOCUMENT_EVENTS,
    REGISTER_IMPORT_EVENTS,
    WEBHOOK_EVENTS,
    DocumentEventData,
    asset_event_payload,
    document_event_payload,
    register_import_event_payload,
)
from webhooks.exceptions import InvalidEndpoint, PlanRequired
from webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint

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


def dispatch_document_event(
    *,
    document_id: uuid.UUID | str,
    organization_id: uuid.UUID | str,
    event: str,
    data: DocumentEventData | dict[str, Any],
) -> list[WebhookDelivery]:
    """Queue `event` of a document for every active endpoint of the organization that wants it.

    `data` must be JSON-serializable and carry at least `documentType` and `status`. Call it
    after the document's transaction committed (e.g. from `transaction.on_commit`). Creates
    one pending delivery per endpoint, all sharing one event id, and enqueues
    `deliver_webhook_task` on the `webhooks` queue once this function's own rows are
    committed. Nothing is sent for an organization whose plan has no webhooks. Raises
    ValueError for an event name not in `webhooks.events.DOCUMENT_EVENTS` (a programming
    error); never raises because of a receiver.
    """
    if event not in DOCUMENT_EVENTS:
        raise ValueError(f"Unknown webhook event {event!r}; expected one of {DOCUMENT_EVENTS}")

    def payload(now: datetime) -> dict[str, Any]:
        return dict(
            document_event_payload(
                event=event,
                document_id=document_id,
                organization_id=organization_id,
                data=data,
                timestamp=now,
            )
        )

    return _dispatch(organization_id=organization_id, event=event, payload=payload)


def dispatch_asset_event(
    *,
    asset_id: uuid.UUID | str,
    organization_id: uuid.UUID | str,
    event: str,
    data: dict[str, Any],
) -> list[WebhookDelivery]:
    """Queue `asset.completed` or `asset.failed` like `dispatch_document_event` does (after
    the asset's final status committed). `data` carries status, originalFileName, chunkCount
    and, on failure, the error. ValueError for an event not in `ASSET_EVENTS`."""
    if event not in ASSET_EVENTS:
        raise ValueError(f"Unknown webhook event {event!r}; expected one of {ASSET_EVENTS}")

    def payload(now: datetime) -> dict[str, Any]:
        return dict(
            asset_event_payload(
                event=event,
                asset_id=asset_id,
                organization_id=organization_id,
                data=data,
                timestamp=now,
            )
        )

    return _dispatch(organization_id=organization_id, event=event, payload=payload)


def dispatch_register_import_event(
    *,
    import_id: uuid.UUID | str,
    organization_id: uuid.UUID | str,
    event: str,
    data: dict[str, Any],
) -> list[WebhookDelivery]:
    """Queue `register_import.completed` or `.failed` like `dispatch_asset_event` does (after
    the import's final status committed). ValueError for an event not in
    `REGISTER_IMPORT_EVENTS`."""
    if event not in REGISTER_IMPORT_EVENTS:
        raise ValueError(
            f"Unknown webhook event {event!r}; expected one of {REGISTER_IMPORT_EVENTS}"
        )

    def payload(now: datetime) -> dict[str, Any]:
        return register_import_event_payload(
            event=event, import_id=import_id, organization_id=organization_id, data=data,
            timestamp=now,
        )  # fmt: skip

    return _dispatch(organization_id=organization_id, event=event, payload=payload)


def _dispatch(
    *,
    organization_id: uuid.UUID | str,
    event: str,
    payload: Callable[[datetime], dict[str, Any]],
) -> list[WebhookDelivery]:
    """One pending delivery per active endpoint of the organization subscribed to `event`."""
    from webhooks.tasks import enqueue_delivery  # tasks imports delivery, which imports models

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
    body = payload(now)
    event_id = f"msg_{uuid.uuid4().hex}"
    with transaction.atomic():
        deliveries = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(
                endpoint=endpoint,
                event_id=event_id,
                event=event,
                payload=body,
                attempt=1,
                next_attempt_at=now,
            )
            for endpoint in endpoints
        )
        for delivery in deliveries:
            # robust: a broker outage is logged, not raised into the caller; the rows are
            # committed and `webhook_deliveries_requeue_stalled` enqueues them later.
            transaction.on_commit(_enqueue_hook(enqueue_delivery, delivery), robust=True)
    return deliveries


def _enqueue_hook(
    enqueue: Callable[[WebhookDelivery], None], delivery: WebhookDelivery
) -> Callable[[], None]:
    """A commit hook enqueuing one delivery.

    A typed function rather than a lambda; not a `functools.partial`, as Django logs a failed
    robust hook by its `__qualname__`, which a partial lacks.
    """

    def hook() -> None:
        enqueue(delivery)

    return hook


def webhook_deliveries_requeue_stalled(*, limit: int = 500) -> int:
    """Enqueue again the pending attempts whose task was lost; return how many.

    A pending attempt is made within seconds of its `next_attempt_at`. One still pending
    `claim_expiry_seconds()` later, and not claimed by a worker within that time, has no
    task: its enqueue failed (broker down), its message was lost, or its task stopped
    looking after a claim that then expired. Its `next_attempt_at` moves to now, so it is
    enqueued again at most once per claim expiry; a duplicate task is harmless (the claim
    sends each attempt once). An enqueue that fails is logged and left to the next sweep.
    """
    from webhooks.delivery import claim_expiry_seconds
    from webhooks.tasks import enqueue_delivery

    now = timezone.now()
    overdue = now - timedelta(seconds=claim_expiry_seconds())
    with transaction.atomic():
        stalled = list(
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .filter(status=DeliveryStatus.PENDING, next_attempt_at__lt=overdue)
            .filter(Q(started_at__isnull=True) | Q(started_at__lt=overdue))
            .order_by("next_attempt_at")[:limit]
        )
        WebhookDelivery.objects.filter(pk__in=[row.pk for row in stalled]).update(
            next_attempt_at=now
        )
    requeued = 0
    for delivery in stalled:
        try:
            enqueue_delivery(delivery)
        except Exception:
            logger.warning("could not enqueue delivery %s again", delivery.pk, exc_info=True)
            continue
        requeued += 1
    if stalled:
        logger.info("enqueued %s of %s stalled webhook deliveries again", requeued, len(stalled))
    return requeued
