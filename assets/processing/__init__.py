"""Django-free core of asset ingestion: detection, conversion, extraction, chunking,
embedding. Models, storage and the Celery task call these functions.

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
    "FileKind": "assets.processing.datatypes",
    "Segment": "assets.processing.datatypes",
    "detect_file_type": "assets.processing.detection",
    "AssetProcessingError": "assets.processing.errors",
    "ConversionFailed": "assets.processing.errors",
    "EmbeddingProviderUnavailable": "assets.processing.errors",
    "ExtractionFailed": "assets.processing.errors",
    "InvalidFileType": "assets.processing.errors",
    "extract_segments": "assets.processing.extraction",
    "process_file": "assets.processing.pipeline",
    "sha256_of_file": "assets.processing.pipeline",
}

if TYPE_CHECKING:
    from assets.processing.chunking import chunk_segments
    from assets.processing.datatypes import Chunk, EmbeddedChunk, FileKind, Segment
    from assets.processing.detection import detect_file_type
    from assets.processing.errors import (
        AssetProcessingError,
        ConversionFailed,
        EmbeddingProviderUnavailable,
        ExtractionFailed,
        InvalidFileType,
    )
    from assets.processing.extraction import extract_segments
    from assets.processing.pipeline import process_file, sha256_of_file


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
