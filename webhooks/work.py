"""The webhook delivery attempt as a kind of background work (common.background).

Registered in `WebhooksConfig.ready`: the one sweeper (common.tasks) sends again an attempt
whose task was lost or refused by the broker, requeues one whose worker died mid-request,
and fails one interrupted MAX_ATTEMPTS times or never sent for MAX_QUEUED_SECONDS.
"""

from __future__ import annotations

from django.conf import settings

from common.background.kinds import WorkKind
from webhooks.models import DeliveryStatus, WebhookDelivery

# Claims of one attempt (a worker lost mid-request is one); then the attempt fails.
MAX_ATTEMPTS = 3
# Added to the request timeout: a lease older than both belonged to a worker that died.
GRACE_SECONDS = 60
# An attempt due this long ago and still queued lost its task: sent again (a duplicate is
# harmless, the lease sends each attempt once).
RESEND_AFTER_SECONDS = 120
# A broker down this long fails the attempt: receivers may still take an event a day late
# (they drop duplicates by `webhook-id`), not a week.
MAX_QUEUED_SECONDS = 24 * 3600

END_FAILED = {
    "interrupted": f"The attempt was interrupted {MAX_ATTEMPTS} times.",
    "unsent": "The job queue was unavailable; the event was not sent.",
}


def lease_seconds() -> float:
    """How long an attempt holds its row: the longest a request can take, plus a grace."""
    return float(settings.WEBHOOK_TIMEOUT_SECONDS) + GRACE_SECONDS


def _send(delivery_id: str, countdown: float) -> None:
    from webhooks.tasks import deliver_webhook_task

    deliver_webhook_task.apply_async((delivery_id,), countdown=countdown)


def _end_failed(delivery: WebhookDelivery, reason: str) -> None:
    delivery.status = DeliveryStatus.FAILED
    delivery.error = END_FAILED[reason]
    delivery.save(update_fields=["status", "error"])


KIND = WorkKind(
    name="webhook",
    model=WebhookDelivery,
    send=_send,
    lease_seconds=lambda delivery: lease_seconds(),
    end_failed=_end_failed,
    max_attempts=MAX_ATTEMPTS,
    resend_after_seconds=RESEND_AFTER_SECONDS,
    max_queued_seconds=MAX_QUEUED_SECONDS,
)
