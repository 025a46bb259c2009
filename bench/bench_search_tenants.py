"""Search with many tenants: 1,000,000 chunks over 100 organizations (issue 30, goal 2).

One organization with half the chunks, ten with 3 % each, the other 89 sharing the rest
(about 2,250 each at full size). Vectors and texts as in bench/bench_search.py (its
helpers: clustered synthetic vectors, generated prose); the chunks are loaded with binary
COPY (minutes, not hours), the bulk-loaded GIN index rebuilt afterwards.

Two ways to rank an organization's vectors, measured in the same run on the same data:

* ``tenant`` (the service): organizations with TENANT_VECTOR_INDEX_MIN_CHUNKS chunks or more
  have their own partial HNSW index (assets.tenant_indexes, built by its reconcile), the
  others are ranked exactly over their own chunks (assets/search.py).
* ``single`` (the previous release): one HNSW graph over every organization's vectors,
  walked with an iterative scan until enough of the organization's chunks are found (the
  previous SQL: the organization filter the planner cannot use for an index).

For a large, a medium and a small organization: hybrid latency (p50, p95) in all and per
kind of query (a few words, a name, an identifier, a misspelt name), through
``assets.search.hybrid_chunk_search``; vector recall@10 against exact search within the
organization; index build seconds. Targets (goal 2): hybrid p50 < 20 ms, p95 < 100 ms for
each size; recall@10 >= 0.95. Also the cost of exact ranking per organization size (what
TENANT_VECTOR_INDEX_MIN_CHUNKS is chosen from).

Sizes: BENCH_TENANTS_CHUNKS (default 1,000,000; the distribution scales with it),
BENCH_TENANTS_QUERIES (hybrid queries per size, default 200), BENCH_TENANTS_WARM_UP
(searches per size before the measured ones, other vectors and queries, default 200),
BENCH_TENANTS_MODES
(``tenant,single`` by default; ``tenant`` alone skips the global graph's build),
BENCH_TENANTS_SHARED_BUFFERS (the server's shared_buffers, default 2GB: the graph of the
organization with 500,000 chunks is about 1 GB; bench/server_memory.py). Data is kept
between runs in DATA_DIR (default .data/bench-tenants) and rebuilt when the size changes.
"""

from __future__ import annotations

import functools
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench-tenants"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from bench.server_memory import ensure_shared_buffers  # noqa: E402
from config import local_stack  # noqa: E402

local_stack.prepare(Path(os.environ["DATA_DIR"]))
# The deployment this bench stands for holds the large organization's graph in memory
# (bench/server_memory.py); "128MB" measures PostgreSQL's default instead.
SHARED_BUFFERS = ensure_shared_buffers(
    Path(os.environ["DATA_DIR"]), os.environ.get("BENCH_TENANTS_SHARED_BUFFERS", "2GB")
)

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count  # noqa: E402
from pgvector.psycopg import register_vector  # noqa: E402

from assets import search, tenant_indexes  # noqa: E402
from assets.exceptions import SearchTimedOut  # noqa: E402
from assets.models import Asset, AssetChunk, AssetStatus, TenantVectorIndex  # noqa: E402
from assets.search import SearchMode, hybrid_chunk_search  # noqa: E402
from assets.selectors import chunk_search  # noqa: E402
from bench.bench_search import (  # noqa: E402
    CENTRES,
    DIMENSIONS,
    chunk_texts,
    hybrid_queries,
    percentiles,
    vectors,
)
from organizations.models import Organization  # noqa: E402
from tests.support.large_files import sentence_pool  # noqa: E402

CHUNKS = int(os.environ.get("BENCH_TENANTS_CHUNKS", "1000000"))
QUERIES = int(os.environ.get("BENCH_TENANTS_QUERIES", "200"))
RECALL_QUERIES = int(os.environ.get("BENCH_TENANTS_RECALL_QUERIES", "50"))
WARM_UP = int(os.environ.get("BENCH_TENANTS_WARM_UP", "200"))
MODES = [m for m in os.environ.get("BENCH_TENANTS_MODES", "tenant,single").split(",") if m]
ORGANIZATIONS = 100
K = 10
SLUG = "bench-tenants-"
ASSETS_PER_ORGANIZATION = 4
GLOBAL_INDEX = "asset_chunk_embedding_hnsw"
# The bulk-loaded indexes of the chunk table (other than the vector ones): dropped before the
# load, created again afterwards as they were (read back from pg_indexes first).
BULK_INDEX_PREFIXES = ("asset_chunk_org_text",)
P50_TARGET_MS, P95_TARGET_MS = 20, 100
# The previous release's vector ranker: the organization compared in an expression the
# planner cannot use for an index, so the one graph of every organization serves it.
SINGLE_GRAPH_SQL = search._SEARCH_SQL.replace(
    "          AND chunk.organization_id = %(organization_id)s\n          AND (SELECT asset.status",
    "          AND (chunk.organization_id = %(organization_id)s) IS TRUE\n"
    "          AND (SELECT asset.status",
)
assert SINGLE_GRAPH_SQL != search._SEARCH_SQL


def sizes() -> list[int]:
    """Chunks of each organization: one with half, ten with 3 % each, 89 with the rest."""
    large = CHUNKS // 2
    medium = CHUNKS * 3 // 100
    rest = CHUNKS - large - 10 * medium
    small = [rest // 89 + (1 if n < rest % 89 else 0) for n in range(89)]
    return [large, *[medium] * 10, *small]


def ensure_data(rng: np.random.Generator, centres: np.ndarray) -> tuple[list[Organization], float]:
    """The organizations and their chunks (loaded unless present); returns load seconds."""
    wanted = sizes()
    organizations = list(Organization.objects.filter(slug__startswith=SLUG).order_by("slug"))
    counts = dict(
        AssetChunk.objects.filter(organization__in=organizations)
        .values_list("organization_id")
        .annotate(n=Count("id"))
    ) if organizations else {}  # fmt: skip
    if [counts.get(o.pk, 0) for o in organizations] == wanted:
        return organizations, 0.0
    started = time.monotonic()
    Organization.objects.filter(slug__startswith=SLUG).delete()
    tenant_indexes.reconcile()  # drops the deleted organizations' indexes
    organizations = [
        Organization.objects.create(name=f"Bench tenants {n:03d}", slug=f"{SLUG}{n:03d}")
        for n in range(ORGANIZATIONS)
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {GLOBAL_INDEX}")
        definitions = bulk_index_definitions(cursor)
        for name in definitions:
            cursor.execute(f"DROP INDEX IF EXISTS {name}")
    text_rng = random.Random(5)
    pool = sentence_pool(text_rng)
    connection.ensure_connection()
    raw = connection.connection
    register_vector(raw)
    for number, (organization, count) in enumerate(zip(organizations, wanted, strict=True)):
        assets = [
            Asset.objects.create(
                organization=organization, original_file=f"{organization.container_name}/b{a}",
                original_file_name=f"bench-{number}-{a}.txt", file_size=1,
                sha256=f"{number:032d}{a:032d}", media_type="text/plain",
                status=AssetStatus.COMPLETED, chunk_count=0,
            )
            for a in range(ASSETS_PER_ORGANIZATION)
        ]  # fmt: skip
        per_asset = [0] * len(assets)
        for start in range(0, count, 5000):
            block = min(5000, count - start)
            block_vectors = vectors(rng, centres, block)
            texts = chunk_texts(text_rng, pool, block)
            with (
                raw.cursor() as cursor,
                cursor.copy(
                    "COPY assets_assetchunk (asset_id, organization_id, index, text, location, "
                    "sheet_name, embedding_model, embedding_next_model, embedding) "
                    "FROM STDIN (FORMAT BINARY)"
                ) as copy,
            ):
                copy.set_types(
                    ["uuid", "uuid", "int4", "text", "varchar", "varchar", "varchar",
                     "varchar", "vector"]
                )  # fmt: skip
                for i in range(block):
                    which = (start + i) % len(assets)
                    copy.write_row(
                        (assets[which].pk, organization.pk, per_asset[which], texts[i], "", "",
                         "bench", "", block_vectors[i])
                    )  # fmt: skip
                    per_asset[which] += 1
            raw.commit()
        for asset, chunks in zip(assets, per_asset, strict=True):
            Asset.objects.filter(pk=asset.pk).update(chunk_count=chunks)
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        for definition in definitions.values():
            cursor.execute(definition)
        cursor.execute("ANALYZE assets_assetchunk")
        cursor.execute("ANALYZE assets_asset")
    return organizations, time.monotonic() - started


def bulk_index_definitions(cursor: Any) -> dict[str, str]:
    cursor.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'assets_assetchunk'"
    )
    return {
        name: definition
        for name, definition in cursor.fetchall()
        if name.startswith(BULK_INDEX_PREFIXES)
    }


def build_tenant_indexes() -> dict[str, float]:
    """The reconcile of the service (CONCURRENTLY); seconds in all and of the largest."""
    started = time.monotonic()
    tenant_indexes.reconcile()
    seconds = time.monotonic() - started
    built = list(TenantVectorIndex.objects.filter(organization__slug__startswith=SLUG))
    return {
        "indexes": len(built),
        "seconds": round(seconds, 1),
        "largestSeconds": round(max((row.build_seconds or 0 for row in built), default=0), 1),
    }


def build_global_index() -> float:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_indexes WHERE indexname = %s", [GLOBAL_INDEX])
        if cursor.fetchone():
            return 0.0
        cursor.execute("SET maintenance_work_mem = '2GB'")
        started = time.monotonic()
        cursor.execute(
            f"CREATE INDEX {GLOBAL_INDEX} ON assets_assetchunk "
            "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )
        seconds = time.monotonic() - started
        cursor.execute("RESET maintenance_work_mem")
        return seconds


def drop_global_index() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP INDEX IF EXISTS {GLOBAL_INDEX}")


def use_mode(mode: str) -> None:
    """Point the service's search at the ranker of ``mode``."""
    original = search.__dict__.setdefault("_bench_original_search_sql", search._search_sql)
    if mode == "tenant":
        search._search_sql = original
    else:
        search._search_sql = (  # type: ignore[assignment]
            lambda *, asset_id, use_vector, index: SINGLE_GRAPH_SQL
        )


def timed(run: Any, i: int) -> tuple[float, bool]:
    """Milliseconds of ``run(i)``; a search stopped by SEARCH_STATEMENT_TIMEOUT_MS counts
    with the time it took (and is reported)."""
    started = time.perf_counter()
    try:
        run(i)
    except SearchTimedOut:
        return (time.perf_counter() - started) * 1000, True
    return (time.perf_counter() - started) * 1000, False


def exact(organization_id: object, vector: list[float]) -> list[tuple[str, int]]:
    """The organization's K nearest chunks, every one compared (no index)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = on")
        cursor.execute(
            "SELECT asset_id, index FROM assets_assetchunk WHERE organization_id = %s "
            "ORDER BY (embedding <=> %s::vector) + 0, id LIMIT %s",
            [organization_id, search.vector_literal(vector), K],
        )
        return [(str(asset_id), index) for asset_id, index in cursor.fetchall()]


def measure(
    mode: str, groups: dict[str, list[Organization]], centres: np.ndarray
) -> dict[str, Any]:
    """Hybrid latency per size and kind, vector recall@10, for ``mode``."""
    use_mode(mode)
    report: dict[str, Any] = {}
    for size, members in groups.items():
        queries = hybrid_queries(QUERIES)
        query_vectors = vectors(np.random.default_rng(17), centres, QUERIES)

        def run(
            i: int,
            members: list[Organization] = members,
            queries: Any = queries,
            query_vectors: Any = query_vectors,
        ) -> Any:
            return hybrid_chunk_search(
                organization_id=members[i % len(members)].pk, query=queries[i][1],
                vector=query_vectors[i].tolist(), k=K, mode=SearchMode.HYBRID,
            )  # fmt: skip

        # Warm-up with other vectors and queries than the measured ones: the server's
        # buffers fill with the organization's graph and hot pages, as in a running
        # deployment (the first searches after a restart or a rebuild read from the
        # operating system's cache: measured 40 ms p50 over the first 60, 20 ms by the
        # 240th, for the large organization).
        warm_queries = hybrid_queries(WARM_UP + QUERIES)[QUERIES:]
        warm_vectors = vectors(np.random.default_rng(19), centres, max(1, WARM_UP))
        warm_up = functools.partial(run, queries=warm_queries, query_vectors=warm_vectors)
        for i in range(WARM_UP):
            timed(warm_up, i)
        latencies: list[float] = []
        by_kind: dict[str, list[float]] = {}
        timeouts: dict[str, int] = {}
        for i in range(QUERIES):
            elapsed, timed_out = timed(run, i)
            latencies.append(elapsed)
            by_kind.setdefault(queries[i][0], []).append(elapsed)
            if timed_out:
                timeouts[queries[i][0]] = timeouts.get(queries[i][0], 0) + 1
        recall_vectors = vectors(np.random.default_rng(23), centres, RECALL_QUERIES)
        recalls, vector_latencies = [], []
        for i in range(RECALL_QUERIES):
            organization = members[i % len(members)]
            started = time.perf_counter()
            hits = chunk_search(
                organization_id=organization.pk, vector=recall_vectors[i].tolist(), k=K
            )
            vector_latencies.append((time.perf_counter() - started) * 1000)
            found = {(hit.asset_id, hit.chunk_index) for hit in hits}
            truth = exact(organization.pk, recall_vectors[i].tolist())
            recalls.append(len(found & set(truth)) / K)
        p50, p95 = percentiles(latencies)
        vector_p50, vector_p95 = percentiles(vector_latencies)
        report[size] = {
            "chunks": AssetChunk.objects.filter(organization=members[0]).count(),
            "organizations": len(members),
            "hybridP50Ms": p50, "hybridP95Ms": p95,
            "byKind": {kind: dict(zip(("p50Ms", "p95Ms"), percentiles(v), strict=True))
                       for kind, v in by_kind.items()},
            "timeouts": timeouts,
            "vectorP50Ms": vector_p50, "vectorP95Ms": vector_p95,
            "recallAt10": round(statistics.mean(recalls), 4),
            "minRecallAt10": round(min(recalls), 2),
        }  # fmt: skip
    use_mode("tenant")
    return report


def exact_cost(groups: dict[str, list[Organization]], centres: np.ndarray) -> dict[str, Any]:
    """Exact ranking (the small organizations' path) of each size: where it stops being fast."""
    query_vectors = vectors(np.random.default_rng(29), centres, 20)
    costs = {}
    for size, members in groups.items():
        organization = members[0]
        params = search.search_parameters(
            organization_id=organization.pk,
            query="",
            k=K,
            vector=query_vectors[0].tolist(),
            mode=search.SearchMode.VECTOR,
        )
        latencies = []
        for vector in query_vectors[: 5 if size == "large" else 20]:
            params["vector"] = search.vector_literal(vector.tolist())
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_seqscan = off")
                started = time.perf_counter()
                cursor.execute(search._EXACT_SEARCH_SQL, params)
                cursor.fetchall()
                latencies.append((time.perf_counter() - started) * 1000)
        chunks = AssetChunk.objects.filter(organization=organization).count()
        p50 = round(statistics.median(latencies), 2)
        costs[size] = {"chunks": chunks, "exactP50Ms": p50,
                       "msPer1000Chunks": round(p50 / max(1, chunks) * 1000, 3)}  # fmt: skip
    return costs


def main() -> None:
    call_command("migrate", verbosity=0)
    rng = np.random.default_rng(7)
    centres = rng.normal(0, 1, (CENTRES, DIMENSIONS))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    organizations, load_seconds = ensure_data(rng, centres)
    groups = {
        "large": organizations[:1],
        "medium": organizations[1:11],
        "small": organizations[11:],
    }
    tenant_build = build_tenant_indexes()
    results: dict[str, Any] = {}
    global_seconds = None
    if "tenant" in MODES:
        drop_global_index()
        results["tenant"] = measure("tenant", groups, centres)
    if "single" in MODES:
        global_seconds = build_global_index()
        results["single"] = measure("single", groups, centres)
    costs = exact_cost(groups, centres)

    summary = []
    for mode, report in results.items():
        label = "per-organization indexes" if mode == "tenant" else "one graph for all"
        for size, row in report.items():
            summary.append({
                "metric": f"hybrid search, {label}, {size} organization ({row['chunks']} of "
                          f"{CHUNKS} chunks; shared_buffers {SHARED_BUFFERS})",
                "median": row["hybridP50Ms"], "p95": row["hybridP95Ms"], "unit": "ms",
                "peakMemoryMB": None,
                "target": f"p50 < {P50_TARGET_MS} ms, p95 < {P95_TARGET_MS} ms",
            })  # fmt: skip
            for kind, values in row["byKind"].items():
                summary.append({
                    "metric": f"hybrid search, {label}, {size} organization, '{kind}' queries",
                    "median": values["p50Ms"], "p95": values["p95Ms"], "unit": "ms",
                    "peakMemoryMB": None, "target": None,
                })  # fmt: skip
            summary.append({
                "metric": f"vector recall@10 against exact, {label}, {size} organization",
                "median": row["recallAt10"], "p95": None, "unit": "ratio",
                "peakMemoryMB": None, "target": ">= 0.95",
            })  # fmt: skip
    summary.append({
        "metric": f"per-organization HNSW builds ({tenant_build['indexes']} indexes, "
                  f"threshold {settings.TENANT_VECTOR_INDEX_MIN_CHUNKS} chunks)",
        "median": tenant_build["seconds"], "p95": None, "unit": "s", "peakMemoryMB": None,
        "target": None,
    })  # fmt: skip
    if global_seconds:
        summary.append({
            "metric": f"one HNSW graph of {CHUNKS} chunks, build",
            "median": round(global_seconds, 1), "p95": None, "unit": "s", "peakMemoryMB": None,
            "target": None,
        })  # fmt: skip
    for cost in costs.values():
        summary.append({
            "metric": f"exact vector ranking of one organization of {cost['chunks']} chunks",
            "median": cost["exactP50Ms"], "p95": None, "unit": "ms", "peakMemoryMB": None,
            "target": None,
        })  # fmt: skip
    print(json.dumps({
        "chunks": CHUNKS, "organizations": ORGANIZATIONS, "queriesPerSize": QUERIES,
        "warmUpPerSize": WARM_UP,
        "sharedBuffers": SHARED_BUFFERS,
        "loadSeconds": round(load_seconds, 1), "tenantIndexBuild": tenant_build,
        "globalIndexBuildSeconds": round(global_seconds, 1) if global_seconds else None,
        "threshold": settings.TENANT_VECTOR_INDEX_MIN_CHUNKS, "results": results,
        "exactRanking": costs, "summary": summary,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
