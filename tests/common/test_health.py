"""GET /healthz: database, Redis and a Celery worker."""

from pathlib import Path

import pytest

from common import health
from config import embedded


@pytest.mark.django_db(transaction=True)
def test_it_reports_ok_when_database_redis_and_a_worker_answer(client, celery_worker_process):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
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
