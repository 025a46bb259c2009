"""The ASGI guard refuses oversized uploads before Django has read the body."""

from __future__ import annotations

import asyncio
import json

from django.core.asgi import get_asgi_application

from assets.asgi import UploadSizeLimit

MIB = 1024 * 1024


def call(scope_headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[dict, int]:
    """Run one request through UploadSizeLimit(Django); return (response, chunks read)."""
    application = UploadSizeLimit(get_asgi_application())
    scope = {"type": "http", "method": "POST", "path": "/api/v1/assets/upload",
             "headers": scope_headers, "query_string": b"", "server": ("testserver", 80),
             "client": ("127.0.0.1", 5000), "scheme": "http", "http_version": "1.1",
             "root_path": "", "asgi": {"version": "3.0"}}  # fmt: skip
    read = 0
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal read
        read += 1
        if read > len(chunks):
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    start = next(message for message in sent if message["type"] == "http.response.start")
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return {"status": start["status"], "json": json.loads(body)}, read


def test_a_declared_length_over_the_limit_is_refused_without_reading_the_body():
    response, read = call([(b"content-length", str(200 * MIB).encode())], [b"x" * 1024])

    assert response["status"] == 413
    assert response["json"]["error"]["code"] == "FILE_TOO_LARGE"
    assert read == 0


def test_a_body_without_length_is_cut_off_at_the_first_chunk_past_the_limit(settings):
    settings.ASSET_MAX_UPLOAD_BYTES = 1 * MIB
    chunks = [b"x" * (256 * 1024)] * 40  # 10 MiB offered

    response, read = call([(b"content-type", b"multipart/form-data; boundary=b")], chunks)

    assert response["status"] == 413
    assert read <= 5  # 1 MiB + the 64 KiB margin: refused on the fifth chunk
