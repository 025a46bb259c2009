"""Storing chunks from an empty table to 1,000,000 (issue 30 goal 1): chunks/s per tenth.

The service's own storing path minus the model: each asset's text (generated prose, as
pages of a PDF would come from the extractor) is chunked (``chunk_segments``, the
settings' size and overlap), embedded by the ``hashing`` provider in batches of its
``preferred_batch_size`` through the process's batcher, and written by
``assets.ingestion.store_chunks`` (``_store_batch``: the lease check, one COPY, the
progress record and the status message per batch, each batch its own transaction). The
text generation is not timed (it is the file); everything from the chunker to the commit is.

100 organizations as in goal 2 (one with half of the chunks, ten with 3 % each, 89 sharing
the last 20 %), their uploads (assets of 1,500 to 4,000 chunks) interleaved in a random
order, as real uploads would be. Target: >= 1,000 chunks/s over the whole run, and the
rate over the last tenth >= 0.8 of the first.

Probes (not timed in the rate): after the first tenth and at the end, the same 1,024
chunks are written in a transaction that is rolled back (median of 3 rounds, the order
rotated), with the table as the migrations left it, and again without each of its indexes
in turn (DROP INDEX in the rolled-back transaction), with each GIN index's
``fastupdate`` off and with a larger ``gin_pending_list_limit``, and with the writers
compared (binary COPY, COPY with the vectors as text, the former ``bulk_create``). The
difference is what each index costs a write at that size. A larger pending list defers
its merge past the probe: its number is a lower bound of its cost.

Sizes: BENCH_STORING_CHUNKS (default 1,000,000); BENCH_STORING_PROBES (fractions of the
run after which the probes run, default "0.1,1.0"; "" for none), BENCH_STORING_PROBE_CHUNKS
and BENCH_STORING_PROBE_ROUNDS. Runs on its own embedded PostgreSQL (DATA_DIR, default
.data/bench-storing), emptied first.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATA_DIR", str(ROOT / ".data" / "bench-storing"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("EMBEDDING_PROVIDER", "hashing")

from config import local_stack  # noqa: E402

local_stack.prepare(Path(os.environ["DATA_DIR"]))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from assets import chunk_copy, ingestion  # noqa: E402
from assets.chunk_copy import NewChunk, copy_chunks  # noqa: E402
from assets.models import Asset, AssetChunk, AssetStatus  # noqa: E402
from assets.processing import chunk_segments  # noqa: E402
from assets.processing.embeddings import HashingEmbeddingProvider  # noqa: E402
from common.background import leases  # noqa: E402
from common.background.fields import LeaseState  # noqa: E402
from formats.segments import Segment  # noqa: E402
from organizations.models import Organization  # noqa: E402
from tests.support.large_files import paragraph, sentence_pool  # noqa: E402

CHUNKS = int(os.environ.get("BENCH_STORING_CHUNKS", "1000000"))
# The probes' rows are rolled back but stay in the indexes until vacuumed: a few, small.
PROBES = [float(f) for f in os.environ.get("BENCH_STORING_PROBES", "0.1,1.0").split(",") if f]
PROBE_CHUNKS = int(os.environ.get("BENCH_STORING_PROBE_CHUNKS", "1024"))
PROBE_ROUNDS = int(os.environ.get("BENCH_STORING_PROBE_ROUNDS", "3"))
ORGANIZATIONS = 100
SLUG = "bench-storing-"
ASSET_CHUNKS = (1500, 4000)
PAGE_PARAGRAPHS = (3, 6)
TARGET_RATE = 1000
TARGET_RATIO = 0.8


def organization_sizes(total: int) -> list[int]:
    """Goal 2's distribution scaled to ``total``: 50 %, ten of 3 %, 89 sharing 20 %."""
    large, medium = total // 2, total * 3 // 100
    small_total = total - large - 10 * medium
    small = [small_total // 89 + (1 if n < small_total % 89 else 0) for n in range(89)]
    return [large, *[medium] * 10, *small]


@dataclass
class Upload:
    organization: int
    chunks: int


def uploads(rng: random.Random, sizes: list[int]) -> list[Upload]:
    """Each organization's chunks as assets of a few thousand chunks, in a random order."""
    planned = []
    for organization, size in enumerate(sizes):
        while size > 0:
            chunks = min(size, rng.randint(*ASSET_CHUNKS))
            planned.append(Upload(organization, chunks))
            size -= chunks
    rng.shuffle(planned)
    return planned


def pages(rng: random.Random, pool: list[str], chunks: int) -> list[Segment]:
    """Enough pages of prose for ``chunks`` chunks (each page its own location)."""
    step = settings.CHUNK_SIZE - settings.CHUNK_OVERLAP
    segments, length, number = [], 0, 1
    while length < chunks * step * 1.2 + settings.CHUNK_SIZE:
        text = "\n\n".join(
            paragraph(rng, pool, rng.randint(3, 9)) for _ in range(rng.randint(*PAGE_PARAGRAPHS))
        )
        segments.append(Segment(text + "\n", f"page {number}"))
        length += len(text)
        number += 1
    return segments


def reset() -> list[Organization]:
    """Empty chunk table; the bench's 100 organizations (created anew)."""
    Organization.objects.filter(slug__startswith=SLUG).delete()
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {AssetChunk._meta.db_table}")
    return [
        Organization.objects.create(name=f"Bench storing {n}", slug=f"{SLUG}{n}")
        for n in range(ORGANIZATIONS)
    ]


def claimed_asset(organization: Organization, number: int, chunks: int) -> Asset:
    """An uploaded asset (its file never read: the bench hands its text to the chunker),
    claimed as the ingestion claims it."""
    uploaded = Asset.objects.create(
        organization=organization, original_file=f"{organization.container_name}/b{number}",
        original_file_name=f"bench-{number}.pdf", file_size=chunks * 850, sha256=f"{number:064d}",
        media_type="application/pdf", status=AssetStatus.UPLOADED, lease_state=LeaseState.QUEUED,
    )  # fmt: skip
    asset = ingestion._start_attempt(uploaded.pk)
    assert asset is not None
    return asset


def build_tenant_index(organization_id: Any) -> float:
    """What the ingestion's follow-up task does once an organization reaches the threshold
    of its own vector index, or the chunks written past its index's watermark reach the
    rebuild fraction (assets.tenant_indexes, when present): the build's or rebuild's
    seconds.

    In the service a worker builds it CONCURRENTLY beside the ingestions; here it runs
    between two uploads, timed apart from the storing rate (reported beside it)."""
    try:
        from assets import tenant_indexes  # type: ignore[attr-defined, unused-ignore]
    except ImportError:  # before per-organization indexes: one global graph
        return 0.0
    if not tenant_indexes.needs_index(organization_id=organization_id):
        return 0.0
    started = time.perf_counter()
    tenant_indexes.reconcile(organization_id=organization_id)
    return time.perf_counter() - started


def complete(asset: Asset, count: int) -> None:
    with transaction.atomic():
        held = leases.holding(ingestion.ASSET_PROCESSING, asset.pk, str(asset.lease_token))
        assert held is not None
        Asset.objects.filter(pk=asset.pk).update(
            status=AssetStatus.COMPLETED, chunk_count=count, completed_at=timezone.now()
        )
        leases.finish(held)


class CopyTimer:
    """Wraps the COPY writer the ingestion calls: seconds spent in COPY, chunks written."""

    def __init__(self) -> None:
        self.seconds, self.chunks = 0.0, 0

    def __call__(self, **arguments: Any) -> int:
        started = time.perf_counter()
        written = copy_chunks(**arguments)
        self.seconds += time.perf_counter() - started
        self.chunks += written
        return written


class TimedHashing(HashingEmbeddingProvider):
    """The hashing provider, adding up the seconds it embeds (the model's share)."""

    seconds = 0.0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return super().embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - started


# --- probes --------------------------------------------------------------------------


def copy_text(*, asset_id: Any, organization_id: Any, chunks: list[NewChunk]) -> int:
    """COPY in text format, vectors in pgvector's text form (the alternative measured)."""
    columns = ", ".join(chunk_copy.COLUMNS)
    sql = f"COPY assets_assetchunk ({columns}) FROM STDIN"
    with connection.cursor() as wrapper, wrapper.cursor.copy(sql) as copy:
        for chunk in chunks:
            location = chunk.location or ""
            fields = AssetChunk.location_fields(location)
            vector = "[" + ",".join(map(repr, chunk.embedding)) + "]"
            copy.write_row((
                asset_id, organization_id, chunk.index, chunk.text, location[:200],
                fields.get("page_number"), fields.get("sheet_name", ""),
                fields.get("slide_number"), vector, chunk.embedding_model, None, "",
            ))  # fmt: skip
    return len(chunks)


def bulk_create(*, asset_id: Any, organization_id: Any, chunks: list[NewChunk]) -> int:
    """The writer before COPY (``_store_batch``'s former bulk_create)."""
    AssetChunk.objects.bulk_create(
        AssetChunk(
            asset_id=asset_id, organization_id=organization_id, index=chunk.index,
            text=chunk.text, location=(chunk.location or "")[:200], embedding=chunk.embedding,
            embedding_model=chunk.embedding_model, **AssetChunk.location_fields(chunk.location),
        )
        for chunk in chunks
    )  # fmt: skip
    return len(chunks)


def indexes() -> dict[str, str]:
    """The chunk table's indexes but its primary key: name -> definition."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s "
            "AND indexname <> %s ORDER BY indexname",
            [AssetChunk._meta.db_table, f"{AssetChunk._meta.db_table}_pkey"],
        )
        return dict(cursor.fetchall())


def constraint_of(index: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT conname FROM pg_constraint WHERE conindid = %s::regclass", [index])
        row = cursor.fetchone()
        return row[0] if row else None


def probe_variants() -> list[tuple[str, list[str], Callable[..., int]]]:
    """(name, SQL run first in the rolled-back transaction, writer)."""
    table = AssetChunk._meta.db_table
    variants: list[tuple[str, list[str], Callable[..., int]]] = [
        ("as migrated (binary COPY)", [], copy_chunks)
    ]
    for name, definition in indexes().items():
        constraint = constraint_of(name)
        drop = (
            f"ALTER TABLE {table} DROP CONSTRAINT {constraint}" if constraint
            else f"DROP INDEX {name}"
        )  # fmt: skip
        variants.append((f"without {name}", [drop], copy_chunks))
        if " USING gin " in definition:
            variants.append(
                (f"{name} fastupdate=off", [f"ALTER INDEX {name} SET (fastupdate = off)"],
                 copy_chunks)
            )  # fmt: skip
            variants.append(
                (f"{name} gin_pending_list_limit=64MB",
                 ["SET LOCAL gin_pending_list_limit = '64MB'"], copy_chunks)
            )  # fmt: skip
    variants.append(("without any index but the primary key",
                     [f"DROP INDEX {n}" if not constraint_of(n) else
                      f"ALTER TABLE {table} DROP CONSTRAINT {constraint_of(n)}"
                      for n in indexes()], copy_chunks))  # fmt: skip
    variants.append(("COPY, vectors as text", [], copy_text))
    variants.append(("bulk_create (before)", [], bulk_create))
    return variants


def probe(organization: Organization, rows: list[NewChunk], batch: int) -> dict[str, float]:
    """ms per 1,000 chunks of each variant (median of PROBE_ROUNDS rounds, the variants'
    order rotated each round: a busy machine's noise spreads over all of them), each in a
    transaction rolled back."""
    variants = probe_variants()
    times: dict[str, list[float]] = {name: [] for name, _, _ in variants}
    for round_number in range(PROBE_ROUNDS):
        shift = round_number % len(variants)
        for name, statements, writer in variants[shift:] + variants[:shift]:
            with transaction.atomic():
                asset = Asset.objects.create(
                    organization=organization, original_file=f"{organization.container_name}/p",
                    original_file_name="probe.pdf", file_size=1, sha256="p" * 64,
                    media_type="application/pdf", status=AssetStatus.PROCESSING,
                )  # fmt: skip
                with connection.cursor() as cursor:
                    for statement in statements:
                        cursor.execute(statement)
                started = time.perf_counter()
                for start in range(0, len(rows), batch):
                    writer(asset_id=asset.pk, organization_id=organization.pk,
                           chunks=rows[start : start + batch])  # fmt: skip
                elapsed = time.perf_counter() - started
                transaction.set_rollback(True)
            times[name].append(elapsed * 1000 * 1000 / len(rows))
    return {name: round(statistics.median(values), 1) for name, values in times.items()}


def probe_rows(rng: random.Random, pool: list[str]) -> list[NewChunk]:
    chunks = list(islice(chunk_segments(pages(rng, pool, PROBE_CHUNKS)), PROBE_CHUNKS))
    embedder = HashingEmbeddingProvider()
    vectors = embedder.embed_documents([chunk.text for chunk in chunks])
    return [
        NewChunk(chunk.index, chunk.text, chunk.location, vector, embedder.name)
        for chunk, vector in zip(chunks, vectors, strict=True)
    ]


# --- the run ---------------------------------------------------------------------------


def rate_between(curve: list[tuple[int, float]], low: int, high: int) -> float:
    """Chunks/s between ``low`` and ``high`` stored chunks, on the (chunks, seconds) curve
    interpolated linearly between the points (one per stored asset)."""

    def seconds_at(chunks: int) -> float:
        for (c0, s0), (c1, s1) in pairwise(curve):
            if c0 <= chunks <= c1:
                return s0 + (s1 - s0) * (chunks - c0) / max(1, c1 - c0)
        return curve[-1][1]

    return (high - low) / max(1e-9, seconds_at(high) - seconds_at(low))


def run() -> dict[str, Any]:
    call_command("migrate", verbosity=0)
    organizations = reset()
    rng = random.Random(30)
    pool = sentence_pool(random.Random(5))
    planned = uploads(rng, organization_sizes(CHUNKS))
    embedder = TimedHashing()
    timer = CopyTimer()
    ingestion.copy_chunks = timer  # the writer the ingestion calls, timed
    rows_of_probe = probe_rows(random.Random(7), pool)
    probe_at = sorted({max(1, int(CHUNKS * fraction)) for fraction in PROBES})
    probes: list[dict[str, Any]] = []
    curve: list[tuple[int, float]] = [(0, 0.0)]
    copy_curve: list[tuple[int, float]] = [(0, 0.0)]
    embed_curve: list[tuple[int, float]] = [(0, 0.0)]
    stored, seconds, index_seconds, wall_started = 0, 0.0, 0.0, time.monotonic()
    tracemalloc.start()
    for number, upload in enumerate(planned):
        asset = claimed_asset(organizations[upload.organization], number, upload.chunks)
        segments = pages(rng, pool, upload.chunks)
        started = time.perf_counter()
        count = ingestion.store_chunks(
            asset,
            islice(
                chunk_segments(segments, size=settings.CHUNK_SIZE, overlap=settings.CHUNK_OVERLAP),
                upload.chunks,
            ),
            embedder=embedder,
            deadline=time.monotonic() + 3600,
        )
        seconds += time.perf_counter() - started
        complete(asset, count)
        index_seconds += build_tenant_index(asset.organization_id)
        stored += count
        curve.append((stored, seconds))
        copy_curve.append((stored, timer.seconds))
        embed_curve.append((stored, embedder.seconds))
        while probe_at and stored >= probe_at[0]:
            probe_at.pop(0)
            probes.append({
                "storedChunks": stored,
                "msPer1000Chunks": probe(organizations[0], rows_of_probe,
                                         embedder.preferred_batch_size),
            })  # fmt: skip
            print(json.dumps(probes[-1]), file=sys.stderr, flush=True)
        if number % 20 == 0:
            print(f"{stored} chunks, {stored / seconds:.0f}/s", file=sys.stderr, flush=True)
    peak_mb = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    tenths = [rate_between(curve, CHUNKS * k // 10, CHUNKS * (k + 1) // 10) for k in range(10)]
    copy_ms = [
        1000 * 1000 / rate_between(copy_curve, CHUNKS * k // 10, CHUNKS * (k + 1) // 10)
        for k in range(10)
    ]
    embed_ms = [
        1000 * 1000 / rate_between(embed_curve, CHUNKS * k // 10, CHUNKS * (k + 1) // 10)
        for k in range(10)
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_pretty(pg_total_relation_size(%s)), "
            "pg_size_pretty(pg_relation_size(%s))",
            [AssetChunk._meta.db_table] * 2,
        )
        total_size, heap_size = cursor.fetchone()
    return {
        "chunks": stored, "assets": len(planned), "organizations": ORGANIZATIONS,
        "batchSize": embedder.preferred_batch_size, "storingSeconds": round(seconds, 1),
        "wallSeconds": round(time.monotonic() - wall_started, 1),
        "tenantIndexBuildSeconds": round(index_seconds, 1),
        "ratePerTenth": [round(rate) for rate in tenths],
        "copyMsPer1000ChunksPerTenth": [round(ms, 1) for ms in copy_ms],
        "embeddingMsPer1000ChunksPerTenth": [round(ms, 1) for ms in embed_ms],
        "overallRate": round(stored / seconds), "peakMemoryMB": round(peak_mb, 1),
        "tableSize": total_size, "heapSize": heap_size, "indexes": indexes(), "probes": probes,
    }  # fmt: skip


def summary(result: dict[str, Any]) -> list[dict[str, Any]]:
    tenths = result["ratePerTenth"]
    ratio = tenths[-1] / tenths[0]
    method = (
        f"hashing provider, chunker + batcher + store_chunks (lease check, binary COPY, "
        f"progress) in batches of {result['batchSize']}, {result['assets']} assets of "
        f"100 organizations interleaved, from an empty table"
    )
    rows = [
        {"metric": f"storing rate, {result['chunks']} chunks overall ({method})",
         "median": result["overallRate"], "p95": None, "unit": "chunks/s",
         "peakMemoryMB": result["peakMemoryMB"], "target": f">= {TARGET_RATE} chunks/s"},
        {"metric": "storing rate, first tenth", "median": tenths[0], "p95": None,
         "unit": "chunks/s", "peakMemoryMB": None, "target": None},
        {"metric": "storing rate, last tenth", "median": tenths[-1], "p95": None,
         "unit": "chunks/s", "peakMemoryMB": None, "target": None},
        {"metric": "storing rate, last tenth / first tenth", "median": round(ratio, 3),
         "p95": None, "unit": "ratio", "peakMemoryMB": None, "target": f">= {TARGET_RATIO}"},
    ]  # fmt: skip
    rows.append({
        "metric": "per-organization HNSW builds and rebuilds between the uploads (not in "
                  "the rate; a worker builds them beside the ingestions)",
        "median": result["tenantIndexBuildSeconds"], "p95": None, "unit": "s",
        "peakMemoryMB": None, "target": None,
    })  # fmt: skip
    for k, (rate, copy_ms, embed_ms) in enumerate(
        zip(
            tenths,
            result["copyMsPer1000ChunksPerTenth"],
            result["embeddingMsPer1000ChunksPerTenth"],
            strict=True,
        )
    ):
        rows.append({
            "metric": f"storing rate, tenth {k + 1} (per 1,000 chunks: {copy_ms} ms in COPY, "
                      f"{embed_ms} ms hashing, {round(1e6 / rate - copy_ms - embed_ms)} ms "
                      "chunking, transactions, lease checks and progress)",
            "median": rate, "p95": None, "unit": "chunks/s", "peakMemoryMB": None,
            "target": None,
        })  # fmt: skip
    for measured in result["probes"]:
        for name, ms in probe_rows_of(measured["msPer1000Chunks"]).items():
            rows.append({
                "metric": f"write of {PROBE_CHUNKS} chunks at {measured['storedChunks']} "
                          f"stored, rolled back: {name}",
                "median": ms, "p95": None, "unit": "ms per 1,000 chunks",
                "peakMemoryMB": None, "target": None,
            })  # fmt: skip
    return rows


def probe_rows_of(measured: dict[str, float]) -> dict[str, float]:
    """The probes for the report: one row for the organizations' vector indexes dropped one
    at a time (the cheapest write among them, the organization's own index included: a
    probe writes into the large organization), the others as measured (all in the JSON)."""
    tenant = "without asset_chunk_hnsw_"
    rows = {name: ms for name, ms in measured.items() if not name.startswith(tenant)}
    dropped = [ms for name, ms in measured.items() if name.startswith(tenant)]
    if dropped:
        label = f"without one organization's vector index ({len(dropped)} tried), the cheapest"
        rows[label] = min(dropped)
    return rows


def main() -> None:
    result = run()
    print(json.dumps({**result, "summary": summary(result)}))


if __name__ == "__main__":
    main()
