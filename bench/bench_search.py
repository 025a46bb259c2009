"""Vector search at 100,000 chunks x 384 dimensions: HNSW build time, latency, recall@10.

Runs on the bench's embedded PostgreSQL + pgvector (DATA_DIR, default .data/bench). The
data is synthetic but clustered like real embeddings (random data makes any ANN index look
bad): 300 topic centres, each chunk a noisy copy of one, spread over 10 organizations.
Queries go through the service's own selector (`assets.selectors.chunk_search`: the
organization filter, iterative scans, ef_search), timed end to end; recall@10 compares
with exact search (the same query with index scans disabled). Targets: p50 < 5 ms,
recall@10 >= 0.95. Data is kept between runs (rebuilt when the size changes).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from config import local_stack  # noqa: E402

# The embedded servers of DATA_DIR, when run without `make bench` (which did it already).
local_stack.prepare(Path(os.environ["DATA_DIR"]))

import django  # noqa: E402

django.setup()

import numpy as np  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from assets.models import Asset, AssetChunk, AssetStatus  # noqa: E402
from assets.selectors import chunk_search  # noqa: E402
from organizations.models import Organization  # noqa: E402

CHUNKS = int(os.environ.get("BENCH_SEARCH_CHUNKS", "100000"))
ORGANIZATIONS = 10
DIMENSIONS = 384
CENTRES = 300
QUERIES = int(os.environ.get("BENCH_SEARCH_QUERIES", "300"))
K = 10
BATCH = 2000
SLUG = "bench-search-"


def vectors(rng: np.random.Generator, centres: np.ndarray, count: int) -> np.ndarray:
    picks = centres[rng.integers(0, len(centres), count)]
    data = picks + rng.normal(0, 0.6 / np.sqrt(DIMENSIONS), (count, DIMENSIONS))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def ensure_data(rng: np.random.Generator, centres: np.ndarray) -> tuple[list[Asset], float]:
    """Load the chunks (unless already there) and rebuild the HNSW index; returns build s."""
    organizations = list(Organization.objects.filter(slug__startswith=SLUG).order_by("slug"))
    assets = list(Asset.objects.filter(organization__in=organizations).order_by("organization"))
    if (
        len(assets) != ORGANIZATIONS
        or AssetChunk.objects.filter(asset__in=assets).count() != CHUNKS
    ):
        Organization.objects.filter(slug__startswith=SLUG).delete()
        organizations = [
            Organization.objects.create(name=f"Bench search {n}", slug=f"{SLUG}{n}")
            for n in range(ORGANIZATIONS)
        ]
        assets = [
            Asset.objects.create(
                organization=organization, original_file=f"{organization.container_name}/b",
                original_file_name=f"bench-{n}.txt", file_size=1, sha256=f"{n:064d}",
                media_type="text/plain", status=AssetStatus.COMPLETED,
            )
            for n, organization in enumerate(organizations)
        ]  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute("DROP INDEX IF EXISTS asset_chunk_embedding_hnsw")
        for start in range(0, CHUNKS, BATCH):
            block = vectors(rng, centres, min(BATCH, CHUNKS - start))
            AssetChunk.objects.bulk_create(
                AssetChunk(
                    asset=assets[(start + i) % ORGANIZATIONS],
                    organization_id=assets[(start + i) % ORGANIZATIONS].organization_id,
                    index=(start + i) // ORGANIZATIONS, text=f"chunk {start + i}",
                    embedding=vector,
                )
                for i, vector in enumerate(block)
            )  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX IF EXISTS asset_chunk_embedding_hnsw")
        cursor.execute("SET maintenance_work_mem = '512MB'")
        started = time.monotonic()
        cursor.execute(
            "CREATE INDEX asset_chunk_embedding_hnsw ON assets_assetchunk "
            "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )
        build_seconds = time.monotonic() - started
        cursor.execute("ANALYZE assets_assetchunk")
    return assets, build_seconds


def exact(organization_id: object, vector: list[float]) -> list[tuple[str, int]]:
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_indexscan = off")
        hits = chunk_search_exact(organization_id, vector)
    return hits


def chunk_search_exact(organization_id: object, vector: list[float]) -> list[tuple[str, int]]:
    from pgvector.django import CosineDistance

    rows = (
        AssetChunk.objects.filter(organization_id=organization_id)
        .order_by(CosineDistance("embedding", vector))
        .values_list("asset_id", "index")[:K]
    )
    return [(str(asset_id), index) for asset_id, index in rows]


def main() -> None:
    call_command("migrate", verbosity=0)
    rng = np.random.default_rng(7)
    centres = rng.normal(0, 1, (CENTRES, DIMENSIONS))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    load_started = time.monotonic()
    assets, build_seconds = ensure_data(rng, centres)
    load_seconds = time.monotonic() - load_started - build_seconds

    queries = vectors(np.random.default_rng(11), centres, QUERIES)
    organization_ids = [assets[i % ORGANIZATIONS].organization_id for i in range(QUERIES)]
    for vector, organization_id in zip(queries[:20], organization_ids, strict=False):  # warm-up
        chunk_search(organization_id=organization_id, vector=vector.tolist(), k=K)
    # Timed alone: exact searches scan the table and would evict the index from the cache.
    latencies, found = [], []
    for vector, organization_id in zip(queries, organization_ids, strict=True):
        as_list = vector.tolist()
        started = time.perf_counter()
        hits = chunk_search(organization_id=organization_id, vector=as_list, k=K)
        latencies.append((time.perf_counter() - started) * 1000)
        found.append({(hit.asset_id, hit.chunk_index) for hit in hits})
    recalls = [
        len(hits & set(exact(organization_id, vector.tolist()))) / K
        for hits, vector, organization_id in zip(found, queries, organization_ids, strict=True)
    ]
    tracemalloc.start()
    for vector, organization_id in zip(queries[:20], organization_ids, strict=False):
        chunk_search(organization_id=organization_id, vector=vector.tolist(), k=K)
    peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    exact_latencies = []
    for vector, organization_id in list(zip(queries, organization_ids, strict=True))[:50]:
        started = time.perf_counter()
        exact(organization_id, vector.tolist())
        exact_latencies.append((time.perf_counter() - started) * 1000)

    latencies.sort()
    p50, p95 = statistics.median(latencies), latencies[int(0.95 * (len(latencies) - 1))]
    recall = statistics.mean(recalls)
    exact_latencies.sort()
    print(json.dumps({
        "chunks": CHUNKS, "dimensions": DIMENSIONS, "organizations": ORGANIZATIONS,
        "queries": QUERIES, "loadSeconds": round(load_seconds, 1),
        "hnswBuildSeconds": round(build_seconds, 2), "searchP50Ms": round(p50, 3),
        "searchP95Ms": round(p95, 3), "recallAt10": round(recall, 4),
        "minRecallAt10": round(min(recalls), 2),
        "exactSearchP50Ms": round(statistics.median(exact_latencies), 2),
        "summary": [
            {"metric": f"search latency, {CHUNKS} chunks, org filter (HNSW, selector)",
             "median": round(p50, 3), "p95": round(p95, 3), "unit": "ms",
             "peakMemoryMB": round(peak_mb, 1), "target": "p50 < 5 ms"},
            {"metric": "recall@10 against exact search", "median": round(recall, 4),
             "p95": None, "unit": "ratio", "peakMemoryMB": None, "target": ">= 0.95"},
            {"metric": "exact search (no index), for comparison",
             "median": round(statistics.median(exact_latencies), 2),
             "p95": round(exact_latencies[int(0.95 * (len(exact_latencies) - 1))], 2),
             "unit": "ms", "peakMemoryMB": None, "target": None},
            {"metric": f"HNSW build (m=16, ef_construction=64), {CHUNKS} x {DIMENSIONS}",
             "median": round(build_seconds, 2), "p95": None, "unit": "s",
             "peakMemoryMB": None, "target": None},
        ],
    }))  # fmt: skip


if __name__ == "__main__":
    main()
