"""An asset's processing time budget grows with its file (issue 16, "Large files").

A fixed 1,800 s failed every 100 MB upload with the local model (~5,700 s of work). Each
asset now gets ASSET_PROCESSING_TIMEOUT_SECONDS plus ASSET_PROCESSING_SECONDS_PER_MB per MiB
of its file: in the messages sent to the broker (the task's time limits), in the lease of a
running attempt (before which it is not taken over nor swept), in the ingestion's own
deadline and in the message of an asset that ran out of time. The rows' ``file_size``
stands for a large file: the bounds read it, and uploading 100 MB would only slow the suite
down.
"""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from assets import ingestion
from assets.embedding import embedding_provider
from assets.models import Asset, AssetStatus
from assets.progress import STAGE_EMBEDDING
from assets.tasks import process_asset_task
from assets.work import MAX_PROCESSING_ATTEMPTS
from common.background.fields import LeaseState
from common.background.leases import LeaseHeldError
from common.tasks import sweep_background_work_task
from tests.assets.conftest import attempt_started, upload

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
LARGE = 100 * MIB
# The budget of a 100 MiB file with the settings of `_default_budget`: 1,800 + 100 x 90.
LARGE_BUDGET = 10_800
HARD_LIMIT_GRACE = 60
QUEUE = "ingestion"


@pytest.fixture(autouse=True)
def _default_budget(settings) -> None:  # type: ignore[no-untyped-def]
    """The defaults, whatever the environment says: 1,800 s, plus 90 s per MiB."""
    settings.ASSET_PROCESSING_TIMEOUT_SECONDS = 1800
    settings.ASSET_PROCESSING_SECONDS_PER_MB = 90


def budget_of(file_size: int) -> int:
    return 1800 + math.ceil(90 * file_size / MIB)


def uploaded_asset(dpo, name: str) -> str:  # type: ignore[no-untyped-def]
    response = upload(dpo.client, name, f"Records of {name} are kept for ten years.\n".encode())
    assert response.status_code == 201, response.content
    asset_id: str = response.json()["id"]
    return asset_id


def processing_since(asset_id: str, *, age: timedelta, file_size: int | None = None) -> None:
    """The asset as an attempt started `age` ago left it, past reading its file."""
    changes: dict[str, Any] = {"file_size": file_size} if file_size is not None else {}
    attempt_started(asset_id, ago=age, stage=STAGE_EMBEDDING, **changes)


@pytest.fixture
def sent_messages() -> Iterator[Callable[[str], list[dict[str, Any]]]]:
    """The headers of the processing messages in the real broker's queue for an asset.

    Each message read is removed, so that no worker of a later test receives it (a worker
    started by the suite purges the queues first anyway).
    """
    client = redis.Redis.from_url(settings.REDIS_URL)

    def messages_of(asset_id: str) -> list[dict[str, Any]]:
        found = []
        for raw in client.lrange(QUEUE, 0, -1):
            headers: dict[str, Any] = json.loads(raw)["headers"]
            if headers.get("task") == process_asset_task.name and asset_id in str(
                headers.get("argsrepr")
            ):
                client.lrem(QUEUE, 1, raw)
                found.append(headers)
        return found

    yield messages_of
    client.close()


def test_a_large_file_within_its_budget_is_not_taken_over_while_a_small_one_is(dpo):
    large_id = uploaded_asset(dpo, "large.txt")
    small_id = uploaded_asset(dpo, "small.txt")
    # An hour: past the small file's budget (1,801 s) and grace, well within the large one's.
    processing_since(large_id, age=timedelta(hours=1), file_size=LARGE)
    processing_since(small_id, age=timedelta(hours=1))

    with pytest.raises(LeaseHeldError) as busy:
        ingestion.asset_process(asset_id=large_id)
    taken_over = ingestion.asset_process(asset_id=small_id)

    assert LARGE_BUDGET - 3600 < busy.value.seconds_left <= LARGE_BUDGET - 3600 + 60
    assert Asset.objects.get(pk=large_id).status == AssetStatus.PROCESSING
    assert taken_over is not None and taken_over.status == AssetStatus.COMPLETED


def test_the_sweep_takes_back_a_small_file_stuck_past_its_budget_but_not_a_large_one(
    dpo, monkeypatch, django_capture_on_commit_callbacks
):
    large_id = uploaded_asset(dpo, "large.txt")
    small_id = uploaded_asset(dpo, "small.txt")
    # An hour: past the small file's budget (1,801 s) and grace, well within the large one's.
    processing_since(large_id, age=timedelta(hours=1), file_size=LARGE)
    processing_since(small_id, age=timedelta(hours=1))
    sent: list[str] = []
    monkeypatch.setattr(process_asset_task, "delay", sent.append)

    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_background_work_task()["asset"]["requeued"] == 1

    assert Asset.objects.get(pk=small_id).lease_state == LeaseState.QUEUED
    assert sent == [small_id]
    assert Asset.objects.get(pk=large_id).lease_state == LeaseState.LEASED

    # Past its own budget and grace (10,860 s), the large one is taken back too; one whose
    # attempts are spent is FAILED: no asset stays PROCESSING for good.
    processing_since(large_id, age=timedelta(hours=3, minutes=2))
    Asset.objects.filter(pk=large_id).update(attempts=MAX_PROCESSING_ATTEMPTS)
    assert sweep_background_work_task()["asset"]["failed"] == 1
    large = Asset.objects.get(pk=large_id)
    assert large.status == AssetStatus.FAILED
    assert large.error_code == "EXTRACTION_FAILED"
    assert large.error_message == (
        f"Processing was tried {MAX_PROCESSING_ATTEMPTS} times without finishing."
    )


def test_the_upload_enqueues_its_processing_with_the_files_time_limits(
    dpo, sent_messages, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        asset_id = uploaded_asset(dpo, "register.txt")
    budget = budget_of(Asset.objects.get(pk=asset_id).file_size)

    [message] = sent_messages(asset_id)

    assert message["timelimit"] == [budget + HARD_LIMIT_GRACE, budget]


def test_a_stranded_large_upload_is_enqueued_again_with_its_own_time_limits(dpo, sent_messages):
    asset_id = uploaded_asset(dpo, "large.txt")
    Asset.objects.filter(pk=asset_id).update(
        file_size=LARGE, due_at=timezone.now() - timedelta(minutes=6)
    )

    assert sweep_background_work_task()["asset"]["resent"] == 1

    [message] = sent_messages(asset_id)
    assert message["timelimit"] == [LARGE_BUDGET + HARD_LIMIT_GRACE, LARGE_BUDGET]


def test_a_delivery_while_a_large_file_is_processed_looks_again_with_its_limits(dpo, sent_messages):
    asset_id = uploaded_asset(dpo, "large.txt")
    processing_since(asset_id, age=timedelta(hours=1), file_size=LARGE)

    process_asset_task(asset_id)  # as a worker runs it

    [message] = sent_messages(asset_id)
    assert message["timelimit"] == [LARGE_BUDGET + HARD_LIMIT_GRACE, LARGE_BUDGET]
    assert message["eta"] is not None  # once the running attempt may be taken over
    assert Asset.objects.get(pk=asset_id).status == AssetStatus.PROCESSING


def test_a_retry_keeps_the_time_limits_of_the_message_it_retries(dpo, sent_messages):
    asset_id = uploaded_asset(dpo, "large.txt")
    Asset.objects.filter(pk=asset_id).update(file_size=LARGE)
    limits = [LARGE_BUDGET + HARD_LIMIT_GRACE, LARGE_BUDGET]
    # The request of a worker that runs the first message (as Celery fills it in).
    process_asset_task.push_request(
        id=str(uuid.uuid4()), args=[asset_id], kwargs={}, retries=0, called_directly=False,
        timelimit=tuple(limits), delivery_info={"exchange": "", "routing_key": QUEUE},
    )  # fmt: skip
    try:
        process_asset_task.retry(countdown=5, throw=False)
    finally:
        process_asset_task.pop_request()

    [message] = sent_messages(asset_id)
    assert message["timelimit"] == limits
    assert message["retries"] == 1


def test_an_asset_out_of_time_is_failed_with_its_own_budget_in_the_message(dpo, monkeypatch):
    asset_id = uploaded_asset(dpo, "large.txt")
    Asset.objects.filter(pk=asset_id).update(file_size=LARGE)

    def out_of_time(texts):  # type: ignore[no-untyped-def]
        raise SoftTimeLimitExceeded()  # what Celery raises in the task at its soft limit

    monkeypatch.setattr(embedding_provider(), "embed_documents", out_of_time)

    process_asset_task.apply(args=(asset_id,))

    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
    assert asset.error_message == (
        "Processing took longer than the 10800 seconds allowed for a file of 100.0 MB."
    )


def test_an_asset_whose_run_was_killed_at_the_hard_limit_says_so_too(dpo):
    asset_id = uploaded_asset(dpo, "large.txt")
    processing_since(asset_id, age=timedelta(hours=3), file_size=LARGE)
    error = TimeLimitExceeded(LARGE_BUDGET + HARD_LIMIT_GRACE)

    # What Celery calls when it killed a run at its hard limit (Request.on_timeout).
    process_asset_task.on_failure(error, str(uuid.uuid4()), (asset_id,), {}, None)

    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert "the 10800 seconds allowed for a file of 100.0 MB" in asset.error_message


def test_the_ingestion_keeps_the_files_budget_as_its_own_deadline(dpo, monkeypatch):
    asset_id = uploaded_asset(dpo, "large.txt")
    Asset.objects.filter(pk=asset_id).update(file_size=50 * MIB)  # budget: 1,800 + 4,500 s
    store_batch = ingestion._store_batch
    seconds_left: list[float] = []

    def store_and_record(asset, batch, count, *, deadline):  # type: ignore[no-untyped-def]
        seconds_left.append(deadline - time.monotonic())
        return store_batch(asset, batch, count, deadline=deadline)

    monkeypatch.setattr(ingestion, "_store_batch", store_and_record)

    ingestion.asset_process(asset_id=asset_id)

    assert seconds_left
    assert 1800 + 4500 - 600 < seconds_left[0] <= 1800 + 4500
