"""ASGI guard for uploads: refuse oversized bodies before Django reads them.

Django's ASGI handler reads the whole request body (spooled to disk past
FILE_UPLOAD_MAX_MEMORY_SIZE) before any view or upload handler runs, so the upload
handler's checks (assets/uploads.py) would only refuse a 5 GB body after receiving it.
``UploadSizeLimit`` wraps the HTTP application and, for the asset upload paths:

* answers 413 FILE_TOO_LARGE at once when ``Content-Length`` exceeds the bound (plus the
  multipart margin), without reading the body;
* otherwise counts the body as it arrives and answers 413 at the first byte past the
  bound, never passing the rest to Django.

Wiring (config/asgi.py): ``"http": UploadSizeLimit(django_application)``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

from assets.uploads import MULTIPART_OVERHEAD_BYTES

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

UPLOAD_PATHS = ("/api/v1/assets/upload", "/assets/upload")


class _TooLarge(Exception):  # noqa: N818 - internal signal
    pass


class UploadSizeLimit:
    """ASGI middleware bounding the body size of the upload paths (see module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "").rstrip("/")
        if scope.get("type") != "http" or path not in UPLOAD_PATHS:
            await self.app(scope, receive, send)
            return
        limit = int(settings.ASSET_MAX_UPLOAD_BYTES) + MULTIPART_OVERHEAD_BYTES
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(send, settings.ASSET_MAX_UPLOAD_BYTES)
            return
        received = 0
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message.get("type") == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message.get("type") == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if not response_started:
                await _refuse(send, settings.ASSET_MAX_UPLOAD_BYTES)


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps({"error": {
        "message": f"The file is larger than the limit of {limit} bytes.",
        "code": "FILE_TOO_LARGE", "details": {"maxBytes": limit},
    }}).encode()  # fmt: skip
    await send({
        "type": "http.response.start", "status": 413,
        "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                    (b"content-length", str(len(body)).encode())],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})
