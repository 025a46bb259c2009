"""ASGI guard bounding request bodies before Django (or DRF) reads them.

Django's ASGI handler reads the whole request body (spooled to disk past
FILE_UPLOAD_MAX_MEMORY_SIZE) before any view or upload handler runs, and DRF then parses
all of it whatever DATA_UPLOAD_MAX_MEMORY_SIZE says (a 110 MB `[{},{},...]` costs gigabytes
of memory to parse). ``RequestBodyLimit`` wraps the HTTP application:

* the asset upload paths (``UPLOAD_PATHS``) accept ASSET_MAX_UPLOAD_BYTES plus the
  multipart margin and answer 413 FILE_TOO_LARGE past it (the upload handler's own checks,
  assets/uploads.py, then apply);
* the register import paths (``IMPORT_PATHS``) accept REGISTER_IMPORT_MAX_BYTES plus the
  multipart margin (the size the import reads) and answer 413 FILE_TOO_LARGE past it;
* every other path accepts MAX_REQUEST_BODY_BYTES and answers 413 PAYLOAD_TOO_LARGE.

A ``Content-Length`` over the bound is refused at once, without reading the body;
otherwise (chunked) the body is counted as it arrives and refused at the first byte past
the bound, never passing the rest to Django.

Wiring (config/asgi.py): ``"http": RequestBodyLimit(django_application)``.
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

# The API's upload endpoint, and the admin's asset form (a file upload too).
UPLOAD_PATHS = ("/api/v1/assets/upload", "/assets/upload", "/admin/assets/asset/add")
# The register import, in the API and the admin (a file upload of its own size).
IMPORT_PATHS = (
    "/api/v1/processing-activities/import",
    "/processing-activities/import",
    "/admin/register/processingactivity/import",
)


class _TooLarge(Exception):  # noqa: N818 - internal signal
    pass


def _bound_for(path: str) -> tuple[int, int, str, str]:
    """(bytes accepted, limit shown, error code, what is too large) for a request path."""
    if path.rstrip("/") in UPLOAD_PATHS:
        limit = int(settings.ASSET_MAX_UPLOAD_BYTES)
        return limit + MULTIPART_OVERHEAD_BYTES, limit, "FILE_TOO_LARGE", "The file"
    if path.rstrip("/") in IMPORT_PATHS:
        limit = int(settings.REGISTER_IMPORT_MAX_BYTES)
        return limit + MULTIPART_OVERHEAD_BYTES, limit, "FILE_TOO_LARGE", "The file"
    limit = int(settings.MAX_REQUEST_BODY_BYTES)
    return limit, limit, "PAYLOAD_TOO_LARGE", "The request body"


class RequestBodyLimit:
    """ASGI middleware bounding the body size of every HTTP request (see module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        accepted, limit, code, subject = _bound_for(scope.get("path", ""))

        async def refuse() -> None:
            await _refuse(send, limit=limit, code=code, subject=subject)

        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > accepted:
            await refuse()
            return
        received = 0
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message.get("type") == "http.request":
                received += len(message.get("body", b""))
                if received > accepted:
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
                await refuse()


async def _refuse(send: Send, *, limit: int, code: str, subject: str) -> None:
    body = json.dumps({"error": {
        "message": f"{subject} is larger than the limit of {limit} bytes.",
        "code": code, "details": {"maxBytes": limit},
    }}).encode()  # fmt: skip
    await send({
        "type": "http.response.start", "status": 413,
        "headers": [(b"content-type", b"application/json"), (b"connection", b"close"),
                    (b"content-length", str(len(body)).encode())],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})
