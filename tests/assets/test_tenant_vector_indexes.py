"""Per-organization vector indexes (assets.tenant_indexes) and the vector ranker that uses them.

An organization at or above TENANT_VECTOR_INDEX_MIN_CHUNKS gets its own partial HNSW index,
built CONCURRENTLY (so these tests commit: ``transaction=True``); a smaller one is ranked
exactly over its own chunks. The index covers the chunks up to its watermark; those written
since (the tail) are in no graph, ranked exactly beside it, until the tail reaches
TENANT_VECTOR_INDEX_REBUILD_FRACTION of the index and the reconcile rebuilds it. The plans
are asserted as the other index tests do.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from assets import reembedding, search, tenant_indexes
from assets.models import Asset, AssetChunk, AssetStatus, TenantVectorIndex
from assets.selectors import chunk_search
from tests.assets.factories import AssetFactory
from tests.factories import OrganizationFactory
from tests.support.search_queries import captured_statements

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


def _add_tail(organization, count: int, *, seed: int):  # type: ignore[no-untyped-def]
    """A COMPLETED asset of ``count`` chunks written now (after any index build): the ids
    of its chunks, in order."""
    asset = AssetFactory(organization=organization, status=AssetStatus.COMPLETED)
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(count, DIMENSIONS))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    AssetChunk.objects.bulk_create(
        AssetChunk(asset=asset, organization=organization, index=number,
                   text=f"late chunk {number}", embedding=vector)
        for number, vector in enumerate(vectors)
    )  # fmt: skip
    Asset.objects.filter(pk=asset.pk).update(chunk_count=count)
    return list(asset.chunks.order_by("id").values_list("id", flat=True))


def _last_chunk_id(organization) -> int:  # type: ignore[no-untyped-def]
    return AssetChunk.objects.filter(organization=organization).order_by("-id").first().id  # type: ignore[union-attr]


def _index_bytes(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_relation_size(%s::regclass)", [name])
        return int(cursor.fetchone()[0])


def _index_definition(name: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [name])
        row = cursor.fetchone()
    return row[0] if row else None


def _vector_plan(organization_id: object) -> str:
    """EXPLAIN of the search SQL the service chooses for the organization (vector ranker)."""
    sql, params = search.search_statement(
        organization_id=organization_id, query="", k=10,
        vector=[1.0] + [0.0] * (DIMENSIONS - 1), mode=search.SearchMode.VECTOR,
    )  # fmt: skip
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
    # Through the organization's last chunk: the watermark is in the predicate.
    last = _last_chunk_id(large)
    assert f"WHERE ((organization_id = '{large.pk}'::uuid) AND (id <= {last}))" in definition
    assert name == "asset_chunk_hnsw_" + large.pk.hex
    row = TenantVectorIndex.objects.get(organization=large)
    assert (row.index_name, row.state, row.chunks_when_built) == (name, "READY", THRESHOLD)
    assert row.indexed_through_id == last
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
    assert tenant_indexes.ready_index(large.pk) is None

    assert tenant_indexes.reconcile().built == [name]

    assert tenant_indexes.ready_index(large.pk) is not None
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
    assert tenant_indexes.ready_index(large.pk) is not None

    plan = _vector_plan(small.pk)

    assert "hnsw" not in plan, plan
    assert "Seq Scan on assets_assetchunk" not in plan, plan
    chunk_scans = [line for line in plan.splitlines() if "on assets_assetchunk" in line]
    assert chunk_scans, plan
    # Found through its completed assets (the unique (asset, index) btree) or its
    # organization's entries of the GIN index, as the statistics make the planner choose
    # (both seen in full runs): every one compared, none of another organization read.
    assert (
        "Index Cond: (asset_id = completed_assets.id)" in plan
        or f"Index Cond: (organization_id = '{small.pk}'::uuid)" in plan
    ), plan


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
    assert tenant_indexes.ready_index(other_large.pk) is not None

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
    assert tenant_indexes.ready_index(dpo.organization.pk) is not None


# --- the watermark: the tail written since the build, and the rebuilds ------------------


def test_a_chunk_written_after_the_build_is_in_no_graph_and_still_found():
    large = _organization_with_chunks(THRESHOLD * 2, seed=20)
    tenant_indexes.reconcile()
    name = tenant_indexes.index_name(large.pk)
    graph_bytes = _index_bytes(name)

    tail = _add_tail(large, THRESHOLD - 1, seed=21)

    # Not one of the 39 vectors went into the graph (an HNSW insert adds its element and
    # its neighbours' pages: the old index without a watermark grew by several pages).
    assert _index_bytes(name) == graph_bytes
    assert TenantVectorIndex.objects.get(organization=large).indexed_through_id < tail[0]
    vectors = dict(AssetChunk.objects.filter(id__in=tail).values_list("id", "embedding"))
    for chunk_id in tail[:5]:
        chunk = AssetChunk.objects.get(pk=chunk_id)
        hits = chunk_search(organization_id=large.pk, vector=list(vectors[chunk_id]), k=3)
        assert (hits[0].asset_id, hits[0].chunk_index) == (str(chunk.asset_id), chunk.index)
        assert hits[0].score == pytest.approx(1.0, abs=1e-5)


def test_a_search_of_an_organization_with_a_tail_equals_exact_search():
    large = _organization_with_chunks(THRESHOLD * 2, seed=22)
    tenant_indexes.reconcile()
    _add_tail(large, THRESHOLD - 1, seed=23)
    assert not tenant_indexes.needs_index(organization_id=large.pk)  # the tail stays
    rng = np.random.default_rng(24)

    for _ in range(5):
        query = rng.normal(size=DIMENSIONS)
        query /= np.linalg.norm(query)
        hits = chunk_search(organization_id=large.pk, vector=query.tolist(), k=10)

        assert [(hit.asset_id, hit.chunk_index) for hit in hits] == _exact(large, query, 10)


def test_the_vector_ranker_of_an_organization_with_a_tail_reads_its_graph_and_the_btree():
    large = _organization_with_chunks(THRESHOLD * 2, seed=25)
    other = _organization_with_chunks(THRESHOLD * 2, seed=26)
    tenant_indexes.reconcile()
    _add_tail(large, 10, seed=27)
    through = TenantVectorIndex.objects.get(organization=large).indexed_through_id

    plan = _vector_plan(large.pk)

    lines = plan.splitlines()
    graph = [line for line in lines if "Index Scan using" in line and "hnsw" in line]
    assert len(graph) == 1, plan
    assert tenant_indexes.index_name(large.pk) in graph[0], plan
    assert tenant_indexes.index_name(other.pk) not in plan, plan
    # The tail: the organization's chunks past the watermark, through the btree.
    tail = [line for line in lines if "asset_chunk_org_id" in line]
    assert len(tail) == 1, plan
    condition = lines[lines.index(tail[0]) + 1]
    assert f"(id > {through})" in condition and "organization_id =" in condition, plan
    assert "Append" in plan, plan
    assert "Seq Scan on assets_assetchunk" not in plan, plan


def test_documents_deleted_and_uploaded_again_are_a_tail_that_rebuilds_the_index(settings):
    """The organization's total stays where it was (a document deleted, the same number of
    chunks uploaded again), but every new chunk is past the watermark: the tail is counted,
    not the total's growth (the total's growth said 0 and the index was never rebuilt)."""
    settings.TENANT_VECTOR_INDEX_REBUILD_FRACTION = 0.5
    large = _organization_with_chunks(THRESHOLD * 2, seed=33)
    tenant_indexes.reconcile()
    Asset.objects.filter(organization=large).order_by("pk").first().delete()  # type: ignore[union-attr]
    _add_tail(large, THRESHOLD, seed=34)
    assert sum(tenant_indexes.organization_chunks(organization_id=large.pk).values()) == (
        THRESHOLD * 2
    )

    assert tenant_indexes.needs_index(organization_id=large.pk)
    assert tenant_indexes.reconcile().built == [tenant_indexes.alternate_index_name(large.pk)]
    assert not tenant_indexes.needs_index(organization_id=large.pk)


def test_the_tail_past_the_rebuild_fraction_rebuilds_the_index_under_its_other_name(settings):
    settings.TENANT_VECTOR_INDEX_REBUILD_FRACTION = 0.5
    large = _organization_with_chunks(THRESHOLD * 2, seed=28)
    tenant_indexes.reconcile()
    first = tenant_indexes.index_name(large.pk)
    # 0.5 x 80 indexed chunks = 40: a tail of 39 is ranked exactly, 40 asks for a rebuild.
    _add_tail(large, THRESHOLD - 1, seed=29)
    assert not tenant_indexes.needs_index(organization_id=large.pk)
    assert tenant_indexes.reconcile().built == []
    _add_tail(large, 1, seed=30)
    assert tenant_indexes.needs_index(organization_id=large.pk)
    last = _last_chunk_id(large)

    outcome = tenant_indexes.reconcile()

    second = tenant_indexes.alternate_index_name(large.pk)
    assert outcome.built == [second]
    assert len(second) <= 63 and second.endswith(large.pk.hex)
    row = TenantVectorIndex.objects.get(organization=large)
    assert (row.index_name, row.state, row.indexed_through_id) == (second, "READY", last)
    assert row.chunks_when_built == THRESHOLD * 3
    assert f"AND (id <= {last}))" in (_index_definition(second) or "")
    assert _index_definition(first) is None  # the old graph is dropped
    assert not tenant_indexes.needs_index(organization_id=large.pk)
    # The next rebuild goes back to the first name: the two are used in turn.
    _add_tail(large, 60, seed=31)
    assert tenant_indexes.reconcile().built == [first]
    assert TenantVectorIndex.objects.get(organization=large).index_name == first
    assert _index_definition(second) is None


def test_an_index_without_a_watermark_serves_until_the_reconcile_rebuilds_it_with_one():
    # As the release before watermarks built it: no id in its predicate, none recorded.
    large = _organization_with_chunks(THRESHOLD * 2, seed=32)
    tenant_indexes.reconcile()
    name = tenant_indexes.index_name(large.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX {name}")
        cursor.execute(
            tenant_indexes.create_index_sql(
                organization_id=large.pk, name=name, column="embedding", concurrently=True,
                through_id=None,
            )
        )  # fmt: skip
    TenantVectorIndex.objects.filter(organization=large).update(indexed_through_id=None)
    assert "id <=" not in (_index_definition(name) or "")
    plan = _vector_plan(large.pk)
    assert name in plan and "asset_chunk_org_id" not in plan, plan  # no tail
    query = AssetChunk.objects.filter(organization=large).values_list("embedding", flat=True)[0]
    assert chunk_search(organization_id=large.pk, vector=list(query), k=1)[0].score > 0.999
    assert tenant_indexes.needs_index(organization_id=large.pk)

    assert tenant_indexes.reconcile().built == [tenant_indexes.alternate_index_name(large.pk)]

    assert TenantVectorIndex.objects.get(organization=large).indexed_through_id == (
        _last_chunk_id(large)
    )
    assert _index_definition(name) is None


def test_the_reconcile_leaves_an_index_it_did_not_name_alone():
    """An operator's own index that happens to match the prefix and end with an
    organization's hex (a trial build, a copy kept for comparison) is not the reconcile's
    to drop: only the names assets.tenant_indexes makes are."""
    large = _organization_with_chunks(THRESHOLD * 2, seed=35)
    tenant_indexes.reconcile()
    operators = f"{tenant_indexes.INDEX_PREFIX}trial_{large.pk.hex}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE INDEX {operators} ON assets_assetchunk (organization_id)")
    try:
        outcome = tenant_indexes.reconcile()

        assert outcome.dropped == []
        assert _index_definition(operators) is not None
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX IF EXISTS {operators}")


def test_the_reconcile_drops_an_index_its_row_does_not_name():
    large = _organization_with_chunks(THRESHOLD * 2, seed=33)
    tenant_indexes.reconcile()
    recorded = tenant_indexes.index_name(large.pk)
    # As a rebuild interrupted before it was recorded leaves it (or the old index of one
    # interrupted before the drop).
    superseded = tenant_indexes.alternate_index_name(large.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            tenant_indexes.create_index_sql(
                organization_id=large.pk, name=superseded, column="embedding",
                concurrently=True, through_id=1,
            )
        )  # fmt: skip

    outcome = tenant_indexes.reconcile()

    assert outcome.dropped == [superseded]
    assert _index_definition(superseded) is None
    assert _index_definition(recorded) is not None
    assert outcome.built == []


def test_the_watermark_is_read_back_from_an_index_predicate_of_any_size():
    large = _organization_with_chunks(THRESHOLD, seed=34)
    name = tenant_indexes.next_index_name(large.pk)
    with connection.cursor() as cursor:
        for through_id in (THRESHOLD, 2**40, None):
            cursor.execute(f"DROP INDEX IF EXISTS {name}")
            cursor.execute(
                tenant_indexes.create_index_sql(
                    organization_id=large.pk, name=name, column="embedding_next",
                    concurrently=True, through_id=through_id,
                )
            )  # fmt: skip
            assert reembedding._valid_next_indexes(cursor) == {name: through_id}


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize(
    ("indexed_chunks", "candidates", "expected"),
    [
        (0, 40, search.MIN_EF_SEARCH),
        (search.EF_SEARCH_REFERENCE_CHUNKS, 40, search.MIN_EF_SEARCH),
        (30_000, 40, 155),
        (100_000, 40, 283),
        (500_000, 40, 632),
        (5_000_000, 40, search.MAX_EF_SEARCH),
        # The candidates asked for come first, whatever the size.
        (1_000, 200, 200),
        (5_000_000, 1_000, 1_000),
    ],
)
def test_the_hnsw_candidate_list_grows_with_the_graph(indexed_chunks, candidates, expected):  # type: ignore[no-untyped-def]
    assert search.ef_search(candidates=candidates, indexed_chunks=indexed_chunks) == expected


def test_a_search_walks_an_organizations_graph_with_the_candidate_list_of_its_size(monkeypatch):  # type: ignore[no-untyped-def]
    """Measured at 500,000 chunks: ef_search 400 gave recall@10 0.940 (a query at 0.0), 632
    gave 0.958 (bench/bench_search_tenants.py). The reference is lowered so that the
    organization's 80 chunks ask for more than the minimum."""
    monkeypatch.setattr(search, "EF_SEARCH_REFERENCE_CHUNKS", 8)
    large = _organization_with_chunks(THRESHOLD * 2, seed=31)
    small = _organization_with_chunks(10, seed=32)
    tenant_indexes.reconcile()
    vector = [1.0] + [0.0] * (DIMENSIONS - 1)

    def ef_of_search(organization) -> str:  # type: ignore[no-untyped-def]
        with captured_statements() as captured:
            search.hybrid_chunk_search(
                organization_id=organization.pk, query="chunk", vector=vector, k=10
            )
        configured = [q["sql"] for q in captured.captured_queries if "hnsw.ef_search" in q["sql"]]
        assert len(configured) == 1, configured
        return configured[0].split("set_config('hnsw.ef_search', '", 1)[1].split("'", 1)[0]

    # 80 chunks, the reference 8: round(80 x sqrt(10)) = 253.
    assert ef_of_search(large) == "253"
    # No graph: ranked exactly, the minimum (the setting is the transaction's anyway).
    assert ef_of_search(small) == str(search.MIN_EF_SEARCH)
