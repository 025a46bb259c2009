"""A Celery worker killed (SIGKILL) in the middle of a generation, then a new one started.

Tasks are acknowledged late and rejected when their worker is lost, so the broker hands a
job whose worker died to the next worker; a job is idempotent (only its current job id may
complete the document), so running it again is safe. The lost attempt still holds the
job's lease (common.background): the next attempt starts once it expires
(GENERATION_TIMEOUT_SECONDS + 30 s). The document must end `completed` or `failed` with a
reason, never stay `processing`.

The generation is made slow with a loopback OpenAI-compatible server that waits before each
answer, so that the kill lands while the job runs.
"""

from __future__ import annotations

import os
import signal
from contextlib import closing
from datetime import timedelta

import pytest
from django.utils import timezone

from common.background import sweeper
from legal_documents.models import LegalDocument
from legal_documents.work import DOCUMENT_JOB
from tests.legal_documents.samples import FULL_INPUTS
from tests.reliability.conftest import api_client, wait_for_document
from tests.support.fake_openai import FakeOpenAI, fake_openai_server
from tests.support.live_stack import running, tail, wait_until

CREATE_BODY = {"documentType": "DPIA", **FULL_INPUTS["DPIA"]}
# Kept at its minimum, so that an unacknowledged task is redelivered within seconds.
VISIBILITY_TIMEOUT_SECONDS = 10
# Short, so that the lease of the killed attempt (this + 30 s) expires within the test.
GENERATION_TIMEOUT_SECONDS = 15


def openai_environment(server: FakeOpenAI) -> dict[str, str]:
    return {
        "GENERATION_PROVIDER": "openai",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.base_url,
        "LLM_TIMEOUT_SECONDS": "30",
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_SECONDS),
        "GENERATION_TIMEOUT_SECONDS": str(GENERATION_TIMEOUT_SECONDS),
    }


@pytest.fixture
def slow_model():  # type: ignore[no-untyped-def]
    """A loopback model that takes a second per answer (a generation makes several calls)."""
    with fake_openai_server(FakeOpenAI(delay_seconds=1.0)) as server:
        yield server


def start_generation(stack, member, slow_model):  # type: ignore[no-untyped-def]
    """Web server and first worker up, a document created, its generation under way."""
    environment = openai_environment(slow_model)
    web = stack.web(**environment).start()
    worker = stack.worker(queues="generation", **environment).start()
    client = api_client(web, member)
    created = client.post("/api/v1/legal-documents", json=CREATE_BODY)
    assert created.status_code == 201, created.text
    wait_until(lambda: len(slow_model.requests) >= 1, timeout=30)
    return web, worker, client, created.json()["id"]


def test_a_generation_whose_worker_was_killed_is_finished_by_the_next_worker(
    stack, member, slow_model
):
    web, first_worker, client, document_id = start_generation(stack, member, slow_model)
    with running(web, first_worker), closing(client):
        first_worker.kill()
        assert LegalDocument.objects.get(pk=document_id).status == "processing"
        calls_before_restart = len(slow_model.requests)
        slow_model.delay_seconds = 0

        second_worker = stack.worker(queues="generation", **openai_environment(slow_model))
        with running(second_worker.start()):
            # Redelivered after the visibility timeout; generous bound for a loaded machine.
            document = wait_for_document(client, document_id, timeout=120)

        assert document["status"] == "completed", (document, tail(second_worker.log_path))
        assert document["version"] == 1
        assert "Data Protection Impact Assessment" in document["content"]["markdown"]
        # The second worker ran the job again: it was redelivered, not failed by a sweep.
        assert len(slow_model.requests) > calls_before_restart


def test_a_generation_whose_pool_process_was_killed_is_retried_by_the_same_worker(
    stack, member, slow_model
):
    web, worker, client, document_id = start_generation(stack, member, slow_model)
    with running(web, worker), closing(client):
        slow_model.delay_seconds = 0.2
        pool = worker.pool_pids()
        assert pool
        for pid in pool:
            # The main process survives and rejects the lost task back to the queue.
            os.kill(pid, signal.SIGKILL)

        document = wait_for_document(client, document_id, timeout=120)

        assert document["status"] == "completed", (document, tail(worker.log_path))
        assert worker.process is not None and worker.process.poll() is None


def test_the_stale_job_sweep_fails_a_job_whose_worker_never_came_back(stack, member, slow_model):
    web, worker, client, document_id = start_generation(stack, member, slow_model)
    with running(web, worker), closing(client):
        worker.kill()
        # Its lease expired, and no worker came back as often as the job may be tried.
        LegalDocument.objects.filter(pk=document_id).update(
            lease_expires_at=timezone.now() - timedelta(seconds=1),
            attempts=DOCUMENT_JOB.max_attempts,
        )

        assert sweeper.sweep(DOCUMENT_JOB)["failed"] == 1

        document = client.get(f"/api/v1/legal-documents/{document_id}").json()
        assert document["status"] == "failed"
        assert document["error"]["code"] == "GENERATION_TIMEOUT"
