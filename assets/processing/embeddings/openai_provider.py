"""The ``openai`` provider: the openai SDK's client against any OpenAI-compatible API.

Shaped for a GPU embedding server (issue 30): a GPU is fed by large batches and kept busy by
several requests at once, so the texts an ingestion hands over are cut into requests of
``request_batch_size`` texts, up to ``requests_in_flight`` of them on the wire together,
and the vectors come back as base64 (4 bytes a dimension instead of ~20 characters of JSON
per float, which the client would otherwise spend its time parsing: bench/
bench_fast_embedder.py measures both).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import numpy as np

from assets.processing.embeddings.base import DEFAULT_DIMENSIONS, EmbeddingProvider

DEFAULT_MODEL = "text-embedding-3-small"
OPENAI_API_URL = "https://api.openai.com/v1"
# Sent when no key is configured (the client refuses to start without one): a local server
# without authentication accepts it, OpenAI's API answers 401.
NO_KEY = "no-key"
# Texts per request and requests at once (EMBEDDING_REQUEST_BATCH_SIZE,
# EMBEDDING_REQUESTS_IN_FLIGHT): one H100 behind an OpenAI-compatible server fed one Python
# client 4,787 chunks/s so (base64), 1,682 with JSON floats (issue 30).
DEFAULT_REQUEST_BATCH_SIZE = 256
DEFAULT_REQUESTS_IN_FLIGHT = 4
# OpenAI's API takes at most 2,048 inputs per request.
MAX_REQUEST_BATCH_SIZE = 2048


class OpenAIEmbeddingProvider(EmbeddingProvider):
    """Embeds through ``openai.OpenAI(base_url, api_key)``'s ``POST /embeddings``.

    ``base_url`` None or empty: OpenAI's API.

    ``dimensions`` is sent to the API (text-embedding-3 models shorten their vectors to it),
    so vectors fit the shared column. Network and API errors propagate unchanged for the
    task to retry (the first failing request's, when several are in flight; the others are
    awaited or cancelled); the client itself retries ``max_retries`` times first.
    ``encoding_format`` is ``base64`` but for measuring JSON floats against it.
    """

    def __init__(
        self,
        *,
        dimensions: int = DEFAULT_DIMENSIONS,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        request_batch_size: int = DEFAULT_REQUEST_BATCH_SIZE,
        requests_in_flight: int = DEFAULT_REQUESTS_IN_FLIGHT,
        encoding_format: str = "base64",
        **extra: Any,
    ) -> None:
        import openai

        if not 1 <= request_batch_size <= MAX_REQUEST_BATCH_SIZE:
            raise ValueError(f"request_batch_size must be 1 to {MAX_REQUEST_BATCH_SIZE}")
        if requests_in_flight < 1:
            raise ValueError("requests_in_flight must be at least 1")
        self.name = f"openai:{model}:{dimensions}"
        self.dimensions = dimensions
        self.request_batch_size = request_batch_size
        self.requests_in_flight = requests_in_flight
        # One ingestion batch fills every request in flight.
        self.preferred_batch_size = request_batch_size * requests_in_flight
        self._client = openai.OpenAI(
            # Given explicitly, never read from the environment: OPENAI_API_KEY and
            # OPENAI_BASE_URL there are generation's (a server without keys takes any).
            api_key=api_key or NO_KEY,
            base_url=base_url or OPENAI_API_URL,
            timeout=timeout,
            max_retries=max_retries,
            **extra,
        )
        self._parameters: dict[str, Any] = {
            "model": model,
            "dimensions": dimensions,
            "encoding_format": encoding_format,
        }

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        size = self.request_batch_size
        batches = [texts[start : start + size] for start in range(0, len(texts), size)]
        if len(batches) == 1:
            return self._embed_batch(batches[0])
        # A pool per call: a few threads cost microseconds against a request's milliseconds,
        # and nothing outlives the call (a forked worker process inherits no dead threads).
        with ThreadPoolExecutor(
            max_workers=min(self.requests_in_flight, len(batches)),
            thread_name_prefix="embedding-request",
        ) as pool:
            # map: results in the order of the batches; the first failed batch's error is
            # raised as it is, and the batches not yet sent are cancelled.
            return [
                vector for vectors in pool.map(self._embed_batch, batches) for vector in vectors
            ]

    def embed_query(self, text: str) -> list[float]:
        return self._embed_batch([text])[0]

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        # The client's post (its retries, errors, key and timeout) with the raw answer: its
        # embeddings.create walks every input and, as pydantic models, every vector's
        # every float in Python, which halved the texts/s of base64 and cut JSON floats'
        # to a fifth (measured against bench/openai_embedding_stub.py).
        answer = self._client.post(
            "/embeddings", body={"input": texts, **self._parameters}, cast_to=httpx.Response
        )
        return decoded_vectors(json.loads(answer.content)["data"])


def decoded_vectors(data: Iterable[dict[str, Any]]) -> list[list[float]]:
    """The vectors of a /v1/embeddings answer's ``data``, in the order of its inputs.

    Each item's ``embedding`` is base64 (little-endian float32, as asked) or, from a server
    that ignores ``encoding_format``, a list of numbers.
    """
    vectors: list[list[float]] = []
    for item in sorted(data, key=lambda item: item["index"]):
        embedding = item["embedding"]
        if isinstance(embedding, str):
            embedding = np.frombuffer(base64.b64decode(embedding), dtype="<f4").tolist()
        vectors.append(embedding)
    return vectors
