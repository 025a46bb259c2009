"""Build an embedding provider by name ("hashing", "local", "openai")."""

from __future__ import annotations

from typing import Any

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider
from assets.processing.errors import EmbeddingProviderUnavailable

PROVIDER_NAMES = ("hashing", "local", "openai")
LOCAL_MODELS = ("minilm", "e5-small")


def get_embedding_provider(name: str, **settings: Any) -> EmbeddingProvider:
    """Return the provider ``name`` configured with ``settings``.

    Settings: ``dimensions`` (all; default 384 — ``local`` only supports 384); for
    ``openai``: ``model``, ``api_key``, ``base_url``, ``timeout``, ``max_retries``,
    ``request_batch_size``, ``requests_in_flight``, ``encoding_format``; for
    ``local``: ``model`` (``minilm``, the default, or ``e5-small``), ``threads``, and for
    MiniLM ``model_path``, ``tokenizer_path``, ``inference_batch_size``, for e5
    ``engine_path``.
    Heavy dependencies are imported only for the provider asked for. Raises
    EmbeddingProviderUnavailable for an unknown name or when the optional dependencies of
    ``local`` (``pip install '.[local]'``) are missing.
    """
    dimensions = int(settings.pop("dimensions", DEFAULT_DIMENSIONS))
    if name == "hashing":
        from assets.processing.embeddings.hashing import HashingEmbeddingProvider

        return HashingEmbeddingProvider(dimensions=dimensions)
    if name == "local":
        model = settings.pop("model", "minilm")
        if model == "e5-small":
            from assets.processing.embeddings.e5 import E5EmbeddingProvider

            return E5EmbeddingProvider(dimensions=dimensions, **settings)
        if model != "minilm":
            raise EmbeddingProviderUnavailable(
                f"unknown local model {model!r}; choose one of {', '.join(LOCAL_MODELS)}"
            )
        from assets.processing.embeddings.local import LocalEmbeddingProvider

        return LocalEmbeddingProvider(dimensions=dimensions, **settings)
    if name == "openai":
        from assets.processing.embeddings.openai_provider import OpenAIEmbeddingProvider

        return OpenAIEmbeddingProvider(dimensions=dimensions, **settings)
    raise EmbeddingProviderUnavailable(
        f"unknown embedding provider {name!r}; choose one of {', '.join(PROVIDER_NAMES)}"
    )
