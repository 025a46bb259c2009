"""The WebSocket of one review: `/ws/reviews/{id}/` (docs/API.md, Reviews).

Like a document's socket (legal_documents.consumers): the same credentials (header,
`?api_key=`, or a session from an allowed origin), the same handshake throttle (4429), 4401
without valid credentials, 4404 for an unknown review or one of another organization. Attempts
of an authenticated member are audited as `review.subscribe` (a foreign one in the owner's
trail too). Frames: `review-progress`, `review-completed`, `review-failed` (reviews.events).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from common.consumers import ListeningConsumer
from organizations.websocket_auth import authorize_subscription
from organizations.websocket_auth import throttle_handshake as _throttle
from reviews.events import review_group
from reviews.models import Review


@database_sync_to_async
def authorize(scope: dict[str, Any], review_id: str) -> int | None:
    """None when the caller may follow the review, else the close code (audited)."""
    return authorize_subscription(scope, model=Review, object_id=review_id, object_type="review")


class ReviewEventsConsumer(ListeningConsumer):
    """Forwards the review group's events as `{"event": NAME, "data": PAYLOAD}` frames."""

    async def authorize(self) -> tuple[str | None, int | None]:
        review_id = str(self.scope["url_route"]["kwargs"]["review_id"])
        refusal = await _throttle(self.scope)
        if refusal is None:
            refusal = await authorize(self.scope, review_id)
        return (None, refusal) if refusal is not None else (review_group(review_id), None)

    review_event = ListeningConsumer.forward_event
