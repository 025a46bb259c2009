"""Embedding providers and the factory that builds the configured one."""

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider
from assets.processing.embeddings.factory import (
    LOCAL_MODELS,
    PROVIDER_NAMES,
    get_embedding_provider,
)
from assets.processing.embeddings.hashing import HashingEmbeddingProvider

__all__ = [
    "DEFAULT_DIMENSIONS",
    "LOCAL_MODELS",
    "PROVIDER_NAMES",
    "EmbeddingProvider",
    "HashingEmbeddingProvider",
    "get_embedding_provider",
]
