"""An ingestion worker loads its embedding model once per process, as the process starts
(assets.worker), and every ingestion of the process uses that one model."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from assets import embedding, worker
from tests.conftest import database_url


def start_worker(pool: str, log_path: Path, queues: str) -> tuple[subprocess.Popen, str]:
    hostname = f"preload-{pool}-{os.getpid()}@{os.uname().nodename}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    env.pop("EMBEDDING_THREADS", None)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
             "--pool", pool, "--concurrency", "2", "--queues", queues, "--hostname", hostname,
             "--without-mingle", "--without-gossip"],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    return process, hostname


def wait_until_ready(process: subprocess.Popen, hostname: str, log_path: Path) -> str:
    from config.celery import app

    deadline = time.monotonic() + 90
    while not app.control.ping(destination=[hostname], timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not start: {log_path.read_text()[-3000:]}")
    deadline = time.monotonic() + 30
    while " ready." not in (log := log_path.read_text(errors="replace")):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not log that it is ready: {log[-3000:]}")
        time.sleep(0.2)
    return log


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.mark.live
@pytest.mark.timeout(150)
@pytest.mark.parametrize("pool", ["threads", "prefork"])
def test_an_ingestion_worker_loads_the_model_once_in_each_process_before_it_is_ready(
    pool, django_db_setup, tmp_path
):
    log_path = tmp_path / "worker.log"
    process, hostname = start_worker(pool, log_path, queues="ingestion")
    loaded = r"embedding model \S+ loaded in process (\d+)"
    try:
        log = wait_until_ready(process, hostname, log_path)
        # No task is sent: each pool process loads as it starts (prefork processes start
        # beside the consumer, and take tasks once started).
        deadline = time.monotonic() + 60
        while len(re.findall(loaded, log)) < (1 if pool == "threads" else 2):
            assert time.monotonic() < deadline, log[-3000:]
            time.sleep(0.2)
            log = log_path.read_text(errors="replace")
        time.sleep(1)  # a third load would show now
        log = log_path.read_text(errors="replace")
    finally:
        stop(process)

    pids = re.findall(loaded, log)
    if pool == "threads":  # one model, in the worker process, before it consumes
        assert pids == [str(process.pid)]
        assert log.index(f"loaded in process {process.pid}") < log.index(" ready.")
    else:  # one in each of the 2 pool processes, none in the parent
        assert len(set(pids)) == len(pids) == 2
        assert str(process.pid) not in pids


@pytest.mark.live
@pytest.mark.timeout(150)
def test_a_worker_without_the_ingestion_queue_loads_no_model(django_db_setup, tmp_path):
    log_path = tmp_path / "worker.log"
    process, hostname = start_worker("threads", log_path, queues="webhooks")
    try:
        log = wait_until_ready(process, hostname, log_path)
    finally:
        stop(process)

    assert "embedding model" not in log


@pytest.mark.django_db
def test_ingestions_after_the_preload_use_the_model_it_loaded(uploaded, monkeypatch):
    monkeypatch.setattr(embedding, "_cache", {})
    built: list[str] = []
    build = embedding.get_embedding_provider

    def counting_build(name: str, **options):  # type: ignore[no-untyped-def]
        built.append(name)
        return build(name, **options)

    monkeypatch.setattr(embedding, "get_embedding_provider", counting_build)
    worker.preload_embedding_model()
    assert built == [settings.EMBEDDING_PROVIDER]

    first = uploaded("first.txt", b"Access to the Lisbon data centre is logged.\n")
    second = uploaded("second.txt", b"Badges of the Oslo office are renewed yearly.\n")

    assert first.status == second.status == "COMPLETED"
    assert built == [settings.EMBEDDING_PROVIDER]


def test_the_model_threads_share_the_cores_among_the_models_of_the_worker(settings, monkeypatch):
    settings.EMBEDDING_THREADS = 0
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    monkeypatch.setattr(embedding, "_models_per_worker", 4)
    assert embedding.embedding_threads() == 2
    monkeypatch.setattr(embedding, "_models_per_worker", 16)
    assert embedding.embedding_threads() == 1
    settings.EMBEDDING_THREADS = 3  # several workers on one machine: the operator's choice
    assert embedding.embedding_threads() == 3
