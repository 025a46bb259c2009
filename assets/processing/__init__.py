"""Django-free core of asset ingestion: detection, conversion, extraction, chunking,
embedding. Models, storage and the Celery task call these functions.
"""

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
