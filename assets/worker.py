"""An ingestion worker loads its embedding model when its processes start, once per process.

Connected by AssetsConfig.ready(). A worker that consumes the ``ingestion`` queue builds the
configured provider (``assets.embedding.embedding_provider``, cached per process) before
it takes its first task: in each pool process for ``prefork`` (never in the parent: the
model's threads and memory must not be forked), in the worker process itself for
``threads`` and ``solo``, where the pool's threads share the one model through the
process's embedding queue (``assets.embedding_batcher``). Other workers load nothing.

The model's threads (onnxruntime's intra-op threads, ``assets.embedding.embedding_threads``):
``EMBEDDING_THREADS`` when set, else the machine's cores shared among the models of this
worker (one per prefork process, one for a threads pool; the worker tells
``assets.embedding`` how many as it starts). Several worker processes on one machine each
think they are alone: set ``EMBEDDING_THREADS`` to the cores divided by the number of
workers (docs/DEPLOY.md).

A stopping ingestion worker hands its assets back at once (issue 26). ``docker stop`` sends
SIGTERM to the worker's main process (Celery's warm shutdown, which waits for the running
tasks) and SIGKILLs it after the compose ``stop_grace_period``, while an ingestion may run
for hours; a killed task would only come back after the broker's visibility timeout. So
when an ingestion worker starts to shut down (``worker_shutting_down``), it tells its
ingestions to stop: the flag below is set in the main process (``threads`` and ``solo``
pools) and, through STOP_SIGNAL, in each prefork pool process. An ingestion looks at it
between batches and while its extraction child runs (``assets.ingestion``), hands the asset
back (UPLOADED, its partial output removed) and rejects its message with requeue, so the
message is back in the queue before the worker exits and the next worker starts it again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from typing import Any

from celery import signals

logger = logging.getLogger(__name__)

INGESTION_QUEUE = "ingestion"
_preload = False
_load_in_main_process = False
# The worker (WorkController) of this process, for its pool's processes at shutdown.
_worker: Any = None
# Set once this worker shuts down: ingestions stop at their next safe point. Inherited by
# pool processes forked afterwards, so that they hand back what they are given at once.
_stop_requested = threading.Event()
# How the main process tells its prefork pool processes. Not SIGTERM: billiard's own
# terminate() sends that to end a pool process at once (SystemExit), which must not change.
STOP_SIGNAL = signal.SIGUSR2


def stop_requested() -> bool:
    """True once this worker is shutting down: a running ingestion should hand back now."""
    return _stop_requested.is_set()


def preload_embedding_model() -> None:
    """Build this process's embedding provider now rather than on the first task.

    A provider that cannot be built is logged, not raised: the tasks then fail (and retry)
    with the error, as they did before, and the worker keeps serving its other queues.
    """
    from assets.embedding import embedding_provider, embedding_threads

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
    global _preload, _load_in_main_process, _worker
    from celery.concurrency import get_implementation
    from celery.concurrency.prefork import TaskPool as PreforkPool

    from assets.embedding import set_models_per_worker

    _worker = sender
    queues = sender.app.amqp.queues.consume_from or {}
    _preload = INGESTION_QUEUE in queues
    pool = sender.pool_cls
    if isinstance(pool, str):
        pool = get_implementation(pool)
    prefork = isinstance(pool, type) and issubclass(pool, PreforkPool)
    set_models_per_worker(_pool_processes(sender.concurrency) if prefork else 1)
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
        signal.signal(STOP_SIGNAL, _on_stop_signal)
        preload_embedding_model()


def _on_stop_signal(signum: int, frame: Any) -> None:
    """In a pool process: only a flag, read at the ingestion's safe points."""
    _stop_requested.set()


def _on_worker_shutting_down(**_: Any) -> None:
    """In the worker's main process, from its signal handler (warm or cold shutdown)."""
    if not _preload:
        return
    _stop_requested.set()
    if _load_in_main_process:
        return  # threads or solo: the ingestions run in this process
    for pid in _pool_process_ids():
        with contextlib.suppress(ProcessLookupError):  # gone meanwhile
            os.kill(pid, STOP_SIGNAL)


def _pool_process_ids() -> list[int]:
    pool = getattr(_worker, "pool", None)
    try:
        pids: list[int] = list(pool.info.get("processes", [])) if pool is not None else []
    except Exception:  # no pool yet (stopped while starting), or one without processes
        return []
    return [pid for pid in pids if pid and pid != os.getpid()]


def connect_celery_signals() -> None:
    signals.worker_shutting_down.connect(_on_worker_shutting_down, weak=False)
    signals.worker_init.connect(_on_worker_init, weak=False)
    signals.celeryd_after_setup.connect(_on_worker_after_setup, weak=False)
    signals.worker_process_init.connect(_on_worker_process_init, weak=False)
