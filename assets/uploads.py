"""Receiving uploaded files: always on disk, bounded in size, with a safe name.

``BoundedTemporaryFileUploadHandler`` is the only upload handler of the project
(``FILE_UPLOAD_HANDLERS``), so every multipart file (API and admin alike) is written to a
temporary file under ``FILE_UPLOAD_TEMP_DIR`` as it arrives; nothing larger than one
network chunk (64 KiB) is held in memory. It refuses:

* before reading the body, a request whose ``Content-Length`` shows more than
  ``ASSET_MAX_UPLOAD_BYTES`` plus a margin for the multipart framing;
* in any case, the first byte of a file part past ``ASSET_MAX_UPLOAD_BYTES`` (a chunked
  body or a lying ``Content-Length`` cannot get around the bound).

Both raise :class:`FileTooLarge`: 413 ``FILE_TOO_LARGE`` in the API; Django answers 400 to
it outside the API, since it is also a ``SuspiciousOperation``.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import TemporaryFileUploadHandler

from assets.exceptions import FileTooLarge

# Multipart framing around one file part: boundaries, part headers (with a long file name).
MULTIPART_OVERHEAD_BYTES = 64 * 1024
MAX_FILE_NAME_LENGTH = 200
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_RESERVED_CHARACTERS = re.compile(r'[<>:"/\\|?*]')


def max_upload_bytes() -> int:
    return int(settings.ASSET_MAX_UPLOAD_BYTES)


class BoundedTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    """Streams each file part to a temporary file and refuses it past the size bound."""

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],  # noqa: N803 - Django's signature
        content_length: int,
        boundary: bytes,
        encoding: str | None = None,
    ) -> None:
        limit = max_upload_bytes()
        if content_length and content_length > limit + MULTIPART_OVERHEAD_BYTES:
            raise FileTooLarge(limit)
        self.received_bytes = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        self.received_bytes = 0
        super().new_file(*args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received_bytes = getattr(self, "received_bytes", 0) + len(raw_data)
        limit = max_upload_bytes()
        if self.received_bytes > limit:
            # The temporary file is closed (and so deleted) with the request's files; close
            # it now so that the bytes already on disk go at once.
            self.file.close()
            raise FileTooLarge(limit)
        return super().receive_data_chunk(raw_data, start)


def sanitize_file_name(name: str | None) -> str:
    """A display name safe to store and to send back in ``Content-Disposition``.

    Drops any directory part (POSIX or Windows), control characters and characters that are
    reserved on common filesystems, normalises Unicode (NFC), strips leading dots (so no
    ``..`` and no hidden files), and keeps the extension when shortening to 200 characters.
    Never empty: ``"upload"`` when nothing is left.
    """
    raw = unicodedata.normalize("NFC", name or "")
    raw = _CONTROL_CHARACTERS.sub("", raw)
    base = PureWindowsPath(PurePosixPath(raw.replace("\\", "/")).name).name
    base = _RESERVED_CHARACTERS.sub("_", base).strip().lstrip(".").strip()
    if not base:
        return "upload"
    if len(base) > MAX_FILE_NAME_LENGTH:
        suffix = PurePosixPath(base).suffix
        suffix = suffix if len(suffix) <= 16 else ""
        base = base[: MAX_FILE_NAME_LENGTH - len(suffix)] + suffix
    return base
