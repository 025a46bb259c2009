"""`/metrics`: Prometheus metrics for the internal network or the metrics token only."""

from __future__ import annotations

import socket
import urllib.request
import uuid

import pytest
import redis
from django.test import Client

from common import metrics

TOKEN = "a-long-random-metrics-token-for-tests"


@pytest.fixture
def metrics_settings(settings):  # type: ignore[no-untyped-def]
    """A metrics token, and a queue name of its own so the real queues stay untouched."""
    settings.METRICS_TOKEN = TOKEN
    settings.CELERY_WORKER_QUEUES = [f"deploy-test-{uuid.uuid4().hex}"]
    return settings


def scrape(remote_addr: str, **headers: str):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=remote_addr).get("/metrics", **headers)


@pytest.mark.django_db
def test_metrics_are_refused_to_a_public_address(metrics_settings):
    response = scrape("203.0.113.7")
    assert response.status_code == 403
    assert b"legaldocs_" not in response.content


@pytest.mark.django_db
def test_metrics_are_refused_with_a_wrong_token(metrics_settings):
    assert scrape("203.0.113.7", HTTP_AUTHORIZATION="Bearer not-the-token").status_code == 403


@pytest.mark.django_db
def test_metrics_are_refused_everywhere_public_when_no_token_is_configured(metrics_settings):
    metrics_settings.METRICS_TOKEN = None
    assert scrape("203.0.113.7", HTTP_AUTHORIZATION="Bearer ").status_code == 403


@pytest.mark.django_db
def test_metrics_are_served_to_a_public_address_with_the_token(metrics_settings):
    response = scrape("203.0.113.7", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "10.1.2.3", "172.18.0.5", "192.168.1.9"])
def test_metrics_are_served_to_loopback_and_private_networks(metrics_settings, address):
    assert scrape(address).status_code == 200


@pytest.mark.django_db
def test_metrics_show_generation_and_ingestion_durations_and_failures(metrics_settings):
    metrics.observe_generation(document_type="dpia", provider="template", seconds=0.42)
    metrics.observe_generation(document_type="dpia", provider="openai", seconds=60, failed=True)
    metrics.observe_ingestion(file_format="pdf", seconds=3.5, failed=True)

    body = scrape("127.0.0.1").content.decode()

    assert (
        'legaldocs_generation_duration_seconds_count{document_type="dpia",provider="template"}'
        in body
    )
    assert 'legaldocs_generation_failures_total{document_type="dpia",provider="openai"}' in body
    assert 'legaldocs_ingestion_duration_seconds_bucket{format="pdf",le="5.0"}' in body
    assert 'legaldocs_ingestion_failures_total{format="pdf"}' in body
    assert "django_http_requests_total_by_method_total" in body  # django-prometheus


@pytest.mark.django_db
def test_queue_depth_counts_the_tasks_waiting_in_redis(metrics_settings):
    queue = metrics_settings.CELERY_WORKER_QUEUES[0]
    client = redis.Redis.from_url(metrics_settings.REDIS_URL)
    try:
        client.lpush(queue, "task-1", "task-2")
        client.lpush(metrics.queue_keys(queue)[2], "urgent-task")  # a priority step
        body = scrape("127.0.0.1").content.decode()
    finally:
        client.delete(*metrics.queue_keys(queue))
        client.close()
    assert f'legaldocs_celery_queue_depth{{queue="{queue}"}} 3.0' in body


@pytest.mark.django_db
def test_metrics_are_still_served_when_redis_is_unreachable(metrics_settings):
    metrics_settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = scrape("127.0.0.1")
    assert response.status_code == 200
    assert b"legaldocs_celery_queue_depth" not in response.content
    assert b"legaldocs_generation_duration_seconds" in response.content


def test_metric_recording_never_fails_the_work():
    # A wrong label set is a programming error in metrics, not in the generation.
    metrics.observe_generation(document_type=None, provider=object(), seconds="soon")  # type: ignore[arg-type]


def test_a_worker_serves_its_metrics_on_its_own_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    metrics.observe_ingestion(file_format="xlsx", seconds=1.0)
    metrics.start_worker_metrics_server(port, address="127.0.0.1")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        body = response.read().decode()
    assert 'legaldocs_ingestion_duration_seconds_count{format="xlsx"}' in body


def test_samples_of_several_processes_are_added_up_in_multiprocess_mode(tmp_path):
    # uvicorn --workers and Celery prefork: each process writes, one scrape reads them all.
    import os
    import subprocess
    import sys

    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    record = (
        "from common import metrics; "
        "metrics.observe_generation(document_type='ropa', provider='template', seconds=1)"
    )
    for _ in range(2):
        subprocess.run([sys.executable, "-c", record], env=env, check=True, timeout=60)
    read = (
        "from prometheus_client import generate_latest; from common import metrics; "
        "print(generate_latest(metrics._process_metrics()).decode())"
    )
    body = subprocess.run(
        [sys.executable, "-c", read], env=env, check=True, capture_output=True, text=True,
        timeout=60,
    ).stdout  # fmt: skip
    assert (
        'legaldocs_generation_duration_seconds_count{document_type="ropa",provider="template"} 2.0'
        in body
    )
