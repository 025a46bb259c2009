"""A WebSocket test client speaking ASGI to the application, like channels' communicator.

`channels.testing` imports Daphne (its live-server test case) on import; this client needs
only asgiref, so the suite does not depend on an ASGI server it never runs.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote, urlparse

from asgiref.testing import ApplicationCommunicator


class WebsocketClient(ApplicationCommunicator):
    """Connect, receive JSON frames and disconnect through an ASGI application."""

    def __init__(
        self,
        application: Any,
        path: str,
        headers: list | None = None,
        client: tuple[str, int] = ("127.0.0.1", 50000),
    ) -> None:
        parsed = urlparse(path)
        scope = {
            "type": "websocket",
            "path": unquote(parsed.path),
            "query_string": parsed.query.encode(),
            "headers": headers or [],
            "subprotocols": [],
            "client": client,
        }
        super().__init__(application, scope)

    async def connect(self, timeout: float = 5) -> bool:
        """True when the application accepted the handshake."""
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(timeout)
        return response["type"] == "websocket.accept"

    async def close_code(self, timeout: float = 0.5) -> int | None:
        """The code of a close the application sent right away, None if it sent nothing."""
        if await self.receive_nothing(timeout):
            return None
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.close", response
        return response.get("code", 1000)

    async def send_json_to(self, data: Any) -> None:
        await self.send_input({"type": "websocket.receive", "text": json.dumps(data)})

    async def receive_json_from(self, timeout: float = 5) -> Any:
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.send", response
        return json.loads(response["text"])

    async def disconnect(self, code: int = 1000, timeout: float = 5) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(timeout)
