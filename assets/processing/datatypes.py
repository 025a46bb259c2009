"""Value types shared by the processing modules (plain dataclasses, no Django)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class FileKind(StrEnum):
    """An accepted asset format. ``media_type`` is the canonical media type stored for it."""

    PDF = "pdf"
    DOCX = "docx"
    XLSX = "xlsx"
    PPTX = "pptx"
    CSV = "csv"
    TXT = "txt"
    MD = "md"
    HTML = "html"

    @property
    def media_type(self) -> str:
        return _MEDIA_TYPES[self]

    @property
    def is_text(self) -> bool:
        """Plain-text kinds, read as a character stream (HTML is text but gets converted)."""
        return self in (FileKind.CSV, FileKind.TXT, FileKind.MD)


_MEDIA_TYPES: dict[FileKind, str] = {
    FileKind.PDF: "application/pdf",
    FileKind.DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    FileKind.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    FileKind.PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    FileKind.CSV: "text/csv",
    FileKind.TXT: "text/plain",
    FileKind.MD: "text/markdown",
    FileKind.HTML: "text/html",
}


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of extracted text and where it came from ("page 3", "sheet Revenue", or None).

    Consecutive segments with the same location are one continuous text: extractors end a
    segment at a natural boundary (newline) so that joining them needs no separator.
    """

    text: str
    location: str | None = None


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of text sized for embedding; ``index`` counts from 0 within one file."""

    index: int
    text: str
    location: str | None


@dataclass(frozen=True, slots=True)
class EmbeddedChunk:
    """A chunk with its embedding vector (length = the provider's ``dimensions``)."""

    index: int
    text: str
    location: str | None
    embedding: list[float]
