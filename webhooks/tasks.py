"""Celery tasks of webhooks: thin, ids only, routed to the `webhooks` queue.

Only webhook workers consume that queue (CELERY_TASK_ROUTES), so a slow or dead receiver
holds up other deliveries at most, never generation or ingestion.
"""

from __future__ import annotations

from celery import Task, shared_task

from common.tasks import ServiceTask
from webhooks.delivery import webhook_delivery_attempt


@shared_task(base=ServiceTask, bind=True, ignore_result=True, autoretry_for=(), max_retries=3)
def deliver_webhook_task(self: Task, delivery_id: str) -> None:
    """Make one delivery attempt (which queues the next one when it failed and attempts remain).

    Retries of a failed delivery are new tasks for new rows (each attempt is stored), not
    Celery retries of this one: their schedule is a product behaviour (docs/API.md), set by
    settings.WEBHOOK_RETRY_DELAYS_SECONDS, with no jitter. A duplicate of an attempt already
    made (redelivery by the broker) does nothing. Nothing is retried automatically (the
    attempt records its own errors). While another worker holds the attempt's lease (it
    may have died mid-request), the task looks again once that lease has expired
    (ServiceTask), not after a backoff. An attempt whose task is lost or gives up stays
    queued and is sent again by the one sweeper of background work (common.tasks).
    """
    webhook_delivery_attempt(delivery_id=delivery_id)
