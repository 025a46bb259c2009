"""Fixtures of the webhook tests: a fake DNS, a real loopback receiver, eager Celery."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from config.celery import app as celery_app

PUBLIC_ADDRESS = "93.184.215.14"


class FakeDns(dict[str, list[str]]):
    """Host name -> addresses. Other `*.example.com` names resolve to a public address;
    any other name does not resolve."""

    def resolve(self, host: str, port: int) -> list[str]:
        if host in self:
            return self[host]
        if host.endswith(".example.com"):
            return [PUBLIC_ADDRESS]
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.fixture(autouse=True)
def dns(monkeypatch: pytest.MonkeyPatch) -> FakeDns:
    """The resolver of the SSRF guard, under the test's control (no real DNS needed).

    Tests change an entry to simulate a host that resolves differently later.
    """
    fake = FakeDns()
    monkeypatch.setattr("webhooks.ssrf.resolve_host", fake.resolve)
    return fake


@dataclass
class ReceivedRequest:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """A loopback HTTP server: answers with `responses` in turn (then 200), records requests.

    A response is a status code, or ("sleep", seconds) to answer 200 only after a delay.
    """

    port: int
    responses: list[int | tuple[str, float]] = field(default_factory=list)
    received: list[ReceivedRequest] = field(default_factory=list)

    def url(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/hooks/legaldocs"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A real HTTP server on 127.0.0.1 that webhook deliveries are sent to."""
    state = Receiver(port=0)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            with lock:
                state.received.append(
                    ReceivedRequest(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body
                    )
                )
                response = state.responses.pop(0) if state.responses else 200
            if isinstance(response, tuple):
                time.sleep(response[1])
                response = 200
            self.send_response(response)
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def local_targets(settings) -> None:  # type: ignore[no-untyped-def]
    """Allow http and loopback targets (development switches), with instant retries."""
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOK_RETRY_DELAYS_SECONDS = [0, 0, 0, 0, 0]


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Celery tasks run in this process as they are enqueued (countdowns ignored)."""
    conf = celery_app.conf
    previous = {"task_always_eager": conf.task_always_eager,
                "task_eager_propagates": conf.task_eager_propagates}  # fmt: skip
    conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    conf.update(previous)
