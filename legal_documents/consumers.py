"""The WebSocket of one document: `/ws/legal-documents/{id}/` (docs/API.md, WebSocket).

Credentials, in this order: `Authorization: Bearer <key>` or `X-API-Key` header, the
`?api_key=` query parameter, then the Django session (config/asgi.py wraps the routes in
AuthMiddlewareStack). A session is accepted only without an Origin header or from an
allowed host, so another site cannot ride a browser's cookie (cross-site WebSocket
hijacking); API keys are not sent by browsers on their own and need no such check.

Failure behaviour: the handshake is accepted and then closed, because browsers only see a
close code after the accept: 4429 past WEBSOCKET_HANDSHAKE_RATE for the client address
(checked first, before anything is read or written), 4401 without valid credentials, 4404
for an unknown document or one of another organization. Attempts of an authenticated member
are audited as `document.subscribe`; throttled and unauthenticated handshakes are only
counted (`legaldocs_websocket_handshakes_refused_total`), so that an anonymous loop cannot
grow the audit chain.

An open socket is closed with 4401 when the member's access ends (key revoked, user
deactivated, role changed: organizations/events.py): it also joins the groups of its member
and key, which receive `access.ended`.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from common.consumers import ListeningConsumer
from legal_documents.events import document_group
from legal_documents.models import LegalDocument
from organizations.websocket_auth import authorize_subscription
from organizations.websocket_auth import throttle_handshake as _throttle


@database_sync_to_async
def authorize(scope: dict[str, Any], document_id: str) -> int | None:
    """None when the caller may follow the document, else the close code (audited)."""
    return authorize_subscription(
        scope, model=LegalDocument, object_id=document_id, object_type="document"
    )


class DocumentEventsConsumer(ListeningConsumer):
    """Forwards the document group's events as `{"event": NAME, "data": PAYLOAD}` frames."""

    async def authorize(self) -> tuple[str | None, int | None]:
        document_id = str(self.scope["url_route"]["kwargs"]["document_id"])
        refusal = await _throttle(self.scope)
        if refusal is None:
            refusal = await authorize(self.scope, document_id)
        return (None, refusal) if refusal is not None else (document_group(document_id), None)

    document_event = ListeningConsumer.forward_event
