"""An OpenAI-compatible ``POST /v1/embeddings`` that answers at once: the embedding server of
bench/bench_fast_embedder.py, standing for a GPU that is never the limit.

Vectors are L2-normalised float32 of the dimensions asked for, as base64 when the request
says ``encoding_format: base64`` and as JSON floats otherwise. They are made once per
dimension (a pool of ``POOL`` vectors, reused in turn) and kept already encoded, so that a
request costs reading its body and joining strings. HTTP/1.1 with keep-alive, one thread
per connection. It counts requests, texts, and the most requests it had in flight.

``python -m bench.openai_embedding_stub`` serves on a free loopback port, prints
``port <n>`` and answers ``GET /stats`` with its counters (JSON).
"""

from __future__ import annotations

import base64
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

POOL = 1024


class _Encoded:
    """The pool's vectors of one size, as the JSON text of each format."""

    def __init__(self, dimensions: int) -> None:
        rng = np.random.default_rng(dimensions)
        vectors = rng.standard_normal((POOL, dimensions)).astype("<f4")
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        self.base64 = ['"' + base64.b64encode(v.tobytes()).decode() + '"' for v in vectors]
        self.float = [json.dumps(v.tolist()) for v in vectors]


class Stub(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int] = ("127.0.0.1", 0)) -> None:
        super().__init__(address, _Handler)
        self.lock = threading.Lock()
        self.encoded: dict[int, _Encoded] = {}
        self.requests = 0
        self.texts = 0
        self.largest_request = 0
        self.in_flight = 0
        self.most_in_flight = 0
        self.formats: dict[str, int] = {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def stats(self) -> dict[str, Any]:
        with self.lock:
            return {
                "requests": self.requests, "texts": self.texts,
                "largestRequest": self.largest_request, "mostInFlight": self.most_in_flight,
                "encodingFormats": dict(self.formats),
            }  # fmt: skip

    def reset(self) -> None:
        with self.lock:
            self.requests = self.texts = self.largest_request = self.most_in_flight = 0
            self.formats = {}

    def vectors(self, dimensions: int) -> _Encoded:
        with self.lock:
            if dimensions not in self.encoded:
                self.encoded[dimensions] = _Encoded(dimensions)
            return self.encoded[dimensions]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the client reuses its connections
    server: Stub

    def log_message(self, *args: object) -> None:
        return

    def do_GET(self) -> None:
        if self.path == "/stats":
            self._send(200, json.dumps(self.server.stats()).encode())
        elif self.path == "/reset":
            self.server.reset()
            self._send(200, b"{}")
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        stub = self.server
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        encoding = body.get("encoding_format") or "float"
        with stub.lock:
            stub.requests += 1
            stub.texts += len(inputs)
            stub.largest_request = max(stub.largest_request, len(inputs))
            stub.formats[encoding] = stub.formats.get(encoding, 0) + 1
            stub.in_flight += 1
            stub.most_in_flight = max(stub.most_in_flight, stub.in_flight)
        try:
            pool = stub.vectors(int(body.get("dimensions") or 384))
            encoded = pool.base64 if encoding == "base64" else pool.float
            items = ",".join(
                f'{{"object":"embedding","index":{i},"embedding":{encoded[i % POOL]}}}'
                for i in range(len(inputs))
            )
            payload = (
                f'{{"object":"list","data":[{items}],"model":{json.dumps(body["model"])},'
                f'"usage":{{"prompt_tokens":{len(inputs)},"total_tokens":{len(inputs)}}}}}'
            )
            self._send(200, payload.encode())
        finally:
            with stub.lock:
                stub.in_flight -= 1

    def _send(self, status: int, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def main() -> None:
    stub = Stub()
    print(f"port {stub.server_address[1]}", flush=True)
    try:
        stub.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stub.server_close()
    sys.exit(0)


if __name__ == "__main__":
    main()
