"""Moving every chunk to another embedding model, in the background, while search goes on.

``reembed_start`` records a ``ReembedJob``; the ``reembed_chunks_task`` chain (queue
``ingestion``) then runs ``reembed_step`` until the job is done, one short step at a time:

1. ``embedding``: batches of chunks in id order after ``job.cursor``; each batch's vectors go
   into ``embedding_next`` (and the provider's name into ``embedding_next_model``) and the
   cursor moves past the batch IN THE SAME TRANSACTION, so a worker killed mid-batch loses
   only that uncommitted batch and a restart resumes after the last committed one. Chunks
   ingested meanwhile get higher ids and are reached by the cursor.
2. ``catching-up``: chunks still without a next vector (a chunk committed late with an id
   below the cursor), the same way.
3. ``indexing``: the per-organization HNSW indexes of ``embedding_next`` are built, one for
   each organization that has one on ``embedding`` (assets.tenant_indexes; CONCURRENTLY
   outside a transaction: ingestion and search go on), through the same watermark as the
   organization's index on ``embedding`` (the chunks past it, the tail, are ranked exactly
   on either column); chunks ingested later are of the tail. No reconcile builds an index
   meanwhile.
4. ``swapping``: one transaction locks the chunks against writes (reads go on), embeds the
   last stragglers, then, under a lock held for milliseconds, drops ``embedding`` and its
   indexes, renames ``embedding_next``/``embedding_next_model``/their indexes into their place
   (the record takes the watermark of the index renamed into its name; an organization
   without a next index loses its record: the reconcile builds it again),
   adds empty next columns and switches ``EmbeddingIndex.active_model``. Renaming is a
   catalogue change: no row is rewritten, the index built in step 3 serves at once, and no
   search ever sees a mix of models. Until then searches use ``embedding`` and the old model
   (``assets.embedding.embedding_provider`` reads the active model).
5. ``sweeping``: an ingestion that was already running with the old provider at the swap
   writes old vectors (its chunks name the old model); they are re-embedded in place until
   no such ingestion remains. Then the job is COMPLETED.

Only one step of a job runs at a time (a PostgreSQL advisory lock): a second task chain
(the command run again while a job runs, to revive a chain that may be lost) ends when one
of its steps finds the lock held, else takes turns with the first; the result is the same.
Progress (done, total, percent, ETA) is logged with every batch and returned by
``reembed_status``. ``reembed_cancel`` drops the next columns' contents and index.

A dropped column's data stays in the table's pages until the rows are rewritten (VACUUM
FULL, pg_repack); each re-embedding leaves one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from assets import tenant_indexes
from assets.embedding import MODELS, active_model, provider_for
from assets.models import (
    Asset,
    AssetChunk,
    AssetStatus,
    EmbeddingIndex,
    ReembedJob,
    ReembedStatus,
    TenantVectorIndex,
)
from assets.search import vector_literal
from common.advisory_lock import session_advisory_lock

logger = logging.getLogger(__name__)

EMBEDDING = "embedding"
CATCHING_UP = "catching-up"
INDEXING = "indexing"
SWAPPING = "swapping"
SWEEPING = "sweeping"
DONE = "done"

TABLE = "assets_assetchunk"
# The global index of ``embedding_next`` built by releases before per-organization indexes
# (migration 0013): dropped with the next columns should a cancelled job have left it.
NEXT_INDEX = "asset_chunk_embedding_next_hnsw"
# Any lock that search or ingestion hold is short; waiting longer means something is stuck,
# and the swap is tried again by the next step rather than queueing every search behind it.
SWAP_LOCK_TIMEOUT = "5s"
# While an ingestion started before the swap may still write old vectors, look again after.
SWEEP_RETRY_SECONDS = 10
# An arbitrary constant: the advisory lock that lets one re-embedding step run at a time.
_STEP_LOCK = 0x5EE3B0


class ReembedError(Exception):
    """A re-embedding cannot start, resume or be cancelled; the message says why."""


@dataclass(frozen=True, slots=True)
class ReembedProgress:
    job_id: str
    source_model: str
    target_model: str
    status: str
    phase: str
    chunks_done: int
    chunks_total: int
    percent: float
    eta_seconds: int | None
    started_at: datetime
    error: str


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """What the task does next: nothing (``more`` False), at once, or after ``delay``."""

    more: bool
    delay: int = 0


def reembed_start(*, model: str, batch_size: int = 64) -> ReembedJob:
    """Start re-embedding every chunk with ``model`` (or return the running job to it).

    Raises ReembedError when ``model`` is unknown, already active, of another size than the
    column, or when a re-embedding to another model is running; EmbeddingProviderUnavailable
    when its provider cannot be built here. The caller enqueues ``reembed_chunks_task``.
    """
    if model not in MODELS:
        raise ReembedError(f"unknown model {model!r}; choose one of {', '.join(MODELS)}")
    if batch_size < 1:
        raise ReembedError("the batch size must be positive")
    running = ReembedJob.objects.running().first()
    if running is not None:
        if running.target_model != model:
            raise ReembedError(
                f"a re-embedding to {running.target_model} is running; cancel it first"
            )
        return running
    provider = provider_for(model)
    if provider.dimensions != settings.EMBEDDING_DIMENSIONS:
        raise ReembedError(
            f"{model} makes {provider.dimensions}-dimension vectors; the column holds "
            f"{settings.EMBEDDING_DIMENSIONS}"
        )
    source = active_model()
    if source == model:
        raise ReembedError(f"the chunks are already embedded with {model}")
    with transaction.atomic():
        # A cancelled or failed job may have left next vectors of another model.
        _reset_next_columns()
        job = ReembedJob.objects.create(
            source_model=source,
            target_model=model,
            batch_size=batch_size,
            chunks_total=AssetChunk.objects.count(),
        )
    logger.info(
        "re-embedding %s chunks from %s to %s (job %s)",
        job.chunks_total, source, model, job.pk,
    )  # fmt: skip
    return job


def reembed_resume() -> ReembedJob:
    """The running job, or the last failed one set running again (from its cursor).

    Raises ReembedError when there is none. The caller enqueues ``reembed_chunks_task``.
    """
    running = ReembedJob.objects.running().first()
    if running is not None:
        return running
    failed = ReembedJob.objects.order_by("-started_at").first()
    if failed is None or failed.status != ReembedStatus.FAILED:
        raise ReembedError("no re-embedding to resume")
    failed.status = ReembedStatus.RUNNING
    failed.error = ""
    failed.save(update_fields=["status", "error", "updated_at"])
    return failed


def reembed_cancel() -> ReembedJob:
    """Cancel the running job; searches go on with the active model, untouched.

    Raises ReembedError when none is running. A step in progress ends without writing.
    """
    with transaction.atomic():
        job = ReembedJob.objects.select_for_update().filter(status=ReembedStatus.RUNNING).first()
        if job is None:
            raise ReembedError("no re-embedding is running")
        if job.phase in (SWEEPING, DONE):
            raise ReembedError("the new vectors are already active; nothing to cancel")
        job.status = ReembedStatus.CANCELLED
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "finished_at", "updated_at"])
        _reset_next_columns()
    logger.info("re-embedding to %s cancelled (job %s)", job.target_model, job.pk)
    return job


def reembed_status(job: ReembedJob | None = None) -> ReembedProgress | None:
    """Progress of ``job`` (default: the latest one), or None when there has been none.

    ``chunks_total`` counts the chunks ingested since the start too; the ETA extrapolates
    the job's average speed since it started.
    """
    job = job or ReembedJob.objects.order_by("-started_at").first()
    if job is None:
        return None
    total = job.chunks_total
    if job.status == ReembedStatus.RUNNING and job.phase == EMBEDDING:
        total = max(total, job.chunks_done + AssetChunk.objects.filter(id__gt=job.cursor).count())
    total = max(total, job.chunks_done)
    finished = job.status == ReembedStatus.COMPLETED or job.phase in (SWEEPING, DONE)
    percent = 100.0 if finished or total == 0 else round(100.0 * job.chunks_done / total, 1)
    eta: int | None = None
    if job.status == ReembedStatus.RUNNING and not finished and job.chunks_done:
        elapsed = (timezone.now() - job.started_at).total_seconds()
        eta = round(elapsed / job.chunks_done * max(0, total - job.chunks_done))
    return ReembedProgress(
        job_id=str(job.pk),
        source_model=job.source_model,
        target_model=job.target_model,
        status=job.status,
        phase=job.phase,
        chunks_done=job.chunks_done,
        chunks_total=total,
        percent=percent,
        eta_seconds=0 if finished else eta,
        started_at=job.started_at,
        error=job.error,
    )


def reembed_step(*, job_id: str) -> StepOutcome:
    """Advance job ``job_id`` by one step (a batch, the index, the swap or a sweep batch).

    Returns whether (and when) to call again. Another step of the job running elsewhere
    makes this one return at once (``more`` False: that chain goes on). Provider and
    database errors propagate (the task retries, then marks the job FAILED).
    """
    with session_advisory_lock(_STEP_LOCK) as acquired:
        if not acquired:
            return StepOutcome(more=False)
        job = ReembedJob.objects.filter(pk=job_id, status=ReembedStatus.RUNNING).first()
        if job is None:
            return StepOutcome(more=False)
        if job.phase == EMBEDDING:
            return _embed_batch(job, stragglers=False)
        if job.phase == CATCHING_UP:
            return _embed_batch(job, stragglers=True)
        if job.phase == INDEXING:
            # One organization's index per step: each step stays within the task's limit.
            if not _build_next_index():
                _set_phase(job, SWAPPING)
            return StepOutcome(more=True)
        if job.phase == SWAPPING:
            return _swap(job)
        if job.phase == SWEEPING:
            return _sweep(job)
        return StepOutcome(more=False)


def reembed_mark_failed(*, job_id: str, error: str) -> None:
    """The task gave up: the job is FAILED (``reembed_chunks --resume`` continues it)."""
    ReembedJob.objects.filter(pk=job_id, status=ReembedStatus.RUNNING).update(
        status=ReembedStatus.FAILED, error=error[:2000], updated_at=timezone.now()
    )


# --- the steps -------------------------------------------------------------------------


def _embed_batch(job: ReembedJob, *, stragglers: bool) -> StepOutcome:
    chunks = AssetChunk.objects.order_by("id")
    if stragglers:
        chunks = chunks.filter(embedding_next__isnull=True)
    else:
        chunks = chunks.filter(id__gt=job.cursor)
    batch = list(chunks.values_list("id", "text")[: job.batch_size])
    if not batch:
        _set_phase(job, INDEXING if stragglers else CATCHING_UP)
        return StepOutcome(more=True)
    provider = provider_for(job.target_model)
    started = time.monotonic()
    vectors = provider.embed_documents([text for _, text in batch])
    with transaction.atomic():
        # The job may have been cancelled while the batch was embedded: then write nothing.
        current = ReembedJob.objects.select_for_update().get(pk=job.pk)
        if current.status != ReembedStatus.RUNNING or current.cursor != job.cursor:
            return StepOutcome(more=False)
        _write_vectors(
            ids=[chunk_id for chunk_id, _ in batch],
            vectors=vectors,
            model_name=provider.name,
            column="embedding_next",
        )
        current.cursor = max(current.cursor, batch[-1][0])
        current.chunks_done += len(batch)
        current.batches_done += 1
        current.save(update_fields=["cursor", "chunks_done", "batches_done", "updated_at"])
    progress = reembed_status(current)
    assert progress is not None
    logger.info(
        "re-embedding to %s: %s/%s chunks (%.1f%%), ETA %s s, batch of %s in %.1f s",
        job.target_model, progress.chunks_done, progress.chunks_total, progress.percent,
        progress.eta_seconds, len(batch), time.monotonic() - started,
    )  # fmt: skip
    return StepOutcome(more=True)


def _swap(job: ReembedJob) -> StepOutcome:
    provider = provider_for(job.target_model)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [SWAP_LOCK_TIMEOUT])
        # Writes wait from here (ingestion's next batch); searches go on.
        cursor.execute(f"LOCK TABLE {TABLE} IN SHARE ROW EXCLUSIVE MODE")
        current = ReembedJob.objects.select_for_update().get(pk=job.pk)
        if current.status != ReembedStatus.RUNNING:
            return StepOutcome(more=False)
        pending = list(
            AssetChunk.objects.filter(embedding_next__isnull=True)
            .order_by("id")
            .values_list("id", "text")[: job.batch_size + 1]
        )
        if len(pending) > job.batch_size:
            # Too many to embed while ingestion waits: catch up first, then try again.
            current.phase = CATCHING_UP
            current.save(update_fields=["phase", "updated_at"])
            return StepOutcome(more=True)
        if pending:
            _write_vectors(
                ids=[chunk_id for chunk_id, _ in pending],
                vectors=provider.embed_documents([text for _, text in pending]),
                model_name=provider.name,
                column="embedding_next",
            )
            current.chunks_done += len(pending)
        # Searches wait from here until the commit: catalogue changes only, no row rewritten.
        cursor.execute(f"LOCK TABLE {TABLE} IN ACCESS EXCLUSIVE MODE")
        _check_deferred_constraints(cursor)
        next_indexes = _valid_next_indexes(cursor)
        cursor.execute(
            f"ALTER TABLE {TABLE} DROP COLUMN embedding, DROP COLUMN embedding_model"
        )  # drops the organizations' indexes of the old vectors with their column
        cursor.execute(f"ALTER TABLE {TABLE} RENAME COLUMN embedding_next TO embedding")
        cursor.execute(f"ALTER TABLE {TABLE} RENAME COLUMN embedding_next_model TO embedding_model")
        for row in TenantVectorIndex.objects.select_for_update():
            next_name = tenant_indexes.next_index_name(row.organization_id)
            if next_name in next_indexes:
                cursor.execute(f"ALTER INDEX {next_name} RENAME TO {row.index_name}")
                # The row describes the index it names: the next one was built through the
                # row's watermark then, which a rebuild finishing since may have moved.
                row.indexed_through_id = next_indexes[next_name]
                row.save(update_fields=["indexed_through_id"])
            else:  # recorded after the indexing phase: the reconcile builds it again
                row.delete()
        _add_next_columns(cursor)
        EmbeddingIndex.objects.update_or_create(
            pk=EmbeddingIndex.SINGLETON, defaults={"active_model": job.target_model}
        )
        current.phase = SWEEPING
        current.swapped_at = timezone.now()
        current.save(update_fields=["phase", "chunks_done", "swapped_at", "updated_at"])
    logger.info("re-embedding to %s: swapped, searches now use it", job.target_model)
    return StepOutcome(more=True)


def _sweep(job: ReembedJob) -> StepOutcome:
    """Chunks written with the old model after the swap (an ingestion already running with
    it), re-embedded in place; done once none is left and no such ingestion remains."""
    provider = provider_for(job.target_model)
    stale = list(
        AssetChunk.objects.exclude(embedding_model=provider.name)
        .order_by("id")
        .values_list("id", "text")[: job.batch_size]
    )
    if stale:
        vectors = provider.embed_documents([text for _, text in stale])
        with transaction.atomic():
            current = ReembedJob.objects.select_for_update().get(pk=job.pk)
            if current.status != ReembedStatus.RUNNING:
                return StepOutcome(more=False)
            _write_vectors(
                ids=[chunk_id for chunk_id, _ in stale],
                vectors=vectors,
                model_name=provider.name,
                column="embedding",
            )
        logger.info("re-embedding to %s: %s late chunks re-embedded", job.target_model, len(stale))
        return StepOutcome(more=True)
    # An asset whose processing started before the swap may still write old vectors.
    if Asset.objects.filter(
        status=AssetStatus.PROCESSING, processing_started_at__lt=job.swapped_at
    ).exists():
        return StepOutcome(more=True, delay=SWEEP_RETRY_SECONDS)
    job.phase = DONE
    job.status = ReembedStatus.COMPLETED
    job.finished_at = timezone.now()
    job.save(update_fields=["phase", "status", "finished_at", "updated_at"])
    logger.info("re-embedding to %s completed (job %s)", job.target_model, job.pk)
    return StepOutcome(more=False)


# --- SQL ---------------------------------------------------------------------------------


# Constant SQL per column (no identifier comes from outside).
_UPDATE_VECTORS = {
    "embedding": (
        "UPDATE assets_assetchunk AS chunk SET embedding = batch.vector::vector, "
        "embedding_model = %s FROM unnest(%s::bigint[], %s::text[]) AS batch(id, vector) "
        "WHERE chunk.id = batch.id"
    ),
    "embedding_next": (
        "UPDATE assets_assetchunk AS chunk SET embedding_next = batch.vector::vector, "
        "embedding_next_model = %s FROM unnest(%s::bigint[], %s::text[]) AS batch(id, vector) "
        "WHERE chunk.id = batch.id"
    ),
}


def _write_vectors(
    *, ids: list[int], vectors: list[list[float]], model_name: str, column: str
) -> None:
    """One UPDATE for the batch: ``column`` and its model name (``<column>_model``)."""
    literals = [vector_literal(vector) for vector in vectors]
    with connection.cursor() as cursor:
        cursor.execute(_UPDATE_VECTORS[column], [model_name, ids, literals])


def _build_next_index() -> bool:
    """The HNSW index of ``embedding_next`` of one organization that has one on
    ``embedding`` (assets.tenant_indexes) and none yet on ``embedding_next``; False when
    none is missing. CONCURRENTLY unless inside a transaction (a test), where PostgreSQL
    does not allow it. An invalid leftover of an interrupted concurrent build is dropped
    first, a valid one kept."""
    concurrently = not connection.in_atomic_block
    recorded = TenantVectorIndex.objects.order_by("organization_id")
    with connection.cursor() as cursor:
        valid = _valid_next_indexes(cursor)
        missing = [
            row
            for row in recorded
            if tenant_indexes.next_index_name(row.organization_id) not in valid
        ]
        if not missing:
            return False
        row, name = missing[0], tenant_indexes.next_index_name(missing[0].organization_id)
        started = time.monotonic()
        cursor.execute(f"DROP INDEX {'CONCURRENTLY ' if concurrently else ''}IF EXISTS {name}")
        cursor.execute(
            tenant_indexes.create_index_sql(
                organization_id=row.organization_id, name=name, column="embedding_next",
                concurrently=concurrently, through_id=row.indexed_through_id,
            )
        )  # fmt: skip
    logger.info(
        "re-embedding: HNSW index %s of the new vectors built in %.1f s (%s to go)",
        name, time.monotonic() - started, len(missing) - 1,
    )  # fmt: skip
    return True


def _valid_next_indexes(cursor) -> dict[str, int | None]:  # type: ignore[no-untyped-def]
    """The valid indexes of ``embedding_next``, each with its watermark (None: none)."""
    cursor.execute(
        "SELECT class.relname, pg_get_expr(index.indpred, index.indrelid) FROM pg_index index "
        "JOIN pg_class class ON class.oid = index.indexrelid "
        "WHERE index.indrelid = %s::regclass AND index.indisvalid AND class.relname LIKE %s",
        [TABLE, tenant_indexes.NEXT_INDEX_PREFIX.replace("_", r"\_") + "%"],
    )
    return {name: tenant_indexes.watermark_in(predicate) for name, predicate in cursor.fetchall()}


def _reset_next_columns() -> None:
    """Empty next columns without their index: drop and add them (a catalogue change, where
    setting every row to NULL would rewrite the table)."""
    with connection.cursor() as cursor:
        _check_deferred_constraints(cursor)
        cursor.execute(f"DROP INDEX IF EXISTS {NEXT_INDEX}")
        cursor.execute(
            f"ALTER TABLE {TABLE} DROP COLUMN embedding_next, DROP COLUMN embedding_next_model"
        )
        _add_next_columns(cursor)


def _add_next_columns(cursor) -> None:  # type: ignore[no-untyped-def]
    # As migration 0006 made them; NULL and '' cost nothing to add.
    dimensions = int(settings.EMBEDDING_DIMENSIONS)
    cursor.execute(
        f"ALTER TABLE {TABLE} ADD COLUMN embedding_next vector({dimensions}) NULL, "
        "ADD COLUMN embedding_next_model varchar(120) NOT NULL DEFAULT ''"
    )
    cursor.execute(f"ALTER TABLE {TABLE} ALTER COLUMN embedding_next_model DROP DEFAULT")


def _check_deferred_constraints(cursor) -> None:  # type: ignore[no-untyped-def]
    # ALTER TABLE refuses to run while deferred foreign-key checks of rows written earlier in
    # the transaction are pending (only when the caller's transaction wrote chunks: a test).
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _set_phase(job: ReembedJob, phase: str) -> None:
    ReembedJob.objects.filter(pk=job.pk, status=ReembedStatus.RUNNING).update(
        phase=phase, updated_at=timezone.now()
    )
    logger.info("re-embedding to %s: %s", job.target_model, phase)
