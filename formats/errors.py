"""Typed failures of reading a file, each carrying the API error code it maps to.

The asset API turns these into the error envelope and the ingestion task stores ``message``
as the asset's ``error``; the register import turns them into its own refusals. Nothing
here imports a framework.
"""

from __future__ import annotations

from typing import Any, ClassVar


class FormatError(Exception):
    """Base class: a file could not be accepted, converted or read."""

    code: ClassVar[str] = "ASSET_PROCESSING_FAILED"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def details(self) -> dict[str, Any] | None:
        """Extra machine-readable details for the error envelope (None when there are none)."""
        return None


class InvalidFileType(FormatError):  # noqa: N818 - name fixed by the API contract
    """The content is not an accepted format, or does not match the declared name/type (415).

    ``damaged`` is true for a ZIP container (what DOCX, XLSX and PPTX are) that cannot even
    be listed: an asset upload refuses it as of no accepted type, the register import as an
    unreadable file.
    """

    code: ClassVar[str] = "INVALID_FILE_TYPE"

    def __init__(self, message: str, *, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


class ExtractionFailed(FormatError):  # noqa: N818 - name fixed by the API contract
    """Text could not be extracted: corrupt, encrypted, oversized container or no text at all."""

    code: ClassVar[str] = "EXTRACTION_FAILED"


class ConversionFailed(ExtractionFailed):
    """XLSX -> CSV or HTML -> text conversion failed (422, details originalFormat/targetFormat).

    A subclass of ExtractionFailed because conversion is the first step of extracting those
    formats: a caller that only cares whether text came out can catch ExtractionFailed.
    """

    code: ClassVar[str] = "CONVERSION_FAILED"

    def __init__(self, message: str, *, original_format: str, target_format: str) -> None:
        super().__init__(message)
        self.original_format = original_format
        self.target_format = target_format

    @property
    def details(self) -> dict[str, Any]:
        return {"originalFormat": self.original_format, "targetFormat": self.target_format}


class RowsRefused(ExtractionFailed):
    """A table (workbook or CSV) cannot be read as rows: ``problem`` says why in a few words
    ("corrupt", "too many rows"); ``limit`` names the bound it passed ("sheets", "cells",
    "text", "rows"), with its ``maximum``, or is None when it is not over a bound."""

    def __init__(
        self, message: str, *, problem: str, limit: str | None = None, maximum: int | None = None
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.limit = limit
        self.maximum = maximum


def text_limit_message(limit: int) -> str:
    """Why a file whose extracted text passed ``limit`` characters failed (for its asset)."""
    return (
        f"The text of the file is longer than {limit:,} characters, the limit for a file of "
        "its size; nothing of it was kept."
    )


def output_limit_message(limit_bytes: int) -> str:
    """Why a file whose extraction wrote ``limit_bytes`` bytes failed (the child's file-size
    bound, which only a defect of the character cap reaches)."""
    return (
        f"The text of the file is larger than {limit_bytes:,} bytes, the limit for a file of "
        "its size; nothing of it was kept."
    )


def short_error(error: BaseException) -> str:
    """The error's message, cut to 300 characters (for a user's error message)."""
    text = str(error) or type(error).__name__
    return text if len(text) <= 300 else text[:297] + "..."
