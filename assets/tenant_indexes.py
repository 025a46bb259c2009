"""One partial HNSW index per large organization, built and dropped in the background.

A search ranks an organization's vectors either through the organization's own partial
HNSW index (``... USING hnsw (embedding vector_cosine_ops) WHERE organization_id = '<uuid>'``),
once it is READY, or exactly over the organization's chunks (assets/search.py). Exact
ranking reads every chunk of the organization, so it stays fast only up to some thousands
of chunks: from ``TENANT_VECTOR_INDEX_MIN_CHUNKS`` on (bench/bench_search_tenants.py) the
organization gets its index. One graph per organization instead of one for all: a
search never walks other organizations' vectors to find its own, and a small organization
among large ones costs what its own chunks cost.

``reconcile`` makes the catalogue agree: it builds the missing indexes of organizations at
or above the threshold (``CREATE INDEX CONCURRENTLY``: ingestion and search go on) and drops
the indexes no organization owns any more (a deleted organization; its row went with it).
It runs after an ingestion that took an organization past the threshold
(``reconcile_after_ingestion``), periodically (beat), and on demand (``manage.py
tenant_vector_indexes``). One reconcile at a time (an advisory lock). While a re-embedding
is running, no index is built: assets.reembedding builds the next column's indexes of the
organizations recorded here and renames them at the swap.

Index names are made from the organization's uuid (hex digits), never from user text.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from assets.models import (
    Asset,
    AssetStatus,
    ReembedJob,
    TenantVectorIndex,
    TenantVectorIndexState,
)
from common.advisory_lock import session_advisory_lock

logger = logging.getLogger(__name__)

TABLE = "assets_assetchunk"
INDEX_PREFIX = "asset_chunk_hnsw_"
NEXT_INDEX_PREFIX = "asset_chunk_next_hnsw_"
# The HNSW parameters of every vector index (the global one had the same).
HNSW_OPTIONS = "m = 16, ef_construction = 64"
# A re-embedding in these phases builds or swaps the next column's indexes itself
# (assets.reembedding's phase names; imported there from here would be circular).
_REEMBEDDING_BUILDS = ("embedding", "catching-up", "indexing", "swapping")
# An arbitrary constant: the advisory lock that lets one reconcile run at a time.
_RECONCILE_LOCK = 0x7E1A17


@dataclass(slots=True)
class ReconcileOutcome:
    built: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    # Another reconcile held the lock, or a re-embedding is building indexes.
    skipped: str = ""


def index_name(organization_id: object) -> str:
    """The partial index of the organization's ``embedding`` column (63 characters at most)."""
    return INDEX_PREFIX + uuid.UUID(str(organization_id)).hex


def next_index_name(organization_id: object) -> str:
    """The same on ``embedding_next``, built by a re-embedding and renamed at its swap."""
    return NEXT_INDEX_PREFIX + uuid.UUID(str(organization_id)).hex


def create_index_sql(*, organization_id: object, name: str, column: str, concurrently: bool) -> str:
    """The CREATE INDEX of one organization's vectors; ``column`` is ``embedding`` or
    ``embedding_next``, the name and the uuid literal are made of hex digits."""
    assert column in ("embedding", "embedding_next"), column
    assert name in (index_name(organization_id), next_index_name(organization_id)), name
    organization = uuid.UUID(str(organization_id))
    return (
        f"CREATE INDEX {'CONCURRENTLY ' if concurrently else ''}{name} ON {TABLE} "
        f"USING hnsw ({column} vector_cosine_ops) WITH ({HNSW_OPTIONS}) "
        f"WHERE organization_id = '{organization}'"
    )


def has_ready_index(organization_id: object) -> bool:
    """Whether the search may rank the organization's vectors through its own index."""
    return TenantVectorIndex.objects.filter(
        organization_id=organization_id, state=TenantVectorIndexState.READY
    ).exists()


def organization_chunks(*, organization_id: object | None = None) -> dict[uuid.UUID, int]:
    """Chunks of each organization's COMPLETED assets (from the assets' counts: no scan of
    the chunk table)."""
    assets = Asset.objects.filter(status=AssetStatus.COMPLETED)
    if organization_id is not None:
        assets = assets.filter(organization_id=organization_id)
    totals = assets.values("organization_id").annotate(chunks=Sum("chunk_count"))
    return {row["organization_id"]: int(row["chunks"] or 0) for row in totals}


def needs_index(*, organization_id: object) -> bool:
    """The organization reached the threshold and has no index recorded (cheap: the
    ingestion asks after each asset)."""
    if TenantVectorIndex.objects.filter(organization_id=organization_id).exists():
        return False
    chunks = organization_chunks(organization_id=organization_id).get(
        uuid.UUID(str(organization_id)), 0
    )
    return chunks >= settings.TENANT_VECTOR_INDEX_MIN_CHUNKS


def reconcile(*, organization_id: object | None = None) -> ReconcileOutcome:
    """Build the missing indexes (of ``organization_id`` only, when given) and drop those of
    deleted organizations. Outside a transaction the builds are CONCURRENT (a test inside
    one builds them plainly: PostgreSQL refuses CONCURRENTLY there)."""
    outcome = ReconcileOutcome()
    with session_advisory_lock(_RECONCILE_LOCK) as acquired:
        if not acquired:
            outcome.skipped = "another reconcile is running"
            return outcome
        outcome.dropped = _drop_orphans()
        if ReembedJob.objects.running().filter(phase__in=_REEMBEDDING_BUILDS).exists():
            outcome.skipped = "a re-embedding is running"
            return outcome
        present = _valid_indexes()
        threshold = settings.TENANT_VECTOR_INDEX_MIN_CHUNKS
        totals = organization_chunks(organization_id=organization_id)
        for organization, chunks in sorted(totals.items()):
            name = index_name(organization)
            recorded = TenantVectorIndex.objects.filter(organization_id=organization).first()
            ready = recorded is not None and recorded.state == TenantVectorIndexState.READY
            if name in present and ready:
                continue
            if chunks < threshold and recorded is None:
                continue
            if _build(organization_id=organization, chunks=chunks, valid=name in present):
                outcome.built.append(name)
    return outcome


def _build(*, organization_id: uuid.UUID, chunks: int, valid: bool) -> bool:
    """Build (or adopt a valid leftover of) the organization's index, then mark it READY.
    False when the organization was deleted meanwhile."""
    name = index_name(organization_id)
    row, _ = TenantVectorIndex.objects.update_or_create(
        organization_id=organization_id,
        defaults={"index_name": name, "state": TenantVectorIndexState.BUILDING,
                  "chunks_when_built": chunks},
    )  # fmt: skip
    concurrently = not connection.in_atomic_block
    started = time.monotonic()
    with connection.cursor() as cursor:
        if not valid:
            if not concurrently:
                # Inside a caller's transaction that wrote chunks (a test), CREATE INDEX
                # refuses to run while their deferred foreign-key checks are pending.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            # An interrupted concurrent build leaves an invalid index of that name.
            cursor.execute(f"DROP INDEX {'CONCURRENTLY ' if concurrently else ''}IF EXISTS {name}")
            memory = int(settings.TENANT_VECTOR_INDEX_BUILD_MEMORY_MB)
            # The graph built in memory: past maintenance_work_mem the build slows down a lot.
            cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [f"{memory}MB"])
            try:
                cursor.execute(
                    create_index_sql(
                        organization_id=organization_id, name=name, column="embedding",
                        concurrently=concurrently,
                    )
                )  # fmt: skip
            finally:
                cursor.execute("RESET maintenance_work_mem")
    seconds = time.monotonic() - started
    updated = TenantVectorIndex.objects.filter(pk=row.pk).update(
        state=TenantVectorIndexState.READY, built_at=timezone.now(), build_seconds=seconds
    )
    if not updated:  # the organization was deleted while its index was built
        _drop_orphans()
        return False
    logger.info("vector index %s of %s chunks built in %.1f s", name, chunks, seconds)
    return True


def _valid_indexes() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT class.relname FROM pg_index index "
            "JOIN pg_class class ON class.oid = index.indexrelid "
            "WHERE index.indrelid = %s::regclass AND index.indisvalid "
            "AND class.relname LIKE %s",
            [TABLE, INDEX_PREFIX.replace("_", r"\_") + "%"],
        )
        return {name for (name,) in cursor.fetchall()}


def _drop_orphans() -> list[str]:
    """Drop the tenant indexes (active and next) that no recorded organization owns."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = %s "
            "AND (indexname LIKE %s OR indexname LIKE %s)",
            [TABLE, INDEX_PREFIX.replace("_", r"\_") + "%",
             NEXT_INDEX_PREFIX.replace("_", r"\_") + "%"],
        )  # fmt: skip
        names = [name for (name,) in cursor.fetchall()]
    owned = {
        uuid.UUID(str(organization)).hex
        for organization in TenantVectorIndex.objects.values_list("organization_id", flat=True)
    }
    dropped = []
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY "
    for name in names:
        hex_digits = name.rsplit("_", 1)[-1]
        if hex_digits in owned or not _is_hex(hex_digits):
            continue
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")
        dropped.append(name)
        logger.info("vector index %s dropped: its organization is gone", name)
    return dropped


def _is_hex(text: str) -> bool:
    return len(text) == 32 and all(character in "0123456789abcdef" for character in text)
