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

import uuid
from typing import Any

from channels.db import database_sync_to_async

from audit.models import Outcome
from audit.services import record_event, record_foreign_attempt
from common.consumers import ListeningConsumer
from common.metrics import count_refused_handshake
from legal_documents.events import document_group
from legal_documents.models import LegalDocument
from organizations.websocket_auth import (
    CLOSE_UNAUTHENTICATED,
    Unauthenticated,
    resolve_caller,
)
from organizations.websocket_auth import throttle_handshake as _throttle

CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def authorize(scope: dict[str, Any], document_id: str) -> int | None:
    """None when the caller may follow the document, else the close code (audited)."""
    try:
        membership, actor = resolve_caller(scope)
    except Unauthenticated:
        count_refused_handshake(reason="unauthenticated")
        return CLOSE_UNAUTHENTICATED
    try:
        uuid.UUID(document_id)
        owner_id = (
            LegalDocument.objects.filter(pk=document_id)
            .values_list("organization_id", flat=True)
            .first()
        )
    except ValueError:
        owner_id = None
    found = owner_id == membership.organization_id
    record_event(
        organization=membership.organization,
        actor=actor,
        action="document.subscribe",
        outcome=Outcome.ALLOWED if found else Outcome.DENIED,
        object_type="document",
        object_id=document_id,
        details=None if found else {"reason": "unknown document or of another organization"},
    )
    if owner_id is not None and not found:  # the owner's auditors see the attempt too
        record_foreign_attempt(
            owner_organization_id=owner_id,
            actor=actor,
            action="document.subscribe",
            object_type="document",
            object_id=document_id,
            details={"via": "websocket"},
        )
    return None if found else CLOSE_NOT_FOUND


class DocumentEventsConsumer(ListeningConsumer):
    """Forwards the document group's events as `{"event": NAME, "data": PAYLOAD}` frames."""

    async def authorize(self) -> tuple[str | None, int | None]:
        document_id = str(self.scope["url_route"]["kwargs"]["document_id"])
        refusal = await _throttle(self.scope)
        if refusal is None:
            refusal = await authorize(self.scope, document_id)
        return (None, refusal) if refusal is not None else (document_group(document_id), None)

    document_event = ListeningConsumer.forward_event
