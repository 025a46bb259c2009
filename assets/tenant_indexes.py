"""One partial HNSW index per large organization, built and dropped in the background.

A search ranks an organization's vectors either through the organization's own partial
HNSW index (``... USING hnsw (embedding vector_cosine_ops) WHERE organization_id = '<uuid>'
AND id <= <W>``), once it is READY, or exactly over the organization's chunks
(assets/search.py). Exact
ranking reads every chunk of the organization, so it stays fast only up to some thousands
of chunks: from ``TENANT_VECTOR_INDEX_MIN_CHUNKS`` on (bench/bench_search_tenants.py) the
organization gets its index. One graph per organization instead of one for all: a
search never walks other organizations' vectors to find its own, and a small organization
among large ones costs what its own chunks cost.

The watermark ``W`` (``TenantVectorIndex.indexed_through_id``, the organization's last
chunk id when the build started) keeps the graph off the write path: a chunk inserted later
has a higher id (a BigAutoField), fails the predicate, and PostgreSQL never inserts it into
the graph (an HNSW insert cost 3 to 6 ms a chunk, building a graph at once 0.44 to 0.9 ms a
vector: bench/bench_storing.py). The search ranks those chunks, the tail, exactly through
the (organization_id, id) btree, beside the graph's candidates. Once the tail reaches
``max(TENANT_VECTOR_INDEX_MIN_CHUNKS, TENANT_VECTOR_INDEX_REBUILD_FRACTION x`` the chunks the
index covers``)`` the reconcile rebuilds the index through the organization's last chunk
under its other name (two names per organization, used in turn), then drops the old one; the
old index and its tail serve the searches until then. An index built before watermarks
(NULL: every chunk of the organization, no tail) is rebuilt with one by the next reconcile.

``reconcile`` makes the catalogue agree: it builds the missing indexes of organizations at
or above the threshold (``CREATE INDEX CONCURRENTLY``: ingestion and search go on), rebuilds
those whose tail has grown, and drops the indexes no organization owns any more (a deleted
organization; its row went with it) or that its row no longer names (a superseded or
interrupted build).
It runs after an ingestion that took an organization past the threshold
(``reconcile_after_ingestion``), periodically (beat), and on demand (``manage.py
tenant_vector_indexes``). One reconcile at a time (an advisory lock). While a re-embedding
is running, no index is built: assets.reembedding builds the next column's indexes of the
organizations recorded here and renames them at the swap.

Index names are made from the organization's uuid (hex digits), never from user text.
"""

from __future__ import annotations

import logging
import math
import re
import time
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection
from django.db.models import Max, Sum
from django.utils import timezone

from assets.models import (
    Asset,
    AssetChunk,
    AssetStatus,
    ReembedJob,
    TenantVectorIndex,
    TenantVectorIndexState,
)
from common.advisory_lock import session_advisory_lock

logger = logging.getLogger(__name__)

TABLE = "assets_assetchunk"
INDEX_PREFIX = "asset_chunk_hnsw_"
# The other name of an organization's index: a rebuild builds the new graph beside the one
# serving the searches, so it needs a name of its own (the two are used in turn). It starts
# with INDEX_PREFIX: what looks for the organizations' indexes by that prefix finds both.
ALTERNATE_INDEX_PREFIX = INDEX_PREFIX + "alt_"
NEXT_INDEX_PREFIX = "asset_chunk_next_hnsw_"
# The HNSW parameters of every vector index (the global one had the same).
HNSW_OPTIONS = "m = 16, ef_construction = 64"
# A re-embedding in these phases builds or swaps the next column's indexes itself
# (assets.reembedding's phase names; imported there from here would be circular).
_REEMBEDDING_BUILDS = ("embedding", "catching-up", "indexing", "swapping")
# The watermark in an index's predicate as pg_get_expr prints it.
_WATERMARK = re.compile(r"\(id <= '?(\d+)'?(?:::bigint)?\)")
# An arbitrary constant: the advisory lock that lets one reconcile run at a time.
_RECONCILE_LOCK = 0x7E1A17


@dataclass(slots=True)
class ReconcileOutcome:
    # The indexes built, first builds and rebuilds alike (their new names).
    built: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    # Another reconcile held the lock, or a re-embedding is building indexes.
    skipped: str = ""


def index_name(organization_id: object) -> str:
    """The partial index of the organization's ``embedding`` column (63 characters at most)."""
    return INDEX_PREFIX + uuid.UUID(str(organization_id)).hex


def alternate_index_name(organization_id: object) -> str:
    """The other name of the same index, for its rebuild (63 characters at most)."""
    return ALTERNATE_INDEX_PREFIX + uuid.UUID(str(organization_id)).hex


def next_index_name(organization_id: object) -> str:
    """The same on ``embedding_next``, built by a re-embedding and renamed at its swap."""
    return NEXT_INDEX_PREFIX + uuid.UUID(str(organization_id)).hex


def create_index_sql(
    *, organization_id: object, name: str, column: str, concurrently: bool, through_id: int | None
) -> str:
    """The CREATE INDEX of one organization's vectors up to chunk ``through_id`` (the
    watermark; None: all of them); ``column`` is ``embedding`` or ``embedding_next``, the
    name and the uuid literal are made of hex digits, the watermark of decimal ones."""
    assert column in ("embedding", "embedding_next"), column
    names = (
        index_name(organization_id),
        alternate_index_name(organization_id),
        next_index_name(organization_id),
    )
    assert name in names, name
    organization = uuid.UUID(str(organization_id))
    watermark = "" if through_id is None else f" AND id <= {int(through_id)}"
    return (
        f"CREATE INDEX {'CONCURRENTLY ' if concurrently else ''}{name} ON {TABLE} "
        f"USING hnsw ({column} vector_cosine_ops) WITH ({HNSW_OPTIONS}) "
        f"WHERE organization_id = '{organization}'{watermark}"
    )


def watermark_in(predicate: str | None) -> int | None:
    """The watermark of an index from its predicate as PostgreSQL prints it
    (``pg_get_expr``: ``... AND (id <= 123)``, a bigint one quoted), None without one."""
    match = _WATERMARK.search(predicate or "")
    return int(match.group(1)) if match else None


def ready_index(organization_id: object) -> TenantVectorIndex | None:
    """The organization's index once the search may rank its vectors through it (its
    ``indexed_through_id`` says where the tail starts), else None."""
    return TenantVectorIndex.objects.filter(
        organization_id=organization_id, state=TenantVectorIndexState.READY
    ).first()


def organization_chunks(*, organization_id: object | None = None) -> dict[uuid.UUID, int]:
    """Chunks of each organization's COMPLETED assets (from the assets' counts: no scan of
    the chunk table)."""
    assets = Asset.objects.filter(status=AssetStatus.COMPLETED)
    if organization_id is not None:
        assets = assets.filter(organization_id=organization_id)
    totals = assets.values("organization_id").annotate(chunks=Sum("chunk_count"))
    return {row["organization_id"]: int(row["chunks"] or 0) for row in totals}


def needs_index(*, organization_id: object) -> bool:
    """The organization reached the threshold and has no index recorded, or its READY index
    needs a rebuild (``needs_rebuild``). Cheap: the ingestion asks after each asset."""
    recorded = TenantVectorIndex.objects.filter(organization_id=organization_id).first()
    if recorded is not None:
        return needs_rebuild(recorded)
    chunks = organization_chunks(organization_id=organization_id).get(
        uuid.UUID(str(organization_id)), 0
    )
    return chunks >= settings.TENANT_VECTOR_INDEX_MIN_CHUNKS


def needs_rebuild(recorded: TenantVectorIndex) -> bool:
    """The READY index has no watermark (built before them: every insert of the organization
    still pays its HNSW insert), or the organization's chunks past its watermark (the tail,
    ranked exactly by every search) reached ``rebuild_threshold``. A BUILDING one is the
    reconcile's to finish.

    The tail is counted, not estimated from the organization's total: documents deleted and
    uploaded again leave the total where it was while every new chunk is in the tail (a
    re-uploaded organization was never rebuilt and ranked itself exactly). The count reads
    the (organization_id, id) btree and stops at the threshold."""
    if recorded.state != TenantVectorIndexState.READY:
        return False
    if recorded.indexed_through_id is None:
        return True
    threshold = math.ceil(rebuild_threshold(recorded.chunks_when_built))
    tail = AssetChunk.objects.filter(
        organization_id=recorded.organization_id, id__gt=recorded.indexed_through_id
    )[:threshold].count()
    return tail >= threshold


def rebuild_threshold(indexed_chunks: int) -> float:
    """The tail that makes an index of ``indexed_chunks`` worth rebuilding: a fraction of it,
    so the rebuilds of a growing organization cost a bounded multiple of its chunks (each
    at least 1 + fraction times the last), and never fewer than the chunks an index is
    built for at all (exact ranking is fast up to there)."""
    fraction = settings.TENANT_VECTOR_INDEX_REBUILD_FRACTION
    return max(settings.TENANT_VECTOR_INDEX_MIN_CHUNKS, fraction * indexed_chunks)


def reconcile(*, organization_id: object | None = None) -> ReconcileOutcome:
    """Build the missing indexes, rebuild those whose tail has grown (``needs_rebuild``; an
    index without a watermark too), of ``organization_id`` only when given, and drop those
    of deleted organizations and those superseded. Outside a transaction the builds are
    CONCURRENT (a test inside one builds them plainly: PostgreSQL refuses CONCURRENTLY
    there)."""
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
            recorded = TenantVectorIndex.objects.filter(organization_id=organization).first()
            if recorded is None:
                if chunks < threshold:
                    continue
                name = index_name(organization)
                built = _build(organization_id=organization, name=name, valid=False)
            elif recorded.state != TenantVectorIndexState.READY or (
                recorded.index_name not in present
            ):
                name = recorded.index_name
                built = _build(organization_id=organization, name=name, valid=name in present)
            elif needs_rebuild(recorded):
                name = _other_name(recorded)
                built = _rebuild(recorded, name=name)
            else:
                continue
            if built:
                outcome.built.append(name)
    return outcome


def _build(*, organization_id: uuid.UUID, name: str, valid: bool) -> bool:
    """Build (or adopt a valid leftover of) the organization's first index, or one that is
    missing, then mark it READY; the search ranks the organization exactly meanwhile. False
    when the organization was deleted meanwhile."""
    started = time.monotonic()
    if valid:
        # A build finished but not recorded READY (its worker died): its watermark and
        # chunks were recorded when it started.
        row = TenantVectorIndex.objects.get(organization_id=organization_id)
    else:
        chunks, through_id = _watermark(organization_id)
        row, _ = TenantVectorIndex.objects.update_or_create(
            organization_id=organization_id,
            defaults={"index_name": name, "state": TenantVectorIndexState.BUILDING,
                      "indexed_through_id": through_id, "chunks_when_built": chunks},
        )  # fmt: skip
        _create_index(organization_id=organization_id, name=name, through_id=through_id)
    seconds = time.monotonic() - started
    updated = TenantVectorIndex.objects.filter(pk=row.pk).update(
        state=TenantVectorIndexState.READY, built_at=timezone.now(), build_seconds=seconds
    )
    if not updated:  # the organization was deleted while its index was built
        _drop_orphans()
        return False
    logger.info(
        "vector index %s of %s chunks built in %.1f s", name, row.chunks_when_built, seconds
    )
    return True


def _rebuild(recorded: TenantVectorIndex, *, name: str) -> bool:
    """Build the organization's index again through its last chunk under ``name`` (its
    other one), then record it and drop the old one. The row stays READY throughout: the
    old index and its tail serve the searches until the new one is recorded, and a search
    that read the old watermark is still right with the new index (``id <= W`` implies
    ``id <= W'``). False when the organization was deleted meanwhile."""
    organization_id, old_name = recorded.organization_id, recorded.index_name
    chunks, through_id = _watermark(organization_id)
    started = time.monotonic()
    _create_index(organization_id=organization_id, name=name, through_id=through_id)
    seconds = time.monotonic() - started
    # One UPDATE: a search reads the name and the watermark of one and the same index.
    updated = TenantVectorIndex.objects.filter(
        pk=organization_id, index_name=old_name, state=TenantVectorIndexState.READY
    ).update(
        index_name=name, indexed_through_id=through_id, chunks_when_built=chunks,
        built_at=timezone.now(), build_seconds=seconds,
    )  # fmt: skip
    # The old index (or, when the organization was deleted meanwhile, the new one) is no
    # longer the recorded one.
    _drop_orphans()
    if not updated:
        return False
    logger.info(
        "vector index %s of %s chunks rebuilt through chunk %s in %.1f s (was %s)",
        name, chunks, through_id, seconds, old_name,
    )  # fmt: skip
    return True


def _watermark(organization_id: uuid.UUID) -> tuple[int, int]:
    """The organization's chunks (of COMPLETED assets) and then its last chunk id: the
    chunks and the watermark of the index about to be built.

    Every chunk with an id up to the watermark ends up in the index, even one whose
    transaction commits after the watermark was read: CREATE INDEX CONCURRENTLY waits for
    the transactions that may write into the table without knowing the new index to end
    (their rows are then in its build's snapshot, or added by its validation pass), and
    every later insert knows the index and evaluates its predicate. The count is read
    first: a counted chunk's asset completed after its chunks were written, so each of
    them is below the watermark. The chunks of assets still processing are indexed but
    counted only once they complete, in the tail: a rebuild at worst a little early.
    """
    chunks = organization_chunks(organization_id=organization_id).get(organization_id, 0)
    # id > 0 (every chunk): the (organization_id, id) btree's predicate, so it serves this.
    last = AssetChunk.objects.filter(organization_id=organization_id, id__gt=0).aggregate(
        last=Max("id")
    )
    return chunks, int(last["last"] or 0)


def _create_index(*, organization_id: uuid.UUID, name: str, through_id: int) -> None:
    """CREATE INDEX of the organization's vectors through ``through_id`` under ``name``,
    after dropping what an interrupted concurrent build left under that name (an invalid
    index). Concurrently outside a transaction."""
    concurrently = not connection.in_atomic_block
    with connection.cursor() as cursor:
        if not concurrently:
            # Inside a caller's transaction that wrote chunks (a test), CREATE INDEX
            # refuses to run while their deferred foreign-key checks are pending.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"DROP INDEX {'CONCURRENTLY ' if concurrently else ''}IF EXISTS {name}")
        memory = int(settings.TENANT_VECTOR_INDEX_BUILD_MEMORY_MB)
        # The graph built in memory: past maintenance_work_mem the build slows down a lot.
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, false)", [f"{memory}MB"])
        try:
            cursor.execute(
                create_index_sql(
                    organization_id=organization_id, name=name, column="embedding",
                    concurrently=concurrently, through_id=through_id,
                )
            )  # fmt: skip
        finally:
            cursor.execute("RESET maintenance_work_mem")


def _other_name(recorded: TenantVectorIndex) -> str:
    """The name the organization's index is not under now: where its rebuild goes."""
    organization = recorded.organization_id
    if recorded.index_name == index_name(organization):
        return alternate_index_name(organization)
    return index_name(organization)


def _valid_indexes() -> set[str]:
    """The valid indexes of the organizations' ``embedding`` (both names: the alternate
    prefix starts with INDEX_PREFIX)."""
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
    """Drop the tenant indexes that no recorded organization owns (active and next), and
    those of ``embedding`` that its row does not name: a rebuild's old index, or the new
    one of a rebuild interrupted before it was recorded. Only under the reconcile's lock
    (no build of the reconcile is running then; a re-embedding's next indexes are left)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = %s "
            "AND (indexname LIKE %s OR indexname LIKE %s)",
            [TABLE, INDEX_PREFIX.replace("_", r"\_") + "%",
             NEXT_INDEX_PREFIX.replace("_", r"\_") + "%"],
        )  # fmt: skip
        names = [name for (name,) in cursor.fetchall()]
    recorded = {
        uuid.UUID(str(organization)).hex: name
        for organization, name in TenantVectorIndex.objects.values_list(
            "organization_id", "index_name"
        )
    }
    dropped = []
    concurrently = "" if connection.in_atomic_block else "CONCURRENTLY "
    for name in names:
        hex_digits = name.rsplit("_", 1)[-1]
        # Only the names this module makes: another index that happens to match the
        # prefixes (an operator's own) is not the reconcile's to drop.
        if not _is_hex(hex_digits) or name not in _names_of(hex_digits):
            continue
        owned = hex_digits in recorded
        if owned and (name.startswith(NEXT_INDEX_PREFIX) or recorded[hex_digits] == name):
            continue
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")
        dropped.append(name)
        reason = "superseded" if owned else "its organization is gone"
        logger.info("vector index %s dropped: %s", name, reason)
    return dropped


def _names_of(hex_digits: str) -> tuple[str, str, str]:
    """Every index name this module makes for the organization of ``hex_digits``."""
    return (
        index_name(hex_digits),
        alternate_index_name(hex_digits),
        next_index_name(hex_digits),
    )


def _is_hex(text: str) -> bool:
    return len(text) == 32 and all(character in "0123456789abcdef" for character in text)
