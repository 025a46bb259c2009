"""The listening WebSocket: a socket that joins one group, forwards its events and ignores
what the client sends (`/ws/legal-documents/{id}/`, `/ws/assets/`).

The handshake is always accepted before a refusal, because browsers only see a close code
after the accept. A subclass says who may listen to what (`authorize`: throttling, credentials,
the group); the socket also joins the access groups the credentials brought
(`scope["access_groups"]`: the member's and the key's), and is closed with
CLOSE_UNAUTHENTICATED when those receive `access.ended`. Events arrive as
`{"type": ..., "event": NAME, "data": PAYLOAD}` and leave as `{"event": NAME, "data": PAYLOAD}`;
a subclass names its message type's handler `forward_event` (`document_event = forward_event`).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

# The close code for missing or ended credentials (organizations.websocket_auth uses it too).
CLOSE_UNAUTHENTICATED = 4401


class ListeningConsumer(AsyncJsonWebsocketConsumer):
    group_name: str | None = None
    access_groups: tuple[str, ...] = ()

    async def authorize(self) -> tuple[str | None, int | None]:
        """(the group to join, None) when the caller may listen, else (None, a close code)."""
        raise NotImplementedError

    async def connect(self) -> None:
        group, refusal = await self.authorize()
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
        """The key was revoked, the user deactivated or the role changed: reconnect needed."""
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Clients only listen; anything they send is ignored."""

    async def forward_event(self, message: dict[str, Any]) -> None:
        await self.send_json({"event": message["event"], "data": message["data"]})
