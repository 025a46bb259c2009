"""A small OpenAI-compatible server on loopback, so the real client code runs over HTTP.

It answers `POST /v1/chat/completions` (streamed as server-sent events, or not) and
`POST /v1/embeddings`. What it answers is decided by `behaviour`, a function of the request
body, so each test scripts the model: echo the section, drop a heading, fail, or hang.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Behaviour = Callable[[dict[str, Any]], str]


def echo_user_message(body: dict[str, Any]) -> str:
    """Return the last user message unchanged: the model keeps the template's text."""
    return [m for m in body["messages"] if m["role"] == "user"][-1]["content"].split("\n\n---\n")[0]


@dataclass
class FakeOpenAI:
    behaviour: Behaviour = echo_user_message
    status: int = 200  # a non-200 makes every chat call fail with it
    delay_seconds: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""


def _handler(state: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            return

        def _json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            state.requests.append({"path": self.path, "body": body})
            if state.delay_seconds:
                time.sleep(state.delay_seconds)
            if self.path.endswith("/embeddings"):
                self._embeddings(body)
            elif self.path.endswith("/chat/completions"):
                self._chat(body)
            else:
                self._json(404, {"error": {"message": "not found"}})

        def _embeddings(self, body: dict[str, Any]) -> None:
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            dimensions = body.get("dimensions", 384)
            data = [
                {"object": "embedding", "index": index, "embedding": _vector(text, dimensions)}
                for index, text in enumerate(inputs)
            ]
            self._json(
                200,
                {
                    "object": "list",
                    "data": data,
                    "model": body.get("model", "x"),
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                },
            )

        def _chat(self, body: dict[str, Any]) -> None:
            if state.status != 200:
                self._json(
                    state.status, {"error": {"message": "scripted failure", "type": "server_error"}}
                )
                return
            text = state.behaviour(body)
            if not body.get("stream"):
                self._json(200, {
                    "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "x"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                })  # fmt: skip
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for piece in _pieces(text):
                chunk = {
                    "id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0,
                    "model": body.get("model", "x"),
                    "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
                }  # fmt: skip
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")

    return Handler


def _pieces(text: str, size: int = 40) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def _vector(text: str, dimensions: int) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [((digest[i % len(digest)] / 255.0) - 0.5) for i in range(dimensions)]


@contextmanager
def fake_openai_server(state: FakeOpenAI | None = None) -> Iterator[FakeOpenAI]:
    state = state or FakeOpenAI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def live_ingestion_environment(
    server: FakeOpenAI, *, visibility_timeout_seconds: int, budget_seconds: int
) -> dict[str, str]:
    """The environment of live web and worker processes that embed through ``server``.

    The test settings pin the lexical embeddings; these processes use the real choice, with
    the broker's visibility timeout and an asset's base time budget the test needs.
    """
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "EMBEDDING_PROVIDER": "openai",
        "EMBEDDING_BASE_URL": server.base_url,
        "EMBEDDING_API_KEY": "sk-embeddings",
        "CELERY_VISIBILITY_TIMEOUT": str(visibility_timeout_seconds),
        "ASSET_PROCESSING_TIMEOUT_SECONDS": str(budget_seconds),
    }
