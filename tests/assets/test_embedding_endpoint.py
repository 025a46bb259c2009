"""The `openai` embedding provider's own server and key (EMBEDDING_BASE_URL, EMBEDDING_API_KEY),
apart from generation's OPENAI_BASE_URL / OPENAI_API_KEY (issue 26: a GPU embedding server
must not take the language model's place, nor its key)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from assets.embedding import provider_for


@dataclass
class Server:
    base_url: str = ""
    calls: list[dict[str, Any]] = field(default_factory=list)


@pytest.fixture
def servers() -> Iterator[tuple[Server, Server]]:
    """Two loopback OpenAI-compatible servers: (embeddings, generation). Each records who
    called which path with which bearer key, and answers /v1/embeddings."""
    made: list[tuple[ThreadingHTTPServer, Server]] = []
    for _ in range(2):
        state = Server()

        class Handler(BaseHTTPRequestHandler):
            recorder = state

            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self.recorder.calls.append(
                    {"path": self.path, "authorization": self.headers.get("Authorization")}
                )
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                size = body.get("dimensions") or 384
                data = [
                    {"object": "embedding", "index": i, "embedding": [1.0] + [0.0] * (size - 1)}
                    for i in range(len(inputs))
                ]
                payload = json.dumps(
                    {"object": "list", "data": data, "model": body["model"],
                     "usage": {"prompt_tokens": 1, "total_tokens": 1}}
                ).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        made.append((server, state))
    try:
        yield made[0][1], made[1][1]
    finally:
        for server, _ in made:
            server.shutdown()
            server.server_close()


def test_embeddings_go_to_the_embedding_server_with_the_embedding_key(
    settings, servers, monkeypatch
):
    embeddings, generation = servers
    settings.EMBEDDING_PROVIDER = "openai"
    settings.EMBEDDING_BASE_URL = embeddings.base_url
    settings.EMBEDDING_API_KEY = "sk-embeddings"
    settings.OPENAI_BASE_URL = generation.base_url
    settings.OPENAI_API_KEY = "sk-generation"
    # The OpenAI client would also read these from the environment: they must not count.
    monkeypatch.setenv("OPENAI_BASE_URL", generation.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-generation")

    provider = provider_for("openai")
    vectors = provider.embed_documents(["Records are kept for ten years."])
    provider.embed_query("How long are records kept?")

    assert len(vectors[0]) == settings.EMBEDDING_DIMENSIONS
    assert [call["path"] for call in embeddings.calls] == ["/v1/embeddings"] * 2
    assert {call["authorization"] for call in embeddings.calls} == {"Bearer sk-embeddings"}
    assert generation.calls == []


def test_an_earlier_configuration_without_embedding_settings_keeps_generations_endpoint(
    settings, servers
):
    # EMBEDDING_PROVIDER=openai set explicitly, neither EMBEDDING_BASE_URL nor
    # EMBEDDING_API_KEY: generation's URL and key, as a pair (what earlier versions did).
    _, generation = servers
    settings.EMBEDDING_PROVIDER = "openai"
    settings.EMBEDDING_BASE_URL = ""
    settings.EMBEDDING_API_KEY = ""
    settings.OPENAI_BASE_URL = generation.base_url
    settings.OPENAI_API_KEY = "sk-generation"

    provider_for("openai").embed_documents(["Records are kept for ten years."])

    assert [call["authorization"] for call in generation.calls] == ["Bearer sk-generation"]


def test_generations_key_is_never_sent_to_the_embedding_server(settings, servers, monkeypatch):
    embeddings, generation = servers
    settings.EMBEDDING_PROVIDER = "openai"
    settings.EMBEDDING_BASE_URL = embeddings.base_url  # a keyless server on a GPU host
    settings.EMBEDDING_API_KEY = ""
    settings.OPENAI_BASE_URL = generation.base_url
    settings.OPENAI_API_KEY = "sk-generation"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-generation")

    provider_for("openai").embed_documents(["Records are kept for ten years."])

    assert len(embeddings.calls) == 1
    assert embeddings.calls[0]["authorization"] != "Bearer sk-generation"
    assert generation.calls == []
