"""The 100 MiB bound: refused from Content-Length before reading, and at the first byte past
it when streamed, with the process's memory staying low and no temporary file left."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from assets.models import Asset
from tests.assets.conftest import UPLOAD_URL

pytestmark = pytest.mark.django_db
MIB = 1024 * 1024
BOUNDARY = "----bound"


class StreamedBody(io.RawIOBase):
    """A multipart body produced on the fly: ``size`` bytes of text in one file part."""

    def __init__(self, size: int, *, explode_after: int | None = None) -> None:
        self.head = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
        ).encode()
        self.tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.size = size
        self.length = len(self.head) + size + len(self.tail)
        self.position = 0
        self.explode_after = explode_after

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.explode_after is not None and self.position > self.explode_after:
            raise AssertionError("the body was read although Content-Length refused it")
        size = self.length - self.position if size is None or size < 0 else size
        size = min(size, self.length - self.position)
        out = bytearray()
        while len(out) < size:
            offset = self.position + len(out)
            if offset < len(self.head):
                piece = self.head[offset : offset + size - len(out)]
            elif offset < len(self.head) + self.size:
                piece = b"x" * min(size - len(out), len(self.head) + self.size - offset, 64 * 1024)
            else:
                start = offset - len(self.head) - self.size
                piece = self.tail[start : start + size - len(out)]
            out += piece
        self.position += len(out)
        return bytes(out)

    def readline(self, size: int = -1) -> bytes:  # type: ignore[override]
        return self.read(size if size and size > 0 else 64 * 1024)


def post_streamed(caller, body: StreamedBody, content_length: int):  # type: ignore[no-untyped-def]
    """POST the body through Django's full stack without building it in memory."""
    client = Client(HTTP_AUTHORIZATION=f"Bearer {caller.key}")
    environ = client._base_environ(
        PATH_INFO=UPLOAD_URL,
        REQUEST_METHOD="POST",
        CONTENT_TYPE=f"multipart/form-data; boundary={BOUNDARY}",
        CONTENT_LENGTH=str(content_length),
        **{"wsgi.input": body},
    )
    return client.handler(environ)


def temporary_files() -> set[Path]:
    return set(Path(settings.FILE_UPLOAD_TEMP_DIR).glob("*.upload*"))


def test_a_content_length_over_100_mib_is_refused_before_the_body_is_read(dpo):
    body = StreamedBody(200 * MIB, explode_after=0)

    response = post_streamed(dpo, body, body.length)

    assert response.status_code == 413
    assert json.loads(response.content)["error"]["code"] == "FILE_TOO_LARGE"
    assert body.position == 0


def test_a_streamed_file_one_kib_past_100_mib_is_refused_with_low_memory(dpo):
    before = temporary_files()
    body = StreamedBody(settings.ASSET_MAX_UPLOAD_BYTES + 1024)
    tracemalloc.start()
    try:
        response = post_streamed(dpo, body, body.length)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert response.status_code == 413, response.content
    assert json.loads(response.content)["error"]["code"] == "FILE_TOO_LARGE"
    assert peak < 16 * MIB, f"peak Python memory {peak / MIB:.1f} MiB while receiving"
    assert body.position >= settings.ASSET_MAX_UPLOAD_BYTES  # really streamed to the bound
    assert not Asset.objects.exists()
    assert temporary_files() <= before


def test_a_file_of_exactly_the_limit_is_accepted(dpo, settings):
    settings.ASSET_MAX_UPLOAD_BYTES = 2 * MIB
    body = StreamedBody(2 * MIB)

    response = post_streamed(dpo, body, body.length)

    assert response.status_code == 201, response.content
    assert json.loads(response.content)["fileSize"] == 2 * MIB
