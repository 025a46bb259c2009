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
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from assets.events import organization_assets_group
from audit.models import Outcome
from audit.services import record_event
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


class AssetEventsConsumer(AsyncJsonWebsocketConsumer):
    """Forwards the organization's asset events as `{"event": NAME, "data": PAYLOAD}`."""

    group_name: str | None = None
    access_groups: tuple[str, ...] = ()

    async def connect(self) -> None:
        group, refusal = None, await throttle_handshake(self.scope)
        if refusal is None:
            group, refusal = await authorize(self.scope)
        await self.accept()
        if refusal is not None or group is None:
            await self.close(code=refusal or CLOSE_UNAUTHENTICATED)
            return
        self.group_name = group
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        self.access_groups = tuple(self.scope.get("access_groups", ()))
        for access_group in self.access_groups:
            await self.channel_layer.group_add(access_group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.group_name is not None:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            self.group_name = None
        for access_group in self.access_groups:
            await self.channel_layer.group_discard(access_group, self.channel_name)
        self.access_groups = ()

    async def access_ended(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen; anything they send is ignored."""

    async def asset_event(self, message: dict[str, Any]) -> None:
        await self.send_json({"event": message["event"], "data": message["data"]})
