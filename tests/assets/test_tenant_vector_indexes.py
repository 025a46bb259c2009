"""Per-organization vector indexes (assets.tenant_indexes) and the vector ranker that uses them.

An organization at or above TENANT_VECTOR_INDEX_MIN_CHUNKS gets its own partial HNSW index,
built CONCURRENTLY (so these tests commit: ``transaction=True``); a smaller one is ranked
exactly over its own chunks. The plans are asserted as the other index tests do.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from assets import search, tenant_indexes
from assets.models import Asset, AssetChunk, AssetStatus, TenantVectorIndex
from assets.selectors import chunk_search
from tests.assets.factories import AssetFactory
from tests.factories import OrganizationFactory

pytestmark = pytest.mark.django_db(transaction=True)

THRESHOLD = 40
DIMENSIONS = settings.EMBEDDING_DIMENSIONS


@pytest.fixture(autouse=True)
def _threshold(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    settings.TENANT_VECTOR_INDEX_MIN_CHUNKS = THRESHOLD
    yield
    # A flush empties the tables but keeps the indexes: drop this test's.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'assets_assetchunk' "
            "AND (indexname LIKE 'asset\\_chunk\\_hnsw\\_%' "
            "OR indexname LIKE 'asset\\_chunk\\_next\\_hnsw\\_%')"
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f"DROP INDEX {name}")


def _organization_with_chunks(count: int, *, seed: int, assets: int = 2):  # type: ignore[no-untyped-def]
    """An organization with ``count`` chunks of random unit vectors over ``assets``
    COMPLETED assets (the counts recorded on the assets, as ingestion does)."""
    organization = OrganizationFactory()
    rng = np.random.default_rng(seed)
    rows = []
    made = [
        AssetFactory(organization=organization, status=AssetStatus.COMPLETED) for _ in range(assets)
    ]
    for number in range(count):
        vector = rng.normal(size=DIMENSIONS)
        vector /= np.linalg.norm(vector)
        asset = made[number % assets]
        rows.append(
            AssetChunk(
                asset=asset, organization=organization, index=number // assets,
                text=f"chunk {number} of {organization.slug}", embedding=vector,
            )
        )  # fmt: skip
    AssetChunk.objects.bulk_create(rows)
    for asset in made:
        Asset.objects.filter(pk=asset.pk).update(chunk_count=asset.chunks.count())
    return organization


def _index_definition(name: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [name])
        row = cursor.fetchone()
    return row[0] if row else None


def _vector_plan(organization_id: object) -> str:
    """EXPLAIN of the search SQL the service chooses for the organization (vector ranker)."""
    params = search.search_parameters(
        organization_id=organization_id, query="", k=10,
        vector=[1.0] + [0.0] * (DIMENSIONS - 1), mode=search.SearchMode.VECTOR,
    )  # fmt: skip
    sql = search._search_sql(organization_id=organization_id, asset_id=None, use_vector=True)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_it_builds_a_partial_index_concurrently_for_an_organization_at_the_threshold_only():
    large = _organization_with_chunks(THRESHOLD, seed=1)
    small = _organization_with_chunks(THRESHOLD - 1, seed=2)
    assert not connection.in_atomic_block  # so the build is CONCURRENT

    outcome = tenant_indexes.reconcile()

    name = tenant_indexes.index_name(large.pk)
    assert outcome.built == [name]
    definition = _index_definition(name)
    assert definition is not None
    assert "USING hnsw (embedding vector_cosine_ops)" in definition, definition
    assert f"WHERE (organization_id = '{large.pk}'::uuid)" in definition, definition
    assert name == "asset_chunk_hnsw_" + large.pk.hex
    row = TenantVectorIndex.objects.get(organization=large)
    assert (row.index_name, row.state, row.chunks_when_built) == (name, "READY", THRESHOLD)
    assert row.built_at is not None
    assert _index_definition(tenant_indexes.index_name(small.pk)) is None
    assert not TenantVectorIndex.objects.filter(organization=small).exists()
    # Nothing left to do.
    assert tenant_indexes.reconcile().built == []


def test_it_drops_the_index_of_a_deleted_organization():
    large = _organization_with_chunks(THRESHOLD, seed=3)
    call_command("tenant_vector_indexes")
    name = tenant_indexes.index_name(large.pk)
    assert _index_definition(name) is not None

    large.delete()
    outcome = tenant_indexes.reconcile()

    assert outcome.dropped == [name]
    assert _index_definition(name) is None


def test_an_interrupted_build_is_built_again():
    large = _organization_with_chunks(THRESHOLD, seed=4)
    tenant_indexes.reconcile()
    name = tenant_indexes.index_name(large.pk)
    # As a worker killed mid-build leaves it: an invalid index, a row still BUILDING.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = %s::regclass", [name]
        )
    TenantVectorIndex.objects.filter(organization=large).update(state="BUILDING")
    assert not tenant_indexes.has_ready_index(large.pk)

    assert tenant_indexes.reconcile().built == [name]

    assert tenant_indexes.has_ready_index(large.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT indisvalid FROM pg_index WHERE indexrelid = %s::regclass", [name])
        assert cursor.fetchone() == (True,)


def test_an_ingestion_that_reaches_the_threshold_asks_for_the_index():
    organization = _organization_with_chunks(THRESHOLD - 1, seed=5)
    assert not tenant_indexes.needs_index(organization_id=organization.pk)

    asset = AssetFactory(organization=organization, status=AssetStatus.COMPLETED, chunk_count=1)

    assert tenant_indexes.needs_index(organization_id=asset.organization_id)
    tenant_indexes.reconcile(organization_id=organization.pk)
    assert not tenant_indexes.needs_index(organization_id=organization.pk)


def test_a_large_organizations_vector_ranker_uses_its_own_partial_index_only():
    first = _organization_with_chunks(THRESHOLD * 2, seed=6)
    second = _organization_with_chunks(THRESHOLD * 2, seed=7)
    tenant_indexes.reconcile()

    plan = _vector_plan(first.pk)

    assert tenant_indexes.index_name(first.pk) in plan, plan
    assert tenant_indexes.index_name(second.pk) not in plan, plan
    assert "Seq Scan on assets_assetchunk" not in plan, plan


def test_a_small_organizations_vector_ranker_reads_only_its_own_chunks_without_hnsw():
    large = _organization_with_chunks(THRESHOLD * 2, seed=8)
    small = _organization_with_chunks(10, seed=9)
    tenant_indexes.reconcile()
    assert tenant_indexes.has_ready_index(large.pk)

    plan = _vector_plan(small.pk)

    assert "hnsw" not in plan, plan
    assert "Seq Scan on assets_assetchunk" not in plan, plan
    chunk_scans = [line for line in plan.splitlines() if "on assets_assetchunk" in line]
    assert chunk_scans, plan
    # Found through its completed assets (the foreign key's index), every one compared.
    assert "Index Cond: (asset_id = completed_assets.id)" in plan, plan


def test_an_organization_whose_index_is_building_is_ranked_exactly():
    large = _organization_with_chunks(THRESHOLD, seed=10)
    tenant_indexes.reconcile()
    TenantVectorIndex.objects.filter(organization=large).update(state="BUILDING")

    plan = _vector_plan(large.pk)

    assert "hnsw" not in plan, plan


def _exact(organization, vector: np.ndarray, k: int) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    chunks = list(
        AssetChunk.objects.filter(organization=organization).values_list(
            "asset_id", "index", "embedding"
        )
    )
    distances = [1 - float(np.dot(vector, np.array(embedding))) for _, _, embedding in chunks]
    order = np.argsort(distances, kind="stable")[:k]
    return [(str(chunks[i][0]), chunks[i][1]) for i in order]


def test_a_small_organizations_vector_search_equals_exact_search():
    _organization_with_chunks(THRESHOLD * 2, seed=11)
    small = _organization_with_chunks(30, seed=12, assets=3)
    tenant_indexes.reconcile()
    rng = np.random.default_rng(13)

    for _ in range(5):
        query = rng.normal(size=DIMENSIONS)
        query /= np.linalg.norm(query)
        hits = chunk_search(organization_id=small.pk, vector=query.tolist(), k=10)

        assert [(hit.asset_id, hit.chunk_index) for hit in hits] == _exact(small, query, 10)


def test_no_search_finds_another_organizations_chunks():
    large = _organization_with_chunks(THRESHOLD * 2, seed=14)
    small = _organization_with_chunks(10, seed=15)
    other_large = _organization_with_chunks(THRESHOLD, seed=16)
    tenant_indexes.reconcile()
    assert tenant_indexes.has_ready_index(other_large.pk)

    for organization in (large, small, other_large):
        own = {str(asset_id) for asset_id in organization.assets.values_list("id", flat=True)}
        # Every other organization's vectors as queries: their own chunks are nearest.
        others = AssetChunk.objects.exclude(organization=organization).values_list(
            "embedding", flat=True
        )
        for vector in list(others)[:20]:
            hits = chunk_search(organization_id=organization.pk, vector=list(vector), k=10)
            assert hits
            assert {hit.asset_id for hit in hits} <= own


def test_the_processing_task_asks_for_the_index_of_an_organization_past_the_threshold(
    dpo, settings, monkeypatch
):
    from assets import tasks
    from tests.assets.conftest import upload

    asked: list[str] = []
    monkeypatch.setattr(tasks.reconcile_tenant_vector_indexes_task, "delay", asked.append)
    settings.TENANT_VECTOR_INDEX_MIN_CHUNKS = 2
    first = upload(dpo.client, "first.txt", b"Badge readers log entries.\n").json()["id"]
    tasks.process_asset_task(first)
    assert asked == []  # one chunk

    second = upload(dpo.client, "second.txt", b"Visitors sign the register.\n").json()["id"]
    tasks.process_asset_task(second)

    assert asked == [str(dpo.organization.pk)]
    tasks.reconcile_tenant_vector_indexes_task(*asked)
    assert tenant_indexes.has_ready_index(dpo.organization.pk)
