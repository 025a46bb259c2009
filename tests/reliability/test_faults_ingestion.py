"""A Celery worker killed (SIGKILL) in the middle of an asset's ingestion, then a new one.

The embeddings come from a loopback OpenAI-compatible server that waits before answering,
so that the kill lands while the asset is PROCESSING. The asset must end COMPLETED or
FAILED (with a reason), never stay PROCESSING.
"""

from __future__ import annotations

from contextlib import closing

import pytest

from assets.models import Asset
from tests.reliability.conftest import api_client
from tests.support.fake_openai import FakeOpenAI, fake_openai_server, live_ingestion_environment
from tests.support.live_stack import running, tail, wait_until


@pytest.fixture
def slow_embeddings():  # type: ignore[no-untyped-def]
    with fake_openai_server(FakeOpenAI(delay_seconds=5.0)) as server:
        yield server


def test_an_ingestion_whose_worker_was_killed_ends_completed_or_failed(
    stack, member, slow_embeddings
):
    environment = live_ingestion_environment(
        slow_embeddings, visibility_timeout_seconds=10, budget_seconds=30
    )
    web = stack.web(**environment).start()
    first_worker = stack.worker(queues="ingestion", **environment).start()
    with running(web, first_worker), closing(api_client(web, member)) as client:
        text = "Records of processing are kept for ten years.\n" * 200
        response = client.post(
            "/api/v1/assets/upload",
            files={"file": ("retention.txt", text.encode(), "text/plain")},
        )
        assert response.status_code == 201, response.text
        asset_id = response.json()["id"]
        wait_until(lambda: len(slow_embeddings.requests) >= 1, timeout=30)
        assert Asset.objects.get(pk=asset_id).status == "PROCESSING"

        first_worker.kill()
        slow_embeddings.delay_seconds = 0
        second_worker = stack.worker(queues="ingestion", **environment)
        with running(second_worker.start()):

            def finished() -> str | None:
                status = Asset.objects.get(pk=asset_id).status
                return status if status in {"COMPLETED", "FAILED"} else None

            try:
                status = wait_until(finished, timeout=150, interval=0.5)
            except TimeoutError:
                asset = Asset.objects.get(pk=asset_id)
                raise AssertionError(
                    (asset.status, asset.processing_started_at, tail(second_worker.log_path))
                ) from None

        asset = Asset.objects.get(pk=asset_id)
        assert status == "COMPLETED" or asset.error_code, asset.error_message
