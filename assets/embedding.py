"""Embedding models: the configured one, the active one, and their providers.

A *model* is one of ``MODELS``: ``hashing``, ``minilm`` and ``e5-small`` (the ``local``
provider's two models, ``EMBEDDING_LOCAL_MODEL``) or ``openai``. The *active* model is the
one that produced ``AssetChunk.embedding``; it is recorded in the database
(``EmbeddingIndex``), because it changes only when a re-embedding completes
(``assets.reembedding``), not when the settings change: ingestion and search queries always
use the active model, so query and chunk vectors are in the same space. The configured model
becomes active by itself only while there are no chunks; otherwise
``manage.py reembed_chunks`` moves the chunks to it.

Providers are built once per process and configuration (the local models load once per
worker process; a test that overrides the settings gets its own).
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from django.conf import settings
from django.db import transaction

from assets.processing.embeddings import LOCAL_MODELS, EmbeddingProvider, get_embedding_provider

logger = logging.getLogger(__name__)

MODELS = ("hashing", *LOCAL_MODELS, "openai")

_lock = threading.Lock()
_cache: dict[tuple[Any, ...], EmbeddingProvider] = {}
_warned: set[tuple[str, str]] = set()
# Models this process's worker runs at once (prefork: one per pool process); set by the
# worker when it starts (assets.worker), before its pool processes are forked.
_models_per_worker = 1


def configured_model() -> str:
    """The model the settings ask for (``EMBEDDING_PROVIDER``, ``EMBEDDING_LOCAL_MODEL``)."""
    if settings.EMBEDDING_PROVIDER == "local":
        return settings.EMBEDDING_LOCAL_MODEL
    return settings.EMBEDDING_PROVIDER


def set_models_per_worker(count: int) -> None:
    """How many models the worker of this process runs at once (the worker, as it starts)."""
    global _models_per_worker
    _models_per_worker = count


def embedding_threads() -> int:
    """Intra-op threads for a local model built in this process."""
    configured: int = settings.EMBEDDING_THREADS
    if configured:
        return configured
    return max(1, (os.cpu_count() or 1) // _models_per_worker)


def provider_for(model: str) -> EmbeddingProvider:
    """The provider of ``model`` with ``EMBEDDING_DIMENSIONS``, built once per process.

    Raises EmbeddingProviderUnavailable when it cannot be built (unknown name, missing
    optional dependencies).
    """
    options: dict[str, Any] = {"dimensions": settings.EMBEDDING_DIMENSIONS}
    name = model
    if model in LOCAL_MODELS:
        name = "local"
        options["model"] = model
        if model == "e5-small":
            options["engine_path"] = settings.EMBEDDING_E5_ENGINE or None
    elif model == "openai":
        base_url, api_key = openai_endpoint()
        options |= {
            "model": settings.EMBEDDING_MODEL, "api_key": api_key, "base_url": base_url,
            "request_batch_size": settings.EMBEDDING_REQUEST_BATCH_SIZE,
            "requests_in_flight": settings.EMBEDDING_REQUESTS_IN_FLIGHT,
        }  # fmt: skip
    if name == "local":  # its threads depend on how many models this worker runs
        options["threads"] = embedding_threads()
    key = (name, *sorted(options.items()))
    with _lock:
        provider = _cache.get(key)
        if provider is None:
            provider = _cache[key] = get_embedding_provider(name, **options)
    return provider


def openai_endpoint() -> tuple[str, str]:
    """The base URL and key of the ``openai`` provider: EMBEDDING_BASE_URL / EMBEDDING_API_KEY.

    Generation's OPENAI_BASE_URL / OPENAI_API_KEY are used, as a pair, only when neither of
    those is set (an EMBEDDING_PROVIDER=openai configuration of an earlier version, which
    had one endpoint for both): a key is never sent to a server it was not given for.
    """
    if settings.EMBEDDING_BASE_URL or settings.EMBEDDING_API_KEY:
        return settings.EMBEDDING_BASE_URL or "", settings.EMBEDDING_API_KEY or ""
    return settings.OPENAI_BASE_URL or "", settings.OPENAI_API_KEY or ""


def active_model() -> str:
    """The model of ``AssetChunk.embedding`` (one small read of ``EmbeddingIndex``).

    Without chunks (a new deployment, a test) the configured model becomes the active one;
    with chunks of another model, the configured model waits for ``reembed_chunks`` and a
    warning is logged once per process.
    """
    from assets.models import AssetChunk, EmbeddingIndex, ReembedJob

    configured = configured_model()
    active = EmbeddingIndex.objects.filter(pk=EmbeddingIndex.SINGLETON).values_list(
        "active_model", flat=True
    )
    current = next(iter(active), None)
    if current == configured:
        return configured
    with transaction.atomic():
        index = EmbeddingIndex.objects.select_for_update().filter(pk=EmbeddingIndex.SINGLETON)
        state = index.first()
        if state is None:
            # First use on a deployment that may have chunks of an earlier version: they were
            # embedded with the model their asset names (or the configured one).
            model = _model_of_existing_chunks() or configured
            # get_or_create: another process may create the row at the same moment.
            state, _ = EmbeddingIndex.objects.get_or_create(
                pk=EmbeddingIndex.SINGLETON, defaults={"active_model": model}
            )
            current = state.active_model
        elif not AssetChunk.objects.exists() and not ReembedJob.objects.running().exists():
            state.active_model = configured
            state.save(update_fields=["active_model", "updated_at"])
            current = configured
        else:
            current = state.active_model
    if current != configured and (current, configured) not in _warned:
        _warned.add((current, configured))
        logger.warning(
            "the chunks are embedded with %s, the settings ask for %s: searches and ingestion "
            "keep using %s until `manage.py reembed_chunks --model %s` completes",
            current, configured, current, configured,
        )  # fmt: skip
    return current


def embedding_provider() -> EmbeddingProvider:
    """The provider of the active model: what ingestion embeds chunks and search embeds
    queries with. Raises EmbeddingProviderUnavailable when it cannot be built."""
    return provider_for(active_model())


def model_of_provider_name(name: str) -> str | None:
    """The model (``MODELS``) whose provider is called ``name`` (stored with each chunk)."""
    from assets.processing.embeddings import e5, local

    if name.startswith("hashing-"):
        return "hashing"
    if name.startswith("openai:"):
        return "openai"
    return {local.MODEL_NAME: "minilm", e5.MODEL_NAME: "e5-small"}.get(name)


def _model_of_existing_chunks() -> str | None:
    from assets.models import AssetChunk

    name = (
        AssetChunk.objects.exclude(embedding_model="")
        .order_by("-id")
        .values_list("embedding_model", flat=True)
        .first()
    )
    return model_of_provider_name(name) if name else None
