"""The ingestion pipeline: extract -> chunk -> embed, yielded in batches.

:func:`process_file` is what the Celery task calls after detection; it writes each batch to
the database as it comes, so memory holds one batch of chunks and vectors at a time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from assets.processing.chunking import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, chunk_segments
from assets.processing.datatypes import EmbeddedChunk
from assets.processing.embeddings.base import EmbeddingProvider
from formats.extraction import extract_segments
from formats.kinds import FileKind

HASH_BLOCK_BYTES = 64 * 1024


def process_file(
    path: Path,
    kind: FileKind,
    *,
    embedder: EmbeddingProvider,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    batch_size: int = 32,
) -> Iterator[list[EmbeddedChunk]]:
    """Yield lists of up to ``batch_size`` embedded chunks, in chunk-index order.

    Raises ExtractionFailed / ConversionFailed from extraction (possibly after some
    batches were yielded: the caller must then discard what it wrote for this file), and
    whatever the provider raises (e.g. a network error of the ``openai`` provider, which
    the task may retry). Raises ValueError if a provider returns vectors of the wrong size.
    """
    if batch_size <= 0:
        raise ValueError("batch_size must be positive")
    chunks = chunk_segments(extract_segments(path, kind), size=chunk_size, overlap=chunk_overlap)
    while batch := list(islice(chunks, batch_size)):
        vectors = embedder.embed_documents([chunk.text for chunk in batch])
        if len(vectors) != len(batch) or any(len(v) != embedder.dimensions for v in vectors):
            raise ValueError(
                f"embedding provider {embedder.name!r} returned vectors of the wrong shape"
            )
        yield [
            EmbeddedChunk(chunk.index, chunk.text, chunk.location, vector)
            for chunk, vector in zip(batch, vectors, strict=True)
        ]


def sha256_of_file(path: Path) -> str:
    """Hex SHA-256 of the file, read in 64 KiB blocks (constant memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(HASH_BLOCK_BYTES):
            digest.update(block)
    return digest.hexdigest()
