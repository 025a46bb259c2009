"""The accepted formats, by name. What each one is (media types, extensions, signature,
reader, conversion) is declared once, in its module's registration (registry.py)."""

from __future__ import annotations

from enum import StrEnum


class FileKind(StrEnum):
    """An accepted format. ``media_type`` is the canonical media type stored for it."""

    PDF = "pdf"
    DOCX = "docx"
    XLSX = "xlsx"
    # Read by the register import only (formats.ods: rows_only).
    ODS = "ods"
    PPTX = "pptx"
    CSV = "csv"
    TXT = "txt"
    MD = "md"
    HTML = "html"

    @property
    def media_type(self) -> str:
        from formats.registry import format_of

        return format_of(self).media_type

    @property
    def is_text(self) -> bool:
        """Plain-text kinds, read as a character stream (HTML is text but gets converted)."""
        from formats.registry import format_of

        return format_of(self).plain_text
