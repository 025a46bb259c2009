"""Zip-bomb guard for Office Open XML files (DOCX, XLSX, PPTX are ZIP containers).

Checked before any parser opens the file, from the central directory alone (no member is
decompressed), by every reader of a ZIP-based format: the asset pipeline and the register
import refuse the same containers (the caller gives the bounds, limits.ZipLimits). The
declared sizes are a trustworthy bound: Python's ``zipfile``, which python-docx,
python-pptx and openpyxl all read through, stops a member at its declared ``file_size`` and
fails its CRC check if the stream holds more.
"""

from __future__ import annotations

import zipfile

from formats.limits import ZipLimits
from formats.source import Source, zip_input


class UnsafeArchive(Exception):  # noqa: N818 - caught and re-raised as a typed API error
    """The container is corrupt or would expand beyond the bounds; message says which.

    ``problem`` says which in a few words ("corrupt", "too large when unpacked").
    """

    def __init__(self, message: str, *, problem: str) -> None:
        super().__init__(message)
        self.problem = problem


def check_zip_container(source: Source, *, limits: ZipLimits | None = None) -> None:
    """Raise ``UnsafeArchive`` when the ZIP is unreadable or over any bound; else return.

    Bounds: total declared uncompressed size, member count, and the compression ratio of
    any member over ``limits.ratio_check_min_bytes`` uncompressed. Callers translate the
    error into their own (ExtractionFailed, ConversionFailed, the register's refusal).
    """
    limits = limits or ZipLimits()
    try:
        with zipfile.ZipFile(zip_input(source)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise UnsafeArchive(f"damaged ZIP container: {error}", problem="corrupt") from error
    if len(members) > limits.max_members:
        raise UnsafeArchive(
            f"ZIP container has {len(members)} members (limit {limits.max_members})",
            problem="too many members",
        )
    total = 0
    for member in members:
        total += member.file_size
        if total > limits.max_total_uncompressed:
            raise UnsafeArchive(
                "ZIP container would expand to more than "
                f"{limits.max_total_uncompressed // 2**20} MiB",
                problem="too large when unpacked",
            )
        if member.file_size >= limits.ratio_check_min_bytes:
            ratio = member.file_size / max(member.compress_size, 1)
            if ratio > limits.max_ratio:
                raise UnsafeArchive(
                    f"ZIP member {member.filename!r} has a compression ratio of {ratio:.0f} "
                    f"(limit {limits.max_ratio:.0f}): refusing a likely zip bomb",
                    problem="zip bomb",
                )
