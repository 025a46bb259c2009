"""Django-free core of asset ingestion: chunking, embedding, and extraction in a bounded
child. Models, storage and the Celery task call these functions. What a file is and how its
text is read (detection, conversion, extraction) is the formats package's; the names below
that come from it are the ones the assets code always imported from here.

The names below are imported on first use (PEP 562): the extraction child process
(isolation.py) imports only what extraction needs, not the chunker's langchain or the
embedding providers, which would add most of a second to every file it reads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "chunk_segments": "assets.processing.chunking",
    "Chunk": "assets.processing.datatypes",
    "EmbeddedChunk": "assets.processing.datatypes",
    "FileKind": "formats.kinds",
    "Segment": "formats.segments",
    "detect_file_type": "formats.detection",
    "AssetProcessingError": "assets.processing.errors",
    "ConversionFailed": "formats.errors",
    "EmbeddingProviderUnavailable": "assets.processing.errors",
    "ExtractionFailed": "formats.errors",
    "InvalidFileType": "formats.errors",
    "extract_segments": "formats.extraction",
    "process_file": "assets.processing.pipeline",
    "sha256_of_file": "assets.processing.pipeline",
}

if TYPE_CHECKING:
    from assets.processing.chunking import chunk_segments
    from assets.processing.datatypes import Chunk, EmbeddedChunk
    from assets.processing.errors import AssetProcessingError, EmbeddingProviderUnavailable
    from assets.processing.pipeline import process_file, sha256_of_file
    from formats.detection import detect_file_type
    from formats.errors import ConversionFailed, ExtractionFailed, InvalidFileType
    from formats.extraction import extract_segments
    from formats.kinds import FileKind
    from formats.segments import Segment


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AssetProcessingError",
    "Chunk",
    "ConversionFailed",
    "EmbeddedChunk",
    "EmbeddingProviderUnavailable",
    "ExtractionFailed",
    "FileKind",
    "InvalidFileType",
    "Segment",
    "chunk_segments",
    "detect_file_type",
    "extract_segments",
    "process_file",
    "sha256_of_file",
]
