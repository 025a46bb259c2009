"""The configured embedding provider, built once per process and configuration."""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings

from assets.processing.embeddings import EmbeddingProvider, get_embedding_provider
from assets.worker import embedding_threads

_lock = threading.Lock()
_cache: dict[tuple[Any, ...], EmbeddingProvider] = {}


def embedding_provider() -> EmbeddingProvider:
    """The provider named by ``EMBEDDING_PROVIDER`` with ``EMBEDDING_DIMENSIONS``.

    Cached per configuration (the local model loads once per worker process; a test that
    overrides the settings gets its own). Raises EmbeddingProviderUnavailable when the
    provider cannot be built (unknown name, missing optional dependencies).
    """
    name = settings.EMBEDDING_PROVIDER
    options: dict[str, Any] = {"dimensions": settings.EMBEDDING_DIMENSIONS}
    if name == "openai":
        options |= {
            "model": settings.EMBEDDING_MODEL,
            "api_key": settings.OPENAI_API_KEY,
            "base_url": settings.OPENAI_BASE_URL,
        }
    if name == "local":  # its threads depend on how many models this worker runs
        options["threads"] = embedding_threads()
    key = (name, *sorted(options.items()))
    with _lock:
        provider = _cache.get(key)
        if provider is None:
            provider = _cache[key] = get_embedding_provider(name, **options)
    return provider
