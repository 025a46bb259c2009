"""An ingestion worker loads its embedding model when its processes start, once per process.

Connected by AssetsConfig.ready(). A worker that consumes the ``ingestion`` queue builds the
configured provider (``assets.embedding.embedding_provider``, cached per process) before
it takes its first task: in each pool process for ``prefork`` (never in the parent: the
model's threads and memory must not be forked), in the worker process itself for
``threads`` and ``solo``, where the pool's threads share the one model through the
process's embedding queue (``assets.embedding_batcher``). Other workers load nothing.

The model's threads (onnxruntime's intra-op threads): ``EMBEDDING_THREADS`` when set, else
the machine's cores shared among the models of this worker (one per prefork process, one
for a threads pool). Several worker processes on one machine each think they are alone:
set ``EMBEDDING_THREADS`` to the cores divided by the number of workers (docs/DEPLOY.md).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from celery import signals

logger = logging.getLogger(__name__)

INGESTION_QUEUE = "ingestion"
# Models this process's worker runs at once (prefork: one per pool process); set when the
# worker starts, before its pool processes are forked.
_models_per_worker = 1
_preload = False
_load_in_main_process = False


def embedding_threads() -> int:
    """Intra-op threads for a local model built in this process."""
    from django.conf import settings

    configured: int = settings.EMBEDDING_THREADS
    if configured:
        return configured
    return max(1, (os.cpu_count() or 1) // _models_per_worker)


def preload_embedding_model() -> None:
    """Build this process's embedding provider now rather than on the first task.

    A provider that cannot be built is logged, not raised: the tasks then fail (and retry)
    with the error, as they did before, and the worker keeps serving its other queues.
    """
    from assets.embedding import embedding_provider

    started = time.monotonic()
    try:
        provider = embedding_provider()
    except Exception:
        logger.exception("the embedding model could not be loaded when the worker started")
        return
    logger.info(
        "embedding model %s loaded in process %s in %.1f s (%s threads)",
        provider.name, os.getpid(), time.monotonic() - started, embedding_threads(),
    )  # fmt: skip


def _on_worker_init(sender: Any, **_: Any) -> None:
    """In the worker's main process, before the pool starts."""
    global _models_per_worker, _preload, _load_in_main_process
    from celery.concurrency import get_implementation
    from celery.concurrency.prefork import TaskPool as PreforkPool

    queues = sender.app.amqp.queues.consume_from or {}
    _preload = INGESTION_QUEUE in queues
    pool = sender.pool_cls
    if isinstance(pool, str):
        pool = get_implementation(pool)
    prefork = isinstance(pool, type) and issubclass(pool, PreforkPool)
    _models_per_worker = _pool_processes(sender.concurrency) if prefork else 1
    _load_in_main_process = _preload and not prefork


def _pool_processes(concurrency: Any) -> int:
    try:
        return max(1, int(concurrency or 1))
    except ValueError:  # "auto", resolved later by Celery to the cores
        return os.cpu_count() or 1


def _on_worker_after_setup(**_: Any) -> None:
    """In the worker's main process, once Django is set up, before the pool starts."""
    if _load_in_main_process:
        preload_embedding_model()


def _on_worker_process_init(**_: Any) -> None:
    """In each prefork pool process (the solo pool sends it too: loaded already)."""
    if _preload and not _load_in_main_process:
        preload_embedding_model()


def connect_celery_signals() -> None:
    signals.worker_init.connect(_on_worker_init, weak=False)
    signals.celeryd_after_setup.connect(_on_worker_after_setup, weak=False)
    signals.worker_process_init.connect(_on_worker_process_init, weak=False)
