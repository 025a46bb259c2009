"""Zip-bomb guard for Office Open XML files (DOCX, XLSX, PPTX are ZIP containers).

Checked before any parser opens the file, from the central directory alone (no member is
decompressed). The declared sizes are a trustworthy bound: Python's ``zipfile``, which
python-docx, python-pptx and openpyxl all read through, stops a member at its declared
``file_size`` and fails its CRC check if the stream holds more.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

MAX_TOTAL_UNCOMPRESSED_BYTES = 500 * 1024 * 1024
MAX_MEMBERS = 10_000
# Office XML compresses well (10-30x is common, 100x happens on repetitive sheets); a large
# member beyond 200x is a bomb, not a document.
MAX_COMPRESSION_RATIO = 200
RATIO_CHECK_MIN_BYTES = 10 * 1024 * 1024


class UnsafeArchive(Exception):  # noqa: N818 - caught and re-raised as a typed API error
    """The container is corrupt or would expand beyond the bounds; message says which."""


def check_zip_container(
    path: Path,
    *,
    max_total_uncompressed: int = MAX_TOTAL_UNCOMPRESSED_BYTES,
    max_ratio: float = MAX_COMPRESSION_RATIO,
    max_members: int = MAX_MEMBERS,
) -> None:
    """Raise ``UnsafeArchive`` when the ZIP is unreadable or over any bound; else return.

    Bounds: total declared uncompressed size, member count, and the compression ratio of
    any member over ``RATIO_CHECK_MIN_BYTES`` uncompressed. Callers translate the error
    into ExtractionFailed or ConversionFailed.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise UnsafeArchive(f"damaged ZIP container: {error}") from error
    if len(members) > max_members:
        raise UnsafeArchive(f"ZIP container has {len(members)} members (limit {max_members})")
    total = 0
    for member in members:
        total += member.file_size
        if total > max_total_uncompressed:
            raise UnsafeArchive(
                f"ZIP container would expand to more than {max_total_uncompressed // 2**20} MiB"
            )
        if member.file_size >= RATIO_CHECK_MIN_BYTES:
            ratio = member.file_size / max(member.compress_size, 1)
            if ratio > max_ratio:
                raise UnsafeArchive(
                    f"ZIP member {member.filename!r} has a compression ratio of {ratio:.0f} "
                    f"(limit {max_ratio:.0f}): refusing a likely zip bomb"
                )
