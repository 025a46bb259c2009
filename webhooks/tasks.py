"""Celery tasks of webhooks: thin, ids only, routed to the `webhooks` queue.

Only webhook workers consume that queue (CELERY_TASK_ROUTES), so a slow or dead receiver
holds up other deliveries at most, never generation or ingestion.
"""

from __future__ import annotations

from celery import Task, shared_task
from django.utils import timezone

from common.tasks import ServiceTask
from webhooks.delivery import (
    AttemptInProgressError,
    claim_expiry_seconds,
    webhook_delivery_attempt,
)
from webhooks.models import WebhookDelivery
from webhooks.services import webhook_deliveries_requeue_stalled


def enqueue_delivery(delivery: WebhookDelivery, *, countdown: float = 0) -> None:
    deliver_webhook_task.apply_async((str(delivery.pk),), countdown=max(countdown, 0))


@shared_task(base=ServiceTask, bind=True, ignore_result=True, autoretry_for=(), max_retries=3)
def deliver_webhook_task(self: Task, delivery_id: str) -> None:
    """Make one delivery attempt and enqueue the next one when it failed and attempts remain.

    Retries of a failed delivery are new tasks for new rows (each attempt is stored), not
    Celery retries of this one: their schedule is a product behaviour (docs/API.md), set by
    settings.WEBHOOK_RETRY_DELAYS_SECONDS, with no jitter. A duplicate of an attempt already
    made (redelivery by the broker) does nothing. Nothing is retried automatically (the
    attempt records its own errors); the one Celery retry: the attempt is claimed by another
    worker, which may have died mid-request; look again once that claim has expired, not
    after a backoff. An attempt whose task is lost or gives up stays pending and is enqueued
    again by `requeue_stalled_deliveries_task`.
    """
    try:
        next_delivery = webhook_delivery_attempt(delivery_id=delivery_id)
    except AttemptInProgressError as busy:
        raise self.retry(exc=busy, countdown=claim_expiry_seconds()) from None
    if next_delivery is not None:
        enqueue_delivery(next_delivery, countdown=_seconds_until(next_delivery))


def _seconds_until(delivery: WebhookDelivery) -> float:
    if delivery.next_attempt_at is None:
        return 0
    return (delivery.next_attempt_at - timezone.now()).total_seconds()


@shared_task(ignore_result=True)
def requeue_stalled_deliveries_task() -> int:
    """Beat: enqueue again the pending attempts whose task was lost (see the service)."""
    return webhook_deliveries_requeue_stalled()
