"""Progress of an ingestion in the find response (assets.progress, docs/API.md Assets)."""

from __future__ import annotations

from typing import Any

import pytest

from assets import ingestion
from assets.embedding import embedding_provider
from tests.assets.conftest import process, upload

pytestmark = pytest.mark.django_db

# About 150 chunks of the default size: with batches of 16, ten embedding batches.
REGISTER = "".join(f"Entry {n} of the register of processing activities.\n" for n in range(3000))


class ObservingEmbedder:
    """The configured embedder, in batches of 16; before each batch, reads the asset's find
    response."""

    preferred_batch_size = 16

    def __init__(self, client: Any, asset_id: str) -> None:
        self.inner = embedding_provider()
        self.name = self.inner.name
        self.client, self.asset_id = client, asset_id
        self.seen: list[dict[str, Any]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        response = self.client.get(f"/api/v1/assets/{self.asset_id}")
        assert response.status_code == 200
        body = response.json()
        assert body["status"] == "PROCESSING"
        self.seen.append(body["progress"])
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def test_the_find_response_shows_the_progress_of_each_batch(dpo, monkeypatch):
    response = upload(dpo.client, "register.txt", REGISTER.encode())
    asset_id = response.json()["id"]
    assert response.json()["progress"] is None  # UPLOADED: not started
    embedder = ObservingEmbedder(dpo.client, asset_id)
    monkeypatch.setattr(ingestion, "embedding_provider", lambda: embedder)

    asset = process(asset_id)

    seen = embedder.seen
    assert len(seen) >= 5
    assert seen[0]["stage"] == "chunking" and seen[0]["chunksDone"] == 0
    assert all(progress["stage"] == "embedding" for progress in seen[1:])
    done = [progress["chunksDone"] for progress in seen]
    assert done == [16 * n for n in range(len(seen))]  # one step per stored batch
    for progress in seen[1:]:
        assert progress["chunksTotal"] > progress["chunksDone"]
        assert 0 < progress["percent"] < 100
        assert progress["etaSeconds"] is not None and progress["etaSeconds"] >= 0
    percents = [progress["percent"] for progress in seen]
    assert percents == sorted(percents) and percents[-1] > percents[1]

    final = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert final["status"] == "COMPLETED"
    assert final["progress"] == {
        "stage": "indexing",
        "chunksTotal": asset.chunk_count,
        "chunksDone": asset.chunk_count,
        "percent": 100,
        "etaSeconds": 0,
    }


def test_a_format_whose_size_says_nothing_of_its_text_has_no_total(dpo, monkeypatch):
    from assets.models import Asset, AssetStatus
    from assets.progress import asset_progress

    response = upload(dpo.client, "register.txt", REGISTER.encode())
    asset = Asset.objects.get(pk=response.json()["id"])
    asset.status = AssetStatus.PROCESSING
    asset.processing_stage = "embedding"
    asset.progress_chunks_done = 32
    asset.media_type = "application/pdf"
    asset.progress_chunks_total = None
    assert asset_progress(asset) == {
        "stage": "embedding",
        "chunksTotal": None,
        "chunksDone": 32,
        "percent": None,
        "etaSeconds": None,
    }


def test_a_failed_asset_has_no_progress(dpo):
    from assets.ingestion import asset_mark_failed

    asset_id = upload(dpo.client, "register.txt", REGISTER.encode()).json()["id"]
    asset_mark_failed(asset_id=asset_id, code="EXTRACTION_FAILED", message="unreadable")
    body = dpo.client.get(f"/api/v1/assets/{asset_id}").json()
    assert body["status"] == "FAILED"
    assert body["progress"] is None
