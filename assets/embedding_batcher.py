"""One embedding queue per process: chunks of every asset being ingested share model batches.

An ingestion (``assets.ingestion``) submits each batch of its chunks here, goes on chunking
the next one, and then waits for the vectors with ``result``. Whoever waits runs the model,
one thread at a time: it takes whatever is queued, from any asset, cut into batches of
``batch_size`` texts (a request may be split over two batches), so that the short last
batch of one asset is filled up with the next asset's chunks. With Celery's ``threads``
pool, several assets are ingested at once around the one model of the process: while one
task's thread runs the model on everyone's chunks, the others read their files (in the
extraction child), chunk and write to the database, off the model's critical path. With
``prefork`` each pool process has its own queue and model, and this is a plain call.

No thread of its own: the model runs in the thread of a task that waits for it, so a test
(or a management command) runs it in its own thread, and an error raised there stays there.

The queue only computes. Each request gets its own texts' vectors back, in order, and the
ingestion that submitted them writes them to its own asset under its own claim; requests
for different provider instances are never mixed. When a shared batch fails, each request
in it is embedded again on its own, so that one request's bad input (or the error for it)
fails that request alone, and the others get their vectors.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field

from celery.exceptions import SoftTimeLimitExceeded

from assets.processing.embeddings import EmbeddingProvider

Vectors = list[list[float]]
DEFAULT_BATCH_SIZE = 64
# Raised into the thread that runs the model, not caused by the batch: it fails the batch's
# requests (in a prefork process they are all the task's own) and goes on up.
_RUNNER_INTERRUPTIONS = (SoftTimeLimitExceeded,)


@dataclass(eq=False)
class _Request:
    provider: EmbeddingProvider
    texts: list[str]
    future: Future[Vectors]
    # Vectors of texts[:len(vectors)]; texts[next_text:] are not yet taken into a batch.
    vectors: Vectors = field(default_factory=list)
    next_text: int = 0
    failed: bool = False


@dataclass(frozen=True, slots=True)
class _Part:
    request: _Request
    start: int
    stop: int


class EmbeddingBatcher:
    """Texts submitted by any thread of the process, embedded in shared batches."""

    def __init__(self, *, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        self.batch_size = batch_size
        self._waiting: deque[_Request] = deque()
        self._condition = threading.Condition()  # an RLock: a runner may run nested
        self._runner: int | None = None
        # For the tests and the benchmark: model batches run, and those holding the texts
        # of more than one request.
        self.batches_run = 0
        self.shared_batches_run = 0

    def submit(self, texts: list[str], *, provider: EmbeddingProvider) -> Future[Vectors]:
        """Queue ``texts``; the future holds their vectors once some ``result`` call ran them.

        Cancelling the future before its texts are taken drops them.
        """
        future: Future[Vectors] = Future()
        if not texts:
            future.set_result([])
            return future
        with self._condition:
            self._waiting.append(_Request(provider, list(texts), future))
            self._condition.notify_all()
        return future

    def result(
        self, future: Future[Vectors], *, timeout: float | None = None, batch_size: int = 0
    ) -> Vectors:
        """The vectors of a submitted future, running the model meanwhile when it is free
        (on batches of ``batch_size`` texts; 0: the batcher's own).

        Raises the provider's error for these texts, or TimeoutError after ``timeout`` s.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        me = threading.get_ident()
        while not future.done():
            with self._condition:
                while not future.done() and (self._runner not in (None, me) or not self._waiting):
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise TimeoutError("no vectors before the deadline")
                    self._condition.wait(remaining)
                if future.done():
                    break
                outer_runner, self._runner = self._runner, me
                parts = self._take_batch(batch_size or self.batch_size)
            try:
                if parts:
                    self._embed(parts)
            finally:
                with self._condition:
                    self._runner = outer_runner
                    self._condition.notify_all()
        return future.result()

    def _take_batch(self, batch_size: int) -> list[_Part]:
        """Up to ``batch_size`` queued texts for one provider, oldest request first."""
        parts: list[_Part] = []
        room = batch_size
        provider = None
        for request in list(self._waiting):
            if room == 0:
                break
            if provider is not None and request.provider is not provider:
                continue  # for another model: a later batch
            if request.next_text == 0 and not request.future.set_running_or_notify_cancel():
                self._waiting.remove(request)  # cancelled before any of it ran
                continue
            provider = request.provider
            stop = min(len(request.texts), request.next_text + room)
            parts.append(_Part(request, request.next_text, stop))
            room -= stop - request.next_text
            request.next_text = stop
            if stop == len(request.texts):
                self._waiting.remove(request)
        return parts

    def _embed(self, parts: list[_Part]) -> None:
        provider = parts[0].request.provider
        texts = [text for part in parts for text in part.request.texts[part.start : part.stop]]
        self.batches_run += 1
        if len({id(part.request) for part in parts}) > 1:
            self.shared_batches_run += 1
        try:
            vectors = provider.embed_documents(texts)
        except _RUNNER_INTERRUPTIONS as interruption:
            for part in parts:
                self._fail(part.request, interruption)
            raise
        except Exception as error:
            if len(parts) == 1:
                self._fail(parts[0].request, error)
                return
            for part in parts:  # whose texts failed: each part alone
                self._embed([part])
            return
        except BaseException as error:  # the process is stopping: nobody gets vectors
            for part in parts:
                self._fail(part.request, error)
            raise
        offset = 0
        for part in parts:
            size = part.stop - part.start
            self._deliver(part, vectors[offset : offset + size])
            offset += size

    def _deliver(self, part: _Part, vectors: Vectors) -> None:
        request = part.request
        if request.failed:
            return
        request.vectors.extend(vectors)
        if len(request.vectors) == len(request.texts):
            request.future.set_result(request.vectors)

    def _fail(self, request: _Request, error: BaseException) -> None:
        with self._condition:
            if request.failed:
                return
            request.failed = True
            if request in self._waiting:  # its texts not yet taken are dropped
                self._waiting.remove(request)
            request.future.set_exception(error)


_lock = threading.Lock()
_batcher: EmbeddingBatcher | None = None
_batcher_pid: int | None = None


def embedding_batcher() -> EmbeddingBatcher:
    """The queue of this process (a forked pool process gets its own)."""
    global _batcher, _batcher_pid
    with _lock:
        if _batcher is None or _batcher_pid != os.getpid():
            _batcher = EmbeddingBatcher()
            _batcher_pid = os.getpid()
        return _batcher
