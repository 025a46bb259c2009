"""Assets ingested at once in one process share the model's batches (as in the threads pool
of a worker): each chunk still goes to its own asset, and one asset's failure stays its own."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from django.db import connection

from assets import embedding_batcher, ingestion
from assets.models import Asset, AssetChunk, AssetStatus
from assets.processing.embeddings import HashingEmbeddingProvider
from assets.tasks import process_asset_task
from tests.assets.conftest import upload

# Transactional: each asset is processed in a thread of its own, with its own connection.
pytestmark = pytest.mark.django_db(transaction=True)


def register(marker: str, *, poison: bool = False) -> bytes:
    """About 12 chunks, every line naming ``marker`` (and one refused line if ``poison``)."""
    lines = [f"{marker} processing activity {n}: retention of staff records." for n in range(180)]
    if poison:
        lines[90] = "POISON " + lines[90]
    return ("\n".join(lines) + "\n").encode()


class RefusingProvider(HashingEmbeddingProvider):
    """The lexical provider, recording each call's texts; texts with POISON are refused
    (ValueError), as an embedding service refuses an input."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        if any("POISON" in text for text in texts):
            raise ValueError("the embedding service refused an input")
        return super().embed_documents(texts)


class GatedBatcher(embedding_batcher.EmbeddingBatcher):
    """This process's queue, whose model runs only once ``expected`` requests are queued:
    the assets' chunks meet in one batch whatever order the threads run in."""

    def __init__(self, expected: int) -> None:
        super().__init__()
        self.expected, self.submitted, self.gate = expected, 0, threading.Event()

    def submit(self, texts: list[str], **options: Any):  # type: ignore[no-untyped-def]
        future = super().submit(texts, **options)
        self.submitted += 1
        if self.submitted >= self.expected:
            self.gate.set()
        return future

    def result(self, future, **options: Any):  # type: ignore[no-untyped-def]
        assert self.gate.wait(30)
        return super().result(future, **options)


@pytest.fixture
def shared_model(monkeypatch) -> tuple[RefusingProvider, GatedBatcher]:  # type: ignore[no-untyped-def]
    """One provider and one queue for every asset of the test (3 assets of one batch each);
    uploads are not enqueued: the test processes them itself, at once."""
    provider, batcher = RefusingProvider(), GatedBatcher(expected=3)
    monkeypatch.setattr(ingestion, "embedding_provider", lambda: provider)
    monkeypatch.setattr(ingestion, "embedding_batcher", lambda: batcher)
    monkeypatch.setattr(process_asset_task, "delay", lambda asset_id: None)
    return provider, batcher


def process_at_once(asset_ids: list[str]) -> dict[str, BaseException | None]:
    """``asset_process`` of each asset in its own thread, all at once; the error of each."""

    def run(asset_id: str) -> BaseException | None:
        try:
            ingestion.asset_process(asset_id=asset_id)
        except Exception as error:
            return error
        finally:
            connection.close()
        return None

    with ThreadPoolExecutor(max_workers=len(asset_ids)) as pool:
        return dict(zip(asset_ids, pool.map(run, asset_ids), strict=True))


def assert_chunks_are_its_own(asset_id: str, marker: str, others: list[str]) -> None:
    asset = Asset.objects.get(pk=asset_id)
    chunks = list(AssetChunk.objects.filter(asset_id=asset_id).order_by("index"))
    assert asset.status == AssetStatus.COMPLETED
    assert [chunk.index for chunk in chunks] == list(range(asset.chunk_count))
    assert asset.chunk_count > 5
    lexical = HashingEmbeddingProvider()
    for chunk in chunks:
        assert chunk.organization_id == asset.organization_id
        assert marker in chunk.text and not any(other in chunk.text for other in others)
        assert np.allclose(chunk.embedding, lexical.embed_documents([chunk.text])[0])


def test_assets_ingested_at_once_share_batches_and_each_chunk_is_written_to_its_own_asset(
    dpo, outsider, shared_model
):
    provider, batcher = shared_model
    markers = ["Lisbon", "Oslo", "Tallinn"]
    callers = [dpo, outsider, dpo]
    ids = [
        upload(caller.client, f"{marker}.txt", register(marker)).json()["id"]
        for caller, marker in zip(callers, markers, strict=True)
    ]

    errors = process_at_once(ids)

    assert errors == dict.fromkeys(ids)
    assert batcher.shared_batches_run == 1
    assert [all(marker in " ".join(call) for marker in markers) for call in provider.calls] == [
        True
    ]
    for asset_id, marker in zip(ids, markers, strict=True):
        assert_chunks_are_its_own(asset_id, marker, [m for m in markers if m != marker])
        find = dpo.client.get(f"/api/v1/assets/{asset_id}")
        if find.status_code == 200:  # the outsider's asset is not found by the dpo
            progress = find.json()["progress"]
            assert progress["chunksDone"] == progress["chunksTotal"] == find.json()["chunkCount"]
    # The organizations' searches see their own assets only.
    found = dpo.client.get("/api/v1/assets/search", {"q": "Oslo processing activity"}).json()
    assert {result["assetId"] for result in found["results"]} <= {ids[0], ids[2]}


def test_an_asset_refused_by_the_model_in_a_shared_batch_fails_alone(dpo, outsider, shared_model):
    provider, batcher = shared_model
    good = upload(dpo.client, "good.txt", register("Lisbon")).json()["id"]
    refused = upload(dpo.client, "refused.txt", register("Oslo", poison=True)).json()["id"]
    other = upload(outsider.client, "other.txt", register("Tallinn")).json()["id"]

    errors = process_at_once([good, refused, other])

    assert errors[good] is None and errors[other] is None
    assert isinstance(errors[refused], ValueError)
    assert batcher.shared_batches_run >= 1
    shared = " ".join(provider.calls[0])  # all three, then each alone
    assert all(marker in shared for marker in ["POISON", "Lisbon", "Tallinn"])
    assert_chunks_are_its_own(good, "Lisbon", ["Oslo", "Tallinn"])
    assert_chunks_are_its_own(other, "Tallinn", ["Lisbon", "Oslo"])
    # Handed back for the task's retry, nothing of it kept.
    assert Asset.objects.get(pk=refused).status == AssetStatus.UPLOADED
    assert not AssetChunk.objects.filter(asset_id=refused).exists()
