"""The per-process embedding queue (assets.embedding_batcher): shared batches, each request
its own vectors, failures kept to the request that caused them."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from assets.embedding_batcher import EmbeddingBatcher
from assets.processing.embeddings import HashingEmbeddingProvider


class RecordingProvider(HashingEmbeddingProvider):
    """The lexical provider; records each call's texts, refuses texts with POISON in them
    (as an embedding service rejects an input), and counts calls running at once."""

    def __init__(self, dimensions: int = 64) -> None:
        super().__init__(dimensions=dimensions)
        self.calls: list[list[str]] = []
        self.running = self.most_running = 0
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self._lock:
            self.calls.append(list(texts))
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            time.sleep(0.01)
            if any("POISON" in text for text in texts):
                raise ValueError("the embedding service refused an input")
            return super().embed_documents(texts)
        finally:
            with self._lock:
                self.running -= 1


def texts_of(name: str, count: int) -> list[str]:
    return [f"{name} clause {n} on the retention of personal data" for n in range(count)]


def alone(texts: list[str]) -> list[list[float]]:
    return HashingEmbeddingProvider(dimensions=64).embed_documents(texts)


def test_requests_of_several_assets_fill_one_batch_and_each_gets_its_own_vectors():
    provider = RecordingProvider()
    batcher = EmbeddingBatcher(batch_size=64)
    requests = {name: texts_of(name, size) for name, size in [("a", 10), ("b", 30), ("c", 40)]}
    futures = {name: batcher.submit(texts, provider=provider) for name, texts in requests.items()}

    vectors = {name: batcher.result(future) for name, future in futures.items()}

    # 80 texts: one full batch (a, b and the first 24 of c), then the rest of c.
    assert [len(call) for call in provider.calls] == [64, 16]
    assert batcher.shared_batches_run == 1
    for name, texts in requests.items():
        assert vectors[name] == alone(texts)


def test_a_request_refused_in_a_shared_batch_fails_alone_and_the_others_get_their_vectors():
    provider = RecordingProvider()
    batcher = EmbeddingBatcher(batch_size=64)
    good, bad, other = texts_of("a", 5), [*texts_of("b", 3), "POISON clause"], texts_of("c", 7)
    futures = [batcher.submit(texts, provider=provider) for texts in (good, bad, other)]

    assert batcher.result(futures[0]) == alone(good)
    with pytest.raises(ValueError, match="refused"):
        batcher.result(futures[1])
    assert batcher.result(futures[2]) == alone(other)
    assert len(provider.calls[0]) == 16  # they were tried together first


def test_requests_for_different_providers_are_never_mixed():
    small, large = RecordingProvider(dimensions=8), RecordingProvider(dimensions=16)
    batcher = EmbeddingBatcher(batch_size=64)
    first = batcher.submit(texts_of("a", 3), provider=small)
    second = batcher.submit(texts_of("b", 3), provider=large)

    assert {len(vector) for vector in batcher.result(second)} == {16}
    assert {len(vector) for vector in batcher.result(first)} == {8}
    assert len(small.calls) == len(large.calls) == 1


def test_a_request_cancelled_before_it_ran_is_not_embedded():
    provider = RecordingProvider()
    batcher = EmbeddingBatcher(batch_size=64)
    dropped = batcher.submit(texts_of("dropped", 4), provider=provider)
    kept = batcher.submit(texts_of("kept", 4), provider=provider)

    assert dropped.cancel()
    assert batcher.result(kept) == alone(texts_of("kept", 4))
    assert provider.calls == [texts_of("kept", 4)]


def test_threads_waiting_at_once_run_the_model_one_at_a_time_and_get_their_own_vectors():
    provider = RecordingProvider()
    batcher = EmbeddingBatcher(batch_size=16)
    requests = [texts_of(f"asset{n}", 5 + n) for n in range(8)]

    def ingest(texts: list[str]) -> list[list[float]]:
        return batcher.result(batcher.submit(texts, provider=provider))

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(ingest, requests))

    assert provider.most_running == 1
    assert results == [alone(texts) for texts in requests]
    assert max(len(call) for call in provider.calls) <= 16


def test_a_wait_for_vectors_gives_up_at_its_timeout_while_another_thread_runs_the_model():
    started, release = threading.Event(), threading.Event()

    class SlowProvider(RecordingProvider):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            started.set()
            release.wait(10)
            return super().embed_documents(texts)

    provider = SlowProvider()
    batcher = EmbeddingBatcher(batch_size=2)
    first = batcher.submit(texts_of("a", 2), provider=provider)
    second = batcher.submit(texts_of("b", 2), provider=provider)
    with ThreadPoolExecutor(max_workers=1) as pool:
        running = pool.submit(batcher.result, first)
        assert started.wait(10)
        with pytest.raises(TimeoutError):
            batcher.result(second, timeout=0.2)
        release.set()
        assert running.result(10) == alone(texts_of("a", 2))
    assert batcher.result(second) == alone(texts_of("b", 2))
