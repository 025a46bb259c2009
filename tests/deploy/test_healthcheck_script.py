"""deploy/healthcheck.py: the container probes, `live` (/livez) and `ready` (/readyz)."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.deploy.conftest import ROOT

SCRIPT = ROOT / "deploy" / "healthcheck.py"


@pytest.fixture
def web_with_workers_down() -> Iterator[str]:
    """A loopback stand-in for a web process whose workers are down: live, not ready."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/livez" else 503)
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _probe(*arguments: str) -> int:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], capture_output=True, timeout=30, check=False
    ).returncode


def test_the_live_probe_passes_while_the_ready_probe_fails(web_with_workers_down):
    assert _probe("live", f"{web_with_workers_down}/livez") == 0
    assert _probe("ready", f"{web_with_workers_down}/readyz") != 0
    assert _probe("http", f"{web_with_workers_down}/healthz") != 0


def test_the_probes_ask_the_local_web_process_by_default():
    namespace: dict[str, object] = {}
    exec(compile(SCRIPT.read_text(), str(SCRIPT), "exec"), namespace)  # noqa: S102
    assert namespace["PROBES"] == {
        "live": "http://127.0.0.1:8000/livez",
        "ready": "http://127.0.0.1:8000/readyz",
    }
