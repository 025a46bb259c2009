"""The WebSocket of an organization's assets: `/ws/assets/` (docs/API.md, WebSocket).

Authenticated and throttled like `/ws/legal-documents/{id}/` (organizations.websocket_auth):
the handshake is accepted, then closed with 4429 past WEBSOCKET_HANDSHAKE_RATE, 4401 without
valid credentials. The socket joins the group of the caller's organization and receives
`<service>.event.asset-status` frames while its assets are ingested; it is closed with 4401
when the member's access ends. Subscriptions are audited as `asset.subscribe`.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from assets.events import organization_assets_group
from audit.models import Outcome
from audit.services import record_event
from common.consumers import ListeningConsumer
from common.metrics import count_refused_handshake
from organizations.websocket_auth import (
    CLOSE_UNAUTHENTICATED,
    Unauthenticated,
    resolve_caller,
    throttle_handshake,
)


@database_sync_to_async
def authorize(scope: dict[str, Any]) -> tuple[str | None, int | None]:
    """(the organization's group, None) for a member, else (None, the close code)."""
    try:
        membership, actor = resolve_caller(scope)
    except Unauthenticated:
        count_refused_handshake(reason="unauthenticated")
        return None, CLOSE_UNAUTHENTICATED
    record_event(
        organization=membership.organization,
        actor=actor,
        action="asset.subscribe",
        outcome=Outcome.ALLOWED,
        object_type="organization",
        object_id=str(membership.organization_id),
    )
    return organization_assets_group(membership.organization_id), None


class AssetEventsConsumer(ListeningConsumer):
    """Forwards the organization's asset events as `{"event": NAME, "data": PAYLOAD}`."""

    async def authorize(self) -> tuple[str | None, int | None]:
        refusal = await throttle_handshake(self.scope)
        return (None, refusal) if refusal is not None else await authorize(self.scope)

    asset_event = ListeningConsumer.forward_event
