"""`make run`'s launcher, as a person uses it: start, healthy, Ctrl-C, start again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from tests.support.html import references


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(data_dir: Path, port: int, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DATA_DIR=str(data_dir),
        PORT=str(port),
        HOST="127.0.0.1",
        DJANGO_SETTINGS_MODULE="config.settings.base",
        PYTHONUNBUFFERED="1",
        ENV_FILE="",  # a developer's .env (read by `make run`) must not change this test
    )
    with log.open("wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "config.launcher", "run"], cwd=settings.BASE_DIR, env=env,
            stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def _wait_healthy(port: int, process: subprocess.Popen, log: Path) -> dict:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            if response.status_code == 200:
                return response.json()
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"not healthy in time:\n{log.read_text()[-3000:]}")


def _interrupt(process: subprocess.Popen) -> int:
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    return process.wait(timeout=60)


def _assert_static_files_are_served(port: int, *pages: str) -> None:
    """The stylesheets and scripts of the pages (admin, Swagger UI) come from the service."""
    static = [url for page in pages for url in references(page) if url.startswith("/static/")]
    assert any("drf_spectacular_sidecar/swagger-ui-dist" in url for url in static), static
    assert any(url.startswith("/static/admin/css/") for url in static), static
    for url in static:
        assert httpx.get(f"http://127.0.0.1:{port}{url}", timeout=5).status_code == 200, url


@pytest.mark.live  # `make run`: uvicorn, a worker and beat
def test_run_serves_health_and_admin_then_stops_cleanly_and_keeps_data(tmp_path: Path):
    data_dir = Path("/tmp") / f"ld-run-{os.getpid()}"  # short: Unix socket paths are limited
    port = _free_port()
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    try:
        first = _start(data_dir, port, first_log)
        try:
            health = _wait_healthy(port, first, first_log)
            assert health["checks"] == {"database": "ok", "redis": "ok", "worker": "ok"}
            admin = httpx.get(f"http://127.0.0.1:{port}/admin/login/", timeout=5)
            assert admin.status_code == 200
            docs = httpx.get(f"http://127.0.0.1:{port}/api/docs/", timeout=5)
            assert docs.status_code == 200
            _assert_static_files_are_served(port, admin.text, docs.text)
        finally:
            _interrupt(first)
        first_output = first_log.read_text()
        assert "API key of dpo@demo.example (shown once): ld_" in first_output
        assert "Admin login (shown once):" in first_output
        assert "Embedded PostgreSQL and Redis stopped" in first_output
        assert not (data_dir / "redis" / "redis.sock").exists()
        assert not (data_dir / "postgres" / "postmaster.pid").exists()

        second = _start(data_dir, port, second_log)
        try:
            _wait_healthy(port, second, second_log)
        finally:
            _interrupt(second)
        second_output = second_log.read_text()
        assert "shown once" not in second_output
        assert "secrets were printed on the first run" in second_output
    finally:
        subprocess.run(["rm", "-rf", str(data_dir)], check=False)
