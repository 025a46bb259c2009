"""Value types of the pipeline after reading (plain dataclasses, no Django). A file's kind
and its text segments are the formats package's (formats.FileKind, formats.Segment)."""

from __future__ import annotations

from dataclasses import dataclass


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
