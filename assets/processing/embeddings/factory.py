"""Build an embedding provider by name ("hashing", "local", "openai")."""

from __future__ import annotations

from typing import Any

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider
from assets.processing.errors import EmbeddingProviderUnavailable

PROVIDER_NAMES = ("hashing", "local", "openai")


def get_embedding_provider(name: str, **settings: Any) -> EmbeddingProvider:
    """Return the provider ``name`` configured with ``settings``.

    Settings: ``dimensions`` (all; default 384 — ``local`` only supports 384); for
    ``openai``: ``model``, ``api_key``, ``base_url``, ``timeout``, ``max_retries``; for
    ``local``: ``model_path``, ``tokenizer_path``, ``threads``, ``inference_batch_size``.
    Heavy dependencies are imported only for the provider asked for. Raises
    EmbeddingProviderUnavailable for an unknown name or when the optional dependencies of
    ``local`` (``pip install '.[local]'``) are missing.
    """
    dimensions = int(settings.pop("dimensions", DEFAULT_DIMENSIONS))
    if name == "hashing":
        from assets.processing.embeddings.hashing import HashingEmbeddingProvider

        return HashingEmbeddingProvider(dimensions=dimensions)
    if name == "local":
        from assets.processing.embeddings.local import LocalEmbeddingProvider

        return LocalEmbeddingProvider(dimensions=dimensions, **settings)
    if name == "openai":
        from assets.processing.embeddings.openai_provider import OpenAIEmbeddingProvider

        return OpenAIEmbeddingProvider(dimensions=dimensions, **settings)
    raise EmbeddingProviderUnavailable(
        f"unknown embedding provider {name!r}; choose one of {', '.join(PROVIDER_NAMES)}"
    )
