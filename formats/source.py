"""What a reader reads: a file on disk (the asset pipeline) or its bytes in memory (the
register import, a few megabytes at most). The rules are the same for both."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO

Source = Path | bytes


def open_binary(source: Source) -> IO[bytes]:
    """A binary handle on the source (close it, or use it in a ``with``)."""
    if isinstance(source, bytes):
        return io.BytesIO(source)
    return source.open("rb")


def read_prefix(source: Source, size: int) -> bytes:
    """The first ``size`` bytes of the source."""
    if isinstance(source, bytes):
        return source[:size]
    with source.open("rb") as handle:
        return handle.read(size)


def zip_input(source: Source) -> Path | IO[bytes]:
    """What ``zipfile.ZipFile`` and openpyxl open: the path, or the bytes as a file."""
    return io.BytesIO(source) if isinstance(source, bytes) else source
