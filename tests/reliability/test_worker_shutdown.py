"""A deploy stops the ingestion worker (SIGTERM) in the middle of a long ingestion.

`docker stop` sends SIGTERM to the worker's main process and SIGKILLs it after the compose
`stop_grace_period` (2 minutes), while an ingestion may run for hours. The worker must hand
the asset back at once: the running ingestion stops after the batch it is writing, the
asset is UPLOADED again and its task message is back in the queue, so that the next worker
takes it over at once, not after the visibility timeout (set to an hour here) nor after the
running attempt's time budget.

The embeddings come from a loopback OpenAI-compatible server that takes three seconds per
batch, so that the asset's ~20 batches take far longer than the test waits.
"""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import closing

import pytest

from assets.models import Asset
from tests.reliability.conftest import api_client
from tests.support.fake_openai import FakeOpenAI, fake_openai_server, live_ingestion_environment
from tests.support.live_stack import running, tail, wait_until

# Far longer than the test: an asset that comes back, comes back because it was handed back.
VISIBILITY_TIMEOUT_SECONDS = 3600
# The batch being embedded (3 s) and the worker's own shutdown, on a loaded 2-core machine;
# finishing the ingestion instead would take a minute.
STOP_WITHIN_SECONDS = 30


@pytest.fixture
def slow_embeddings():  # type: ignore[no-untyped-def]
    with fake_openai_server(FakeOpenAI(delay_seconds=3.0)) as server:
        yield server


def test_a_stopped_ingestion_worker_hands_its_asset_to_the_next_worker_at_once(
    stack, member, slow_embeddings
):
    environment = live_ingestion_environment(
        slow_embeddings,
        visibility_timeout_seconds=VISIBILITY_TIMEOUT_SECONDS,
        # A running attempt is taken over only after its budget: longer than the test too.
        budget_seconds=1800,
    )
    # One request of 64 texts at a time, as the model is slow: a batch ends every 3 s.
    environment |= {"EMBEDDING_REQUEST_BATCH_SIZE": "64", "EMBEDDING_REQUESTS_IN_FLIGHT": "1"}
    web = stack.web(**environment).start()
    first_worker = stack.worker(queues="ingestion", **environment).start()
    with running(web, first_worker), closing(api_client(web, member)) as client:
        # ~1,300 chunks: 20 batches of 64, 3 s each: a minute to go when SIGTERM comes.
        text = "".join(
            f"Clause {n}: records of processing are kept ten years.\n" for n in range(20000)
        )
        response = client.post(
            "/api/v1/assets/upload",
            files={"file": ("retention.txt", text.encode(), "text/plain")},
        )
        assert response.status_code == 201, response.text
        asset_id = response.json()["id"]
        wait_until(lambda: len(slow_embeddings.requests) >= 2, timeout=60)
        assert Asset.objects.get(pk=asset_id).status == "PROCESSING"

        # What `docker stop` does: SIGTERM to the main process only (PID 1 of the container).
        assert first_worker.process is not None
        os.kill(first_worker.process.pid, signal.SIGTERM)
        try:
            first_worker.process.wait(timeout=STOP_WITHIN_SECONDS)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"still running {STOP_WITHIN_SECONDS} s after SIGTERM:\n"
                f"{tail(first_worker.log_path)}"
            ) from None
        asset = Asset.objects.get(pk=asset_id)
        assert asset.status == "UPLOADED", (asset.status, tail(first_worker.log_path))
        assert asset.lease_token is None
        assert not asset.chunks.exists()

        slow_embeddings.delay_seconds = 0
        requests_before = len(slow_embeddings.requests)
        second_worker = stack.worker(queues="ingestion", **environment)
        with running(second_worker.start()):

            def finished() -> str | None:
                status = Asset.objects.get(pk=asset_id).status
                return status if status in {"COMPLETED", "FAILED"} else None

            try:
                status = wait_until(finished, timeout=90, interval=0.5)
            except TimeoutError:
                asset = Asset.objects.get(pk=asset_id)
                raise AssertionError(
                    (asset.status, asset.processing_stage, tail(second_worker.log_path))
                ) from None

        asset = Asset.objects.get(pk=asset_id)
        assert status == "COMPLETED", (asset.error_code, asset.error_message)
        assert asset.chunk_count > 1000
        assert len(slow_embeddings.requests) > requests_before  # the second worker embedded it
