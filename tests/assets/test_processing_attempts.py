"""Processing attempts that overlap, are redelivered, fail or are lost (assets.ingestion)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from assets import ingestion
from assets.embedding import embedding_provider
from assets.models import Asset, AssetChunk, AssetStatus
from assets.tasks import MAX_RETRIES, process_asset_task
from assets.time_budget import GRACE_SECONDS, asset_budget_seconds
from common.tasks import sweep_background_work_task
from config.celery import app as celery_app
from tests.assets.conftest import process, upload

pytestmark = pytest.mark.django_db

# About 150 chunks: three embedding batches of 64.
REGISTER = "".join(f"Entry {n} of the register of processing activities.\n" for n in range(3000))


class InterruptingEmbedder:
    """The configured embedder, running `interruption` once, before its `call`-th batch."""

    def __init__(self, call: int, interruption: Callable[[], Any]) -> None:
        self.inner = embedding_provider()
        self.name = self.inner.name
        # Several batches per asset, whatever the configured provider's own size.
        self.preferred_batch_size = 64
        self.calls = 0
        self.call = call
        self.interruption: Callable[[], Any] | None = interruption

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.call and self.interruption is not None:
            interruption, self.interruption = self.interruption, None
            interruption()
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def take_over(asset_id: str) -> Asset:
    """A second attempt, as after a redelivery once the first one's lease expired."""
    Asset.objects.filter(pk=asset_id).update(lease_expires_at=timezone.now() - timedelta(hours=1))
    asset = ingestion.asset_process(asset_id=asset_id)
    assert asset is not None and asset.status == AssetStatus.COMPLETED
    return asset


def assert_consistent(asset_id: str) -> None:
    asset = Asset.objects.get(pk=asset_id)
    indexes = list(
        AssetChunk.objects.filter(asset_id=asset_id)
        .order_by("index")
        .values_list("index", flat=True)
    )
    assert asset.status == AssetStatus.COMPLETED
    assert asset.chunk_count > 64
    assert indexes == list(range(asset.chunk_count))


def test_an_attempt_taken_over_mid_way_stops_and_keeps_the_newer_attempts_chunks(dpo, monkeypatch):
    asset_id = upload(dpo.client, "register.txt", REGISTER.encode()).json()["id"]
    # The first attempt writes its first batch, then the second attempt runs from start to
    # end before the first one writes its second batch.
    embedder = InterruptingEmbedder(call=2, interruption=lambda: take_over(asset_id))
    monkeypatch.setattr(ingestion, "embedding_provider", lambda: embedder)

    assert ingestion.asset_process(asset_id=asset_id) is None

    assert_consistent(asset_id)


def test_an_attempt_taken_over_before_its_final_update_leaves_the_newer_result(dpo, monkeypatch):
    asset_id = upload(dpo.client, "register.txt", REGISTER.encode()).json()["id"]
    write_output = ingestion._write_output
    overtaken: list[bool] = []

    def write_then_be_overtaken(asset, kind):  # type: ignore[no-untyped-def]
        result = write_output(asset, kind)
        if not overtaken:
            overtaken.append(True)
            take_over(asset_id)
        return result

    monkeypatch.setattr(ingestion, "_write_output", write_then_be_overtaken)

    assert ingestion.asset_process(asset_id=asset_id) is None

    assert_consistent(asset_id)


def test_a_task_redelivered_while_the_first_run_goes_on_leaves_it_alone_and_looks_later(
    dpo, monkeypatch
):
    asset_id = upload(dpo.client, "register.txt", REGISTER.encode()).json()["id"]
    scheduled: list[tuple[Any, float]] = []
    monkeypatch.setattr(
        process_asset_task,
        "apply_async",
        lambda args, kwargs=None, countdown=None: scheduled.append((args, countdown)),
    )

    def redelivery() -> None:
        process_asset_task(asset_id)

    embedder = InterruptingEmbedder(call=2, interruption=redelivery)
    monkeypatch.setattr(ingestion, "embedding_provider", lambda: embedder)

    process(asset_id)

    assert_consistent(asset_id)
    [(args, countdown)] = scheduled
    assert args == (asset_id,)
    budget = asset_budget_seconds(file_size=Asset.objects.get(pk=asset_id).file_size)
    assert countdown > budget  # once the first run would have timed out
    assert countdown <= budget + GRACE_SECONDS


def test_a_task_is_not_redelivered_by_the_broker_while_the_longest_task_may_still_run():
    visibility_timeout = celery_app.conf.broker_transport_options["visibility_timeout"]

    assert visibility_timeout > settings.ASSET_PROCESSING_TIMEOUT_SECONDS
    assert visibility_timeout > settings.GENERATION_TIMEOUT_SECONDS


def test_a_failure_that_is_not_the_files_fault_shows_no_internal_error_text(dpo, monkeypatch):
    asset_id = upload(dpo.client, "notes.txt", b"Short notes.\n").json()["id"]

    def unreachable(texts):  # type: ignore[no-untyped-def]
        raise ConnectionError("connect to 10.0.4.2:5432 as app_user failed")

    monkeypatch.setattr(embedding_provider(), "embed_documents", unreachable)

    process_asset_task.apply(args=(asset_id,), retries=MAX_RETRIES)

    asset = Asset.objects.get(pk=asset_id)
    assert asset.status == AssetStatus.FAILED
    assert asset.error_code == "EXTRACTION_FAILED"
    assert asset.error_message == "The file could not be processed; the error was logged."
    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert "10.0.4.2" not in str(body["error"])


def test_an_unexpected_error_is_retried_after_the_attempt_hands_the_asset_back(dpo, monkeypatch):
    asset_id = upload(dpo.client, "notes.txt", b"Short notes.\n").json()["id"]
    failures = [ConnectionError("embedding service restarting")]
    embed_documents = embedding_provider().embed_documents

    def flaky(texts):  # type: ignore[no-untyped-def]
        if failures:
            raise failures.pop()
        return embed_documents(texts)

    monkeypatch.setattr(embedding_provider(), "embed_documents", flaky)
    with pytest.raises(ConnectionError):
        ingestion.asset_process(asset_id=asset_id)
    assert Asset.objects.get(pk=asset_id).status == AssetStatus.UPLOADED

    retried = process(asset_id)  # the task's retry, moments later

    assert retried.status == AssetStatus.COMPLETED
    assert retried.chunk_count == AssetChunk.objects.filter(asset_id=asset_id).count() == 1


def test_an_upload_whose_task_was_lost_is_enqueued_again_once_per_interval(dpo, monkeypatch):
    stranded_id = upload(dpo.client, "old.txt", b"Uploaded while the broker was down.\n")
    recent_id = upload(dpo.client, "new.txt", b"Just uploaded.\n").json()["id"]
    stranded_id = stranded_id.json()["id"]
    Asset.objects.filter(pk=stranded_id).update(due_at=timezone.now() - timedelta(minutes=6))
    enqueued: list[str] = []
    monkeypatch.setattr(process_asset_task, "delay", enqueued.append)

    assert sweep_background_work_task()["asset"]["resent"] == 1
    assert sweep_background_work_task()["asset"]["resent"] == 0  # not before the next interval

    assert enqueued == [stranded_id]
    assert recent_id not in enqueued
    assert process(stranded_id).status == AssetStatus.COMPLETED


def test_an_upload_the_broker_refused_for_an_hour_ends_failed_instead_of_waiting_for_good(dpo):
    asset_id = upload(dpo.client, "notes.txt", b"Uploaded while the broker was down.\n")
    asset_id = asset_id.json()["id"]
    Asset.objects.filter(pk=asset_id).update(due_at=timezone.now() - timedelta(minutes=61))

    assert sweep_background_work_task()["asset"]["failed"] == 1

    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"
    assert body["error"]["code"] == "SERVICE_UNAVAILABLE"
    assert "upload the file again" in body["error"]["message"]
