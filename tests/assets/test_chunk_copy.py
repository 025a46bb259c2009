"""Chunks written with COPY (assets.chunk_copy), as the ingestion stores its batches."""

from __future__ import annotations

import time

import numpy as np
import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import IntegrityError, connection, transaction

from assets import ingestion
from assets.chunk_copy import COLUMNS, NewChunk, copy_chunks
from assets.models import Asset, AssetChunk, AssetStatus
from assets.processing import Chunk
from assets.processing.embeddings import HashingEmbeddingProvider
from common.background.fields import LeaseState
from tests.assets.conftest import process, upload
from tests.assets.factories import AssetFactory
from tests.assets.test_progress import REGISTER

pytestmark = pytest.mark.django_db

DIMENSIONS = HashingEmbeddingProvider().dimensions
# Texts that an escaping bug of a COPY format would alter: tabs and newlines (column and row
# separators of the text format), backslashes (its escape), quotes, NUL (which PostgreSQL
# text cannot hold: left out), characters outside the BMP, and "\N" (the text format's NULL).
TEXTS = [
    "plain text of a processing register",
    "a\ttab, a\nnewline, a\r\ncarriage return",
    "back\\slash \\N \\t \\\\ and a trailing backslash\\",
    "quotes ' \" `` and a NUL\x00 in the middle\x00",
    "Übermittlung an Drittländer: 東京, Zürich, Москва, 🙂 emoji",
    "",
]
LOCATIONS = ["page 3", "sheet Revenue 2024", "slide 12", "header", None, "page 12345678901"]


def vectors(count: int, seed: int = 1) -> list[list[float]]:
    rows = np.random.default_rng(seed).normal(size=(count, DIMENSIONS))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).tolist()


def columns(asset: Asset) -> list[dict[str, object]]:
    """Every column of the asset's chunks but the ids, in index order, vectors as text."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT index, text, location, page_number, sheet_name, slide_number, "
            "embedding::text, embedding_model, embedding_next::text, embedding_next_model, "
            "organization_id, search_vector::text FROM assets_assetchunk "
            "WHERE asset_id = %s ORDER BY index",
            [asset.pk],
        )
        names = [column.name for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def bulk_create_as_before(asset: Asset, chunks: list[NewChunk]) -> None:
    """What ``_store_batch`` wrote before COPY: one bulk_create of AssetChunk rows."""
    AssetChunk.objects.bulk_create(
        AssetChunk(
            asset_id=asset.pk,
            organization_id=asset.organization_id,
            index=chunk.index,
            text=chunk.text.replace("\x00", ""),
            location=(chunk.location or "")[:200],
            embedding=chunk.embedding,
            embedding_model=chunk.embedding_model,
            **AssetChunk.location_fields(chunk.location),
        )
        for chunk in chunks
    )


def new_chunks() -> list[NewChunk]:
    embeddings = vectors(len(TEXTS) + 1)
    long_location = "sheet " + "S" * 300
    locations = [*LOCATIONS, long_location]
    return [
        NewChunk(n, text, locations[n % len(locations)], embeddings[n], "hashing-384-v1")
        for n, text in enumerate([*TEXTS, "a chunk on a sheet with a very long name"])
    ]


def test_it_writes_the_rows_bulk_create_wrote() -> None:
    copied, inserted = AssetFactory(), AssetFactory()
    chunks = new_chunks()

    with transaction.atomic():
        written = copy_chunks(
            asset_id=copied.pk, organization_id=copied.organization_id, chunks=chunks
        )
    bulk_create_as_before(inserted, chunks)

    assert written == len(chunks)
    by_copy, by_insert = columns(copied), columns(inserted)
    for row in (*by_copy, *by_insert):
        row.pop("organization_id")
    assert by_copy == by_insert
    assert [row["text"] for row in by_copy][: len(TEXTS)] == [t.replace("\x00", "") for t in TEXTS]
    assert by_copy[0]["page_number"] == 3
    assert by_copy[1]["sheet_name"] == "Revenue 2024"
    assert by_copy[2]["slide_number"] == 12
    assert len(by_copy[6]["location"]) == 200 and len(by_copy[6]["sheet_name"]) == 200


def test_its_chunks_belong_to_the_organization_given() -> None:
    asset = AssetFactory()

    with transaction.atomic():
        copy_chunks(asset_id=asset.pk, organization_id=asset.organization_id, chunks=new_chunks())

    assert set(
        AssetChunk.objects.filter(asset=asset).values_list("organization_id", flat=True)
    ) == {asset.organization_id}


@pytest.mark.parametrize("kind", ["list", "float32 array", "float64 array"])
def test_a_vector_comes_back_as_the_float4_values_it_was_given(kind: str) -> None:
    asset = AssetFactory()
    given = vectors(3, seed=7)
    given[1] = [1e-30, -3.4e38, 0.1, *given[1][3:]]  # tiny, huge, not exact in binary
    as_given = {
        "list": lambda v: v,
        "float32 array": lambda v: np.asarray(v, dtype=np.float32),
        "float64 array": np.asarray,
    }[kind]

    with transaction.atomic():
        copy_chunks(
            asset_id=asset.pk,
            organization_id=asset.organization_id,
            chunks=[NewChunk(n, f"t {n}", None, as_given(v), "m") for n, v in enumerate(given)],
        )

    stored = [
        np.asarray(vector)
        for vector in AssetChunk.objects.filter(asset=asset)
        .order_by("index")
        .values_list("embedding", flat=True)
    ]
    for vector, expected in zip(stored, given, strict=True):
        np.testing.assert_array_equal(
            vector.astype(np.float32), np.asarray(expected, dtype=np.float32)
        )


def test_the_text_of_a_copied_chunk_is_found_by_full_text_search() -> None:
    asset = AssetFactory()

    with transaction.atomic():
        copy_chunks(asset_id=asset.pk, organization_id=asset.organization_id, chunks=new_chunks())

    found = AssetChunk.objects.filter(
        organization_id=asset.organization_id,
        search_vector=SearchQuery("Übermittlung Zürich", config="simple"),
    )
    assert [chunk.index for chunk in found] == [4]


def test_it_writes_every_column_of_the_table_but_the_id_and_the_generated_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'assets_assetchunk' AND is_generated = 'NEVER' "
            "AND column_name <> 'id'"
        )
        table = {name for (name,) in cursor.fetchall()}

    assert table == set(COLUMNS)


def test_a_batch_that_fails_writes_none_of_its_rows() -> None:
    asset = AssetFactory()
    chunks = new_chunks()
    chunks.append(NewChunk(0, "the index of the first chunk again", None, vectors(1)[0], "m"))

    with pytest.raises(IntegrityError), transaction.atomic():
        copy_chunks(asset_id=asset.pk, organization_id=asset.organization_id, chunks=chunks)

    assert not AssetChunk.objects.filter(asset=asset).exists()


def claimed_asset() -> Asset:
    """An uploaded asset whose processing attempt holds its lease (as after the claim)."""
    uploaded = AssetFactory(status=AssetStatus.UPLOADED, lease_state=LeaseState.QUEUED)
    asset = ingestion._start_attempt(uploaded.pk)
    assert asset is not None
    return asset


def chunks_of(count: int) -> list[Chunk]:
    return [Chunk(n, f"processing activity {n}: staff records", "page 1") for n in range(count)]


def test_the_batches_of_an_attempt_holding_its_lease_are_written() -> None:
    asset = claimed_asset()

    count = ingestion.store_chunks(
        asset, chunks_of(150), embedder=HashingEmbeddingProvider(), deadline=time.monotonic() + 60
    )

    assert count == 150
    assert AssetChunk.objects.filter(asset=asset).count() == 150
    assert Asset.objects.get(pk=asset.pk).progress_chunks_done == 150


def test_an_attempt_that_lost_its_lease_writes_nothing() -> None:
    asset = claimed_asset()
    Asset.objects.filter(pk=asset.pk).update(lease_token="00000000-0000-0000-0000-000000000001")

    with pytest.raises(ingestion.AttemptSupersededError):
        ingestion.store_chunks(
            asset,
            chunks_of(10),
            embedder=HashingEmbeddingProvider(),
            deadline=time.monotonic() + 60,
        )

    assert not AssetChunk.objects.filter(asset=asset).exists()
    assert Asset.objects.get(pk=asset.pk).progress_chunks_done == 0


class SmallBatches(HashingEmbeddingProvider):
    """The lexical provider, asking for batches of 7 texts and recording each batch's size."""

    preferred_batch_size = 7

    def __init__(self) -> None:
        super().__init__()
        self.batch_sizes: list[int] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.batch_sizes.append(len(texts))
        return super().embed_documents(texts)


def test_the_ingestion_hands_the_model_batches_of_the_providers_preferred_size(dpo, monkeypatch):
    embedder = SmallBatches()
    monkeypatch.setattr(ingestion, "embedding_provider", lambda: embedder)
    response = upload(dpo.client, "register.txt", REGISTER.encode())

    asset = process(response.json()["id"])

    assert asset.status == AssetStatus.COMPLETED
    assert max(embedder.batch_sizes) == 7
    assert sum(embedder.batch_sizes) == asset.chunk_count == asset.chunks.count()


def test_the_chunks_of_an_asset_are_found_through_the_unique_index_alone() -> None:
    """No second btree on asset_id to maintain with every write (migration 0012): the
    (asset_id, index) one serves the lookups by asset (discard_output, cascade deletes)."""
    asset = AssetFactory()
    with transaction.atomic():
        copy_chunks(asset_id=asset.pk, organization_id=asset.organization_id, chunks=new_chunks())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'assets_assetchunk' "
            "AND indexdef LIKE '%%btree (asset_id)'"
        )
        single_column = cursor.fetchall()
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN DELETE FROM assets_assetchunk WHERE asset_id = %s", [asset.pk])
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert single_column == []
    assert "asset_chunk_unique_index" in plan
