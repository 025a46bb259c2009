"""What goes out while a review runs: WebSocket frames and webhook events.

Frames (docs/API.md, Reviews) `{"event": "<service>.event.review-progress" |
"<service>.event.review-completed" | "<service>.event.review-failed", "data": {...}}` go to
the review's own group (`/ws/reviews/{id}/`), like a document's frames to its group. The
webhook events `review.completed` / `review.failed` (names in webhooks.events) are queued
with the final status, in its transaction. Best effort: a lost frame or webhook never
fails a review.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from common.channel_groups import send_to_group
from reviews.models import Review, ReviewStatus

logger = logging.getLogger(__name__)

REVIEW_PROGRESS = "review-progress"
REVIEW_COMPLETED = "review-completed"
REVIEW_FAILED = "review-failed"


def review_group(review_id: Any) -> str:
    return f"review.{review_id}"


def event_name(name: str) -> str:
    return f"{settings.EVENTS_SERVICE_NAME}.event.{name}"


def _group_send(review_id: Any, name: str, payload: dict[str, Any]) -> None:
    message = {"type": "review.event", "event": event_name(name), "data": payload}
    try:
        send_to_group(review_group(review_id), message)
    except Exception:
        logger.warning("could not send %s for review %s", name, review_id, exc_info=True)


def send_progress(
    *, review_id: Any, stage: str, items_done: int | None = None, items_total: int | None = None
) -> None:
    """Where the review is: its stage and, while its items are worked on, how many are done."""
    _group_send(
        review_id,
        REVIEW_PROGRESS,
        {
            "reviewId": str(review_id),
            "status": ReviewStatus.PROCESSING.value,
            "stage": stage,
            "itemsDone": items_done,
            "itemsTotal": items_total,
        },
    )


def error_of(review: Review) -> dict[str, Any] | None:
    """The error in the API envelope's shape, when the review failed."""
    if review.status != ReviewStatus.FAILED:
        return None
    return {"code": review.error_code, "message": review.error_message, "details": None}


def announce_final(review: Review) -> None:
    """Once the final status commits: the frame on the review's socket; the webhook event
    is queued in the same transaction (webhooks.services.queue_event sends it on commit)."""
    from webhooks.events import REVIEW_COMPLETED as WEBHOOK_COMPLETED
    from webhooks.events import REVIEW_FAILED as WEBHOOK_FAILED
    from webhooks.services import queue_event

    completed = review.status == ReviewStatus.COMPLETED
    data: dict[str, Any] = {
        "reviewId": str(review.pk),
        "status": review.status,
        "documentType": review.document_type,
        "assetId": str(review.asset_id),
        "vendorId": str(review.vendor_id) if review.vendor_id else None,
        "language": review.language,
    }
    if completed:
        data |= {"verdict": review.verdict, "counts": review.counts}
    else:
        data["error"] = error_of(review)
    queue_event(
        event=WEBHOOK_COMPLETED if completed else WEBHOOK_FAILED,
        subject_id=review.pk,
        organization_id=review.organization_id,
        data=data,
    )
    frame = REVIEW_COMPLETED if completed else REVIEW_FAILED
    transaction.on_commit(lambda: _group_send(review.pk, frame, data))
