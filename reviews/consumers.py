"""The WebSocket of one review: `/ws/reviews/{id}/` (docs/API.md, Reviews).

Like a document's socket (legal_documents.consumers): the same credentials (header,
`?api_key=`, or a session from an allowed origin), the same handshake throttle (4429), 4401
without valid credentials, 4404 for an unknown review or one of another organization. Attempts
of an authenticated member are audited as `review.subscribe` (a foreign one in the owner's
trail too). Frames: `review-progress`, `review-completed`, `review-failed` (reviews.events).
"""

from __future__ import annotations

import uuid
from typing import Any

from channels.db import database_sync_to_async

from audit.models import Outcome
from audit.services import record_event, record_foreign_attempt
from common.consumers import ListeningConsumer
from common.metrics import count_refused_handshake
from organizations.websocket_auth import CLOSE_UNAUTHENTICATED, Unauthenticated, resolve_caller
from organizations.websocket_auth import throttle_handshake as _throttle
from reviews.events import review_group
from reviews.models import Review

CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def authorize(scope: dict[str, Any], review_id: str) -> int | None:
    """None when the caller may follow the review, else the close code (audited)."""
    try:
        membership, actor = resolve_caller(scope)
    except Unauthenticated:
        count_refused_handshake(reason="unauthenticated")
        return CLOSE_UNAUTHENTICATED
    try:
        uuid.UUID(review_id)
        owner_id = (
            Review.objects.filter(pk=review_id).values_list("organization_id", flat=True).first()
        )
    except ValueError:
        owner_id = None
    found = owner_id == membership.organization_id
    record_event(
        organization=membership.organization,
        actor=actor,
        action="review.subscribe",
        outcome=Outcome.ALLOWED if found else Outcome.DENIED,
        object_type="review",
        object_id=review_id,
        details=None if found else {"reason": "unknown review or of another organization"},
    )
    if owner_id is not None and not found:  # the owner's auditors see the attempt too
        record_foreign_attempt(
            owner_organization_id=owner_id,
            actor=actor,
            action="review.subscribe",
            object_type="review",
            object_id=review_id,
            details={"via": "websocket"},
        )
    return None if found else CLOSE_NOT_FOUND


class ReviewEventsConsumer(ListeningConsumer):
    """Forwards the review group's events as `{"event": NAME, "data": PAYLOAD}` frames."""

    async def authorize(self) -> tuple[str | None, int | None]:
        review_id = str(self.scope["url_route"]["kwargs"]["review_id"])
        refusal = await _throttle(self.scope)
        if refusal is None:
            refusal = await authorize(self.scope, review_id)
        return (None, refusal) if refusal is not None else (review_group(review_id), None)

    review_event = ListeningConsumer.forward_event
