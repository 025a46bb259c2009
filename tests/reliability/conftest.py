"""Fixtures of the reliability suite: the service as real processes on loopback.

Each fault test gets a Redis of its own (so that stopping it touches nobody else), a web
server (uvicorn) and Celery workers on the test database, all stopped at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from tests.conftest import Caller, make_caller
from tests.support.live_stack import (
    RedisServer,
    WebServer,
    Worker,
    database_url_for,
    stack_environment,
    wait_until,
)


@dataclass
class Stack:
    """Handles on the processes of one test, and how to start more of them."""

    directory: Path
    redis: RedisServer
    database_url: str
    # Everything handed out is stopped when the test ends, even if it failed half-way.
    processes: list[WebServer | Worker] = field(default_factory=list)

    def environment(self, **extra: str) -> dict[str, str]:
        return stack_environment(database_url=self.database_url, redis_url=self.redis.url, **extra)

    def web(self, *, database_url: str | None = None, **extra: str) -> WebServer:
        env = self.environment(**extra)
        if database_url is not None:
            env["DATABASE_URL"] = database_url
        server = WebServer(env=env, log_path=self.directory / "web.log")
        self.processes.append(server)
        return server

    def worker(
        self,
        *,
        queues: str = "generation,ingestion,webhooks,packages,imports,staleness",
        **extra: str,
    ) -> Worker:
        name = queues.replace(",", "-")
        worker = Worker(
            env=self.environment(**extra),
            log_path=self.directory / f"worker-{name}.log",
            queues=queues,
            name=name,
        )
        self.processes.append(worker)
        return worker


@pytest.fixture
def stack(transactional_db, tmp_path: Path) -> Iterator[Stack]:  # type: ignore[no-untyped-def]
    """A Redis of the test's own, and the test database, for processes the test starts."""
    redis = RedisServer(tmp_path / "redis").start()
    stack = Stack(
        directory=tmp_path,
        redis=redis,
        database_url=database_url_for(settings.DATABASES["default"]),
    )
    try:
        yield stack
    finally:
        for process in reversed(stack.processes):
            process.stop()
        redis.stop()


@pytest.fixture
def member(transactional_db) -> Caller:  # type: ignore[no-untyped-def]
    """A DPO of a new business-plan organization (committed: other processes see it)."""
    return make_caller()


def api_client(server: WebServer, caller: Caller, *, timeout: float = 30) -> httpx.Client:
    return httpx.Client(
        base_url=server.base_url,
        headers={"Authorization": f"Bearer {caller.key}"},
        timeout=timeout,
    )


def wait_for_document(client: httpx.Client, document_id: str, *, timeout: float) -> dict:
    """Poll the document until it leaves `processing`; return it."""

    def finished() -> dict | None:
        response = client.get(f"/api/v1/legal-documents/{document_id}")
        if response.status_code == 200 and response.json()["status"] != "processing":
            return response.json()
        return None

    return wait_until(finished, timeout=timeout, interval=0.25)  # type: ignore[return-value]
