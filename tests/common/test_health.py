"""GET /healthz: database, Redis and a Celery worker, answered from a short-lived cache."""

import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from common import health
from config import embedded
from tests.support.live_stack import wait_until


@pytest.fixture(autouse=True)
def _no_cached_health() -> Iterator[None]:
    """Each test sees the checks run afresh (the result is cached per process)."""
    health.forget_cached_result()
    yield
    health.forget_cached_result()


@pytest.fixture
def heartbeat_key(settings) -> str:
    """A heartbeat set of the test's own: the suite's real worker does not write to it."""
    settings.HEALTHCHECK_HEARTBEAT_KEY = f"test-heartbeats:{uuid.uuid4().hex}"
    return settings.HEALTHCHECK_HEARTBEAT_KEY


@pytest.mark.django_db(transaction=True)
def test_it_reports_ok_when_database_redis_and_a_worker_answer(client, celery_worker_process):
    def ok() -> dict | None:
        health.forget_cached_result()
        response = client.get("/healthz")
        return response.json() if response.status_code == 200 else None

    # The worker's first heartbeat follows its start by a moment.
    assert wait_until(ok, timeout=30, interval=0.5) == {
        "status": "ok",
        "checks": {"database": "ok", "redis": "ok", "worker": "ok"},
    }


@pytest.mark.django_db
def test_it_answers_503_when_redis_is_down(client, settings, tmp_path: Path):
    # A Redis of its own, really started and then really stopped.
    data_dir = Path("/tmp") / f"hz-{tmp_path.name[-20:]}"
    socket_path = embedded.ensure_redis(data_dir)
    settings.REDIS_URL = f"unix://{socket_path}"
    health.check_redis()  # reachable while it runs
    embedded.stop_redis(data_dir)

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("error")


@pytest.mark.django_db
def test_the_worker_is_alive_while_its_heartbeat_is_fresh(client, settings, heartbeat_key):
    # No Celery ping on the request path: a worker is known by the heartbeat it writes.
    assert client.get("/healthz").json()["checks"]["worker"].startswith("error")

    health.record_worker_heartbeat(hostname="generation@test-host")
    health.forget_cached_result()
    response = client.get("/healthz")

    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["worker"] == "ok"

    settings.HEALTHCHECK_WORKER_STALE_SECONDS = 0  # every heartbeat is now too old
    health.forget_cached_result()
    assert client.get("/healthz").status_code == 503


@pytest.mark.django_db
def test_a_worker_that_stops_takes_its_heartbeat_away(client, heartbeat_key):
    health.record_worker_heartbeat(hostname="generation@test-host")
    health.forget_worker_heartbeat(hostname="generation@test-host")

    assert client.get("/healthz").json()["checks"]["worker"].startswith("error")


@pytest.mark.django_db(transaction=True)
def test_concurrent_probes_share_one_run_of_the_checks(monkeypatch, settings, heartbeat_key):
    settings.HEALTHCHECK_CACHE_SECONDS = 30
    runs = []
    real_database_check = health.CHECKS["database"]

    def counted_database_check() -> None:
        runs.append(threading.get_ident())
        real_database_check()

    monkeypatch.setitem(health.CHECKS, "database", counted_database_check)
    start = threading.Barrier(20)
    statuses: list[int] = []

    def probe() -> None:
        start.wait(timeout=10)
        statuses.append(Client().get("/healthz").status_code)

    threads = [threading.Thread(target=probe) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert len(statuses) == 20
    assert len(runs) == 1  # one refresher; the other probes were answered from its result
    assert Client().get("/healthz").status_code in {200, 503}
    assert len(runs) == 1  # still fresh: answered from the cache


@pytest.fixture
def redis_down(settings) -> Iterator[None]:
    """REDIS_URL names a Redis that was really started, then really stopped."""
    # A short, new directory of this user's: a Unix socket path holds ~100 bytes, and a
    # fixed name left by another user's run is not writable.
    data_dir = Path(tempfile.mkdtemp(prefix="lz-", dir="/tmp"))
    try:
        socket_path = embedded.ensure_redis(data_dir)
        settings.REDIS_URL = f"unix://{socket_path}"
        health.check_redis()  # reachable while it runs
        embedded.stop_redis(data_dir)
        yield
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture
def database_down() -> Iterator[None]:
    """The default connection points at a port nobody listens on (restored afterwards)."""
    import socket

    from django.db import connection

    with socket.socket() as probe:  # a free port: connecting to it is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(port))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.mark.django_db
def test_livez_answers_200_while_redis_and_the_workers_are_down(client, redis_down, heartbeat_key):
    live = client.get("/livez")
    ready = client.get("/readyz")

    assert live.status_code == 200, live.json()
    assert live.json() == {"status": "ok", "checks": {"database": "ok"}}
    assert ready.status_code == 503
    assert ready.json()["checks"]["redis"].startswith("error")


@pytest.mark.django_db
def test_healthz_is_readiness(client, redis_down):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert set(response.json()["checks"]) == {"database", "redis", "worker"}


@pytest.mark.django_db(transaction=True)
def test_livez_and_readyz_answer_503_when_the_database_is_unreachable(client, database_down):
    live = client.get("/livez")
    ready = client.get("/readyz")

    assert live.status_code == 503
    assert live.json()["checks"]["database"].startswith("error: OperationalError")
    assert ready.status_code == 503
    assert ready.json()["checks"]["database"].startswith("error")


@pytest.mark.django_db
def test_readyz_answers_200_when_database_redis_and_a_worker_answer(client, heartbeat_key):
    health.record_worker_heartbeat(hostname="ingestion@test-host")

    response = client.get("/readyz")

    assert response.status_code == 200, response.json()
    assert response.json()["checks"] == {"database": "ok", "redis": "ok", "worker": "ok"}
