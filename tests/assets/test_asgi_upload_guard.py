"""The ASGI guard bounds every request body before Django (or DRF) has read it.

Uploads keep their own limit (ASSET_MAX_UPLOAD_BYTES); every other path gets
MAX_REQUEST_BODY_BYTES, because DRF parses the whole body whatever Django's
DATA_UPLOAD_MAX_MEMORY_SIZE says (a 110 MB `[{},{},...]` costs gigabytes to parse).
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.asgi import get_asgi_application

from assets.asgi import RequestBodyLimit

MIB = 1024 * 1024


def call(
    scope_headers: list[tuple[bytes, bytes]],
    chunks: list[bytes],
    *,
    path: str = "/api/v1/assets/upload",
) -> tuple[dict, int]:
    """Run one request through RequestBodyLimit(Django); return (response, chunks read)."""
    application = RequestBodyLimit(get_asgi_application())
    scope = {"type": "http", "method": "POST", "path": path,
             "headers": scope_headers, "query_string": b"", "server": ("testserver", 80),
             "client": ("127.0.0.1", 5000), "scheme": "http", "http_version": "1.1",
             "root_path": "", "asgi": {"version": "3.0"}}  # fmt: skip
    read = 0
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal read
        read += 1
        if read > len(chunks):
            # The client waits for its answer; Django listens for a disconnect meanwhile.
            await asyncio.sleep(30)
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


JSON_HEADERS = [(b"content-type", b"application/json")]


def test_a_json_body_declared_over_the_limit_is_refused_before_it_is_read(settings):
    settings.MAX_REQUEST_BODY_BYTES = 2 * MIB
    headers = [*JSON_HEADERS, (b"content-length", str(110 * MIB).encode())]

    response, read = call(headers, [b"[{}," * 1024], path="/api/v1/legal-documents")

    assert response["status"] == 413
    assert response["json"] == {
        "error": {
            "message": "The request body is larger than the limit of 2097152 bytes.",
            "code": "PAYLOAD_TOO_LARGE",
            "details": {"maxBytes": 2 * MIB},
        }
    }
    assert read == 0


def test_a_chunked_json_body_is_cut_off_at_the_first_chunk_past_the_limit(settings):
    settings.MAX_REQUEST_BODY_BYTES = 1 * MIB
    chunks = [b"{}," * (256 * 1024 // 3)] * 40  # ~10 MiB of `[{},{},...]` offered

    response, read = call(JSON_HEADERS, chunks, path="/legal-documents")

    assert response["status"] == 413
    assert response["json"]["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert read <= 5


def test_a_body_under_the_limit_still_reaches_the_view(settings):
    settings.MAX_REQUEST_BODY_BYTES = 1 * MIB
    body = json.dumps({"documentType": "DPIA"}).encode()
    headers = [*JSON_HEADERS, (b"content-length", str(len(body)).encode())]

    response, _ = call(headers, [body], path="/api/v1/legal-documents")

    assert response["status"] == 401  # no credentials: the view saw the request


def test_the_upload_paths_keep_their_larger_limit(settings):
    settings.MAX_REQUEST_BODY_BYTES = 1 * MIB
    settings.ASSET_MAX_UPLOAD_BYTES = 8 * MIB
    chunks = [b"x" * (256 * 1024)] * 12  # 3 MiB: over the JSON bound, under the upload one

    for path in ("/api/v1/assets/upload", "/assets/upload/"):
        response, read = call(
            [(b"content-type", b"multipart/form-data; boundary=b")], chunks, path=path
        )
        assert response["status"] == 401, path  # read through, then refused for credentials
        assert read >= len(chunks), path


def test_a_register_import_takes_the_file_size_the_import_reads_not_the_json_limit(settings):
    # The import read files of 10 MiB while its route refused any body past 2 MiB (issue 25,
    # item 14): a 5 MiB register is now read (here: refused only for want of credentials).
    settings.MAX_REQUEST_BODY_BYTES = 2 * MIB
    headers = [(b"content-type", b"multipart/form-data; boundary=b"),
               (b"content-length", str(5 * MIB).encode())]  # fmt: skip
    for path in ("/api/v1/processing-activities/import", "/processing-activities/import/"):
        response, _ = call(headers, [b"x" * (256 * 1024)] * 20, path=path)

        assert response["status"] == 401, response


def test_a_register_import_past_its_limit_is_refused_as_a_file_too_large(settings):
    declared = str(settings.REGISTER_IMPORT_MAX_BYTES + MIB).encode()
    headers = [(b"content-type", b"multipart/form-data; boundary=b"),
               (b"content-length", declared)]  # fmt: skip

    response, read = call(headers, [b"x"], path="/api/v1/processing-activities/import")

    assert response["status"] == 413
    assert response["json"]["error"]["code"] == "FILE_TOO_LARGE"
    assert response["json"]["error"]["details"]["maxBytes"] == settings.REGISTER_IMPORT_MAX_BYTES
    assert read == 0


def test_the_import_route_limit_is_the_size_the_import_reads(settings):
    # One setting moves both bounds: a file the route lets through is never refused by the
    # reader for its size, and one over it is refused by both.
    from register.importing.errors import RegisterFileTooLarge
    from register.importing.reading import read_register_file

    settings.REGISTER_IMPORT_MAX_BYTES = 2048
    content = b"Name;Purpose\n" + b"Payroll;Pay\n" * 150

    assert len(content) <= 2048
    assert read_register_file(content=content, file_name="register.csv")
    with pytest.raises(RegisterFileTooLarge):
        read_register_file(content=content + b"x" * 2048, file_name="register.csv")
