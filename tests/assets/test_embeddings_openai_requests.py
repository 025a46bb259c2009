"""How the `openai` embedding provider talks to a GPU embedding server (issue 30, goal 3):
requests of at most EMBEDDING_REQUEST_BATCH_SIZE texts, base64 vectors, up to
EMBEDDING_REQUESTS_IN_FLIGHT requests at once, vectors in the order of the texts.

Against a loopback server speaking the OpenAI /v1/embeddings protocol (the real client)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import openai
import pytest

from assets.processing.embeddings import get_embedding_provider

ROOT = Path(__file__).resolve().parents[2]
DIMENSIONS = 8


@dataclass
class EmbeddingServer:
    """What the loopback server saw; ``delay`` says how long it takes to answer a request
    (by its first text), ``failing`` which text it refuses with a 400."""

    base_url: str = ""
    bodies: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    delay: Any = None
    failing: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def _number(text: str) -> int:
    return int(text.removeprefix("text-"))


def _vector(text: str) -> np.ndarray:
    """The text's number in the first component: which text a vector belongs to."""
    vector = np.zeros(DIMENSIONS, dtype=np.float32)
    vector[0] = _number(text)
    return vector


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    """A loopback OpenAI-compatible /v1/embeddings server that counts concurrent requests."""
    state = EmbeddingServer()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            with state.lock:
                state.bodies.append(body)
                state.in_flight += 1
                state.most_in_flight = max(state.most_in_flight, state.in_flight)
            try:
                time.sleep(state.delay(texts[0]) if state.delay else 0.05)
                if state.failing in texts:
                    self._answer(400, {"error": {"message": "bad input", "type": "invalid"}})
                    return
                data = []
                for index, text in enumerate(texts):
                    vector = _vector(text)
                    encoded: Any = (
                        base64.b64encode(vector.tobytes()).decode()
                        if body.get("encoding_format") == "base64"
                        else vector.tolist()
                    )
                    data.append({"object": "embedding", "index": index, "embedding": encoded})
                self._answer(200, {"object": "list", "data": data, "model": body["model"],
                                   "usage": {"prompt_tokens": 1, "total_tokens": 1}})  # fmt: skip
            finally:
                with state.lock:
                    state.in_flight -= 1

        def _answer(self, status: int, payload: dict[str, Any]) -> None:
            raw = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base_url = f"http://127.0.0.1:{http.server_address[1]}/v1"
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        yield state
    finally:
        http.shutdown()
        http.server_close()


def _provider(server: EmbeddingServer, **options: Any) -> Any:
    return get_embedding_provider(
        "openai", dimensions=DIMENSIONS, base_url=server.base_url, api_key="sk-test",
        max_retries=0, **options,
    )  # fmt: skip


def _texts(count: int) -> list[str]:
    return [f"text-{number}" for number in range(count)]


def test_it_sends_requests_of_at_most_the_configured_batch_size(server: EmbeddingServer) -> None:
    provider = _provider(server, request_batch_size=256, requests_in_flight=4)

    vectors = provider.embed_documents(_texts(1000))

    assert len(vectors) == 1000
    assert sorted(len(body["input"]) for body in server.bodies) == [232, 256, 256, 256]


def test_the_default_request_is_256_texts_and_four_requests_fill_an_ingestion_batch(
    server: EmbeddingServer,
) -> None:
    provider = _provider(server)

    provider.embed_documents(_texts(provider.preferred_batch_size))

    assert provider.preferred_batch_size == 256 * 4
    assert [len(body["input"]) for body in server.bodies] == [256] * 4


def test_it_asks_for_base64_vectors_and_decodes_them(server: EmbeddingServer) -> None:
    provider = _provider(server, request_batch_size=3)

    vectors = provider.embed_documents(_texts(5))
    query = provider.embed_query("text-7")

    assert {body["encoding_format"] for body in server.bodies} == {"base64"}
    assert [vector[0] for vector in vectors] == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert all(isinstance(value, float) for vector in vectors for value in vector)
    assert query == _vector("text-7").tolist()


def test_it_keeps_up_to_the_configured_number_of_requests_in_flight(
    server: EmbeddingServer,
) -> None:
    server.delay = lambda text: 0.3
    provider = _provider(server, request_batch_size=10, requests_in_flight=3)

    provider.embed_documents(_texts(100))

    assert len(server.bodies) == 10
    assert server.most_in_flight == 3


def test_the_vectors_come_back_in_the_order_of_the_texts_whatever_request_finishes_first(
    server: EmbeddingServer,
) -> None:
    # The first request answers last.
    server.delay = lambda text: 0.4 - _number(text) / 100
    provider = _provider(server, request_batch_size=10, requests_in_flight=4)

    vectors = provider.embed_documents(_texts(40))

    assert [int(vector[0]) for vector in vectors] == list(range(40))


def test_the_error_of_one_request_propagates_unchanged(server: EmbeddingServer) -> None:
    server.failing = "text-25"
    provider = _provider(server, request_batch_size=10, requests_in_flight=4)

    with pytest.raises(openai.BadRequestError, match="bad input"):
        provider.embed_documents(_texts(40))


def test_it_takes_vectors_a_server_sends_as_floats_although_base64_was_asked_for() -> None:
    # Some OpenAI-compatible servers ignore encoding_format and always answer floats.
    from assets.processing.embeddings.openai_provider import decoded_vectors

    data = [
        {"index": 1, "embedding": [0.0, 1.0]},
        {"index": 0, "embedding": base64.b64encode(np.array([1, 0], "<f4").tobytes()).decode()},
    ]

    assert decoded_vectors(data) == [[1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("EMBEDDING_REQUEST_BATCH_SIZE", "0", "EMBEDDING_REQUEST_BATCH_SIZE must be at least 1"),
        ("EMBEDDING_REQUEST_BATCH_SIZE", "many", "EMBEDDING_REQUEST_BATCH_SIZE must be an integer"),
        ("EMBEDDING_REQUEST_BATCH_SIZE", "5000", "EMBEDDING_REQUEST_BATCH_SIZE must be at most"),
        ("EMBEDDING_REQUESTS_IN_FLIGHT", "0", "EMBEDDING_REQUESTS_IN_FLIGHT must be at least 1"),
        ("EMBEDDING_REQUESTS_IN_FLIGHT", "1000", "EMBEDDING_REQUESTS_IN_FLIGHT must be at most 64"),
    ],
)  # fmt: skip
def test_a_bad_request_setting_is_a_configuration_error_naming_its_variable(
    variable: str, value: str, message: str
) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://lint@localhost/lint", "REDIS_URL": "redis://localhost/0",
        "SECRET_KEY": "k" * 50, "EVIDENCE_SIGNING_KEY": "e" * 40, variable: value,
    }  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings.base"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {message}" in result.stderr


def test_the_request_settings_reach_the_provider(settings, server: EmbeddingServer) -> None:
    from assets.embedding import provider_for

    settings.EMBEDDING_BASE_URL = server.base_url
    settings.EMBEDDING_API_KEY = "sk-test"
    settings.EMBEDDING_DIMENSIONS = DIMENSIONS
    settings.EMBEDDING_REQUEST_BATCH_SIZE = 7
    settings.EMBEDDING_REQUESTS_IN_FLIGHT = 2

    provider = provider_for("openai")
    provider.embed_documents(_texts(20))

    assert provider.preferred_batch_size == 14
    assert sorted(len(body["input"]) for body in server.bodies) == [6, 7, 7]
