"""Processing an uploaded asset: convert, extract, chunk, embed, store the vectors.

``asset_process`` is what ``process_asset_task`` calls. Memory stays bounded whatever the
file size: segments stream from the extractors, chunks are embedded and written batch by
batch (one ``bulk_create`` per batch; the model's batches are shared with the other assets
this process ingests, ``assets.embedding_batcher``), and the converted file (XLSX -> CSV,
HTML -> text) is written to a temporary file from the same stream, then stored.
"""

from __future__ import annotations

import logging
import tempfile
import time
import uuid
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import timedelta
from itertools import islice
from pathlib import Path
from typing import IO, Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from assets.embedding import embedding_provider
from assets.embedding_batcher import embedding_batcher
from assets.events import announce_final_status, send_asset_status
from assets.models import Asset, AssetChunk, AssetStatus
from assets.processing import (
    Chunk,
    ExtractionFailed,
    FileKind,
    InvalidFileType,
    Segment,
    chunk_segments,
)
from assets.processing.isolation import ExtractionLimits, isolated_extraction
from assets.progress import (
    STAGE_CHUNKING,
    STAGE_EMBEDDING,
    STAGE_EXTRACTING,
    STAGE_INDEXING,
    estimated_chunk_total,
)
from assets.storage import converted_key_of, delete_files, local_copy, store_file
from assets.time_budget import GRACE_SECONDS, asset_budget_seconds
from assets.worker import stop_requested
from formats.registry import format_of

logger = logging.getLogger(__name__)

EMBEDDING_BATCH_SIZE = 64


# How long after its time budget (the task's soft time limit) an attempt is taken over:
# time for the timed-out attempt to record its failure itself (then its hard limit ends it).
TAKEOVER_GRACE = timedelta(seconds=GRACE_SECONDS)
# The beat sweep fails an asset PROCESSING for this many times its time budget.
STALE_AFTER_BUDGETS = 2
# Claims of one asset, retries and take-overs included, before it is failed: 1 + the task's
# 3 retries + 2 take-overs of an attempt whose worker was lost after the file was read.
MAX_PROCESSING_ATTEMPTS = 6
# Asset.processing_stage (assets.progress): "extracting" while the file is read (in a
# bounded child, isolation.py), "chunking" until the first batch is stored, "embedding"
# while batches are embedded and written, "indexing" for the final writes.
LOST_WHILE_READING_MESSAGE = (
    "The worker processing this file stopped while reading it (out of memory or killed); "
    "the file is not tried again."
)


class AttemptSupersededError(Exception):
    """Another attempt claimed the asset (or it was deleted) since this attempt claimed it."""


class WorkerStoppingError(Exception):
    """The worker is shutting down (assets.worker): the attempt hands its asset back.

    Raised at the attempt's safe points (before a batch is queued for the model, while the
    extraction child runs); the asset is UPLOADED again without its partial output, and the
    task requeues its message for the next worker.
    """


class AttemptInProgressError(Exception):
    """Another attempt is processing the asset; it can be taken over in ``seconds_left``."""

    def __init__(self, asset_id: Any, seconds_left: float) -> None:
        super().__init__(f"asset {asset_id} is being processed; look again in {seconds_left:.0f} s")
        self.seconds_left = seconds_left


def asset_process(*, asset_id: Any, redelivered: bool = False) -> Asset | None:
    """Take an asset from UPLOADED (or a PROCESSING abandoned by a lost worker) to COMPLETED.

    Idempotent: a COMPLETED or FAILED asset, or one deleted meanwhile, is left alone and
    None is returned. An asset PROCESSING by an attempt that may still be running (younger
    than the asset's time budget, ``assets.time_budget``, plus a grace period: a task
    redelivered while the first run goes on) is left alone too, raising
    AttemptInProgressError with the seconds until it can be taken over. An attempt abandoned
    while reading the file (its worker died: a hostile file may kill every worker it is
    handed to) is not taken over: the asset is FAILED (EXTRACTION_FAILED); so is one claimed
    MAX_PROCESSING_ATTEMPTS times. ``redelivered`` (the broker handed the task again: its
    worker was lost) fails such an asset at once, without waiting for the take-over. Each
    attempt claims the asset with a fresh ``processing_token``; it writes chunks, the final
    status and deletes output only while the row still holds that token, so an attempt taken
    over by a newer one stops quietly (None) and leaves the newer one's chunks alone.

    The status, chunk count and converted file are recorded only after every vector is
    written. A file that cannot be converted or read ends FAILED with the error
    (CONVERSION_FAILED with ``{originalFormat, targetFormat}``, EXTRACTION_FAILED or
    INVALID_FILE_TYPE), and what was written for it is removed. Other errors (database,
    embedding service) remove the partial output, hand the asset back (UPLOADED, for the
    task's retry) and propagate. So does a worker shutdown (WorkerStoppingError, raised
    before the asset is claimed too), whose attempt is not counted in MAX_PROCESSING_ATTEMPTS.
    """
    _raise_if_stopping(asset_id)
    asset = _claim(asset_id, redelivered=redelivered)
    if asset is None:
        return None
    started = time.monotonic()
    kind = FileKind(asset.file_format)
    try:
        chunk_count, converted_key, converted_size = _write_output(asset, kind)
    except AttemptSupersededError:
        logger.info("processing of asset %s was taken over by another attempt", asset.pk)
        return None
    except WorkerStoppingError:
        if discard_output(asset):
            _release_claim(asset, handed_back=True)
        logger.info("the worker is stopping: asset %s handed back for the next worker", asset.pk)
        raise
    except (ExtractionFailed, InvalidFileType) as error:
        if discard_output(asset):
            asset_mark_failed(
                asset_id=asset.pk,
                code=error.code,
                message=error.message,
                details=error.details,
                processing_token=asset.processing_token,
            )
        _observe(kind, started, failed=True)
        return Asset.objects.filter(pk=asset.pk).first()
    except Exception:
        if not discard_output(asset):
            # The newer attempt's rows may be what made this one fail (unique chunk index).
            logger.info("superseded processing of asset %s stopped", asset.pk, exc_info=True)
            return None
        _release_claim(asset)
        raise
    except BaseException:  # worker shutdown: the redelivered task starts again
        if discard_output(asset):
            _release_claim(asset)
        raise
    updated = Asset.objects.filter(
        pk=asset.pk, status=AssetStatus.PROCESSING, processing_token=asset.processing_token
    ).update(
        status=AssetStatus.COMPLETED,
        chunk_count=chunk_count,
        converted_file=converted_key,
        converted_size=converted_size,
        embedding_provider=embedding_provider().name,
        processing_stage="",
        error_code="",
        error_message="",
        error_details=None,
        completed_at=timezone.now(),
        updated_at=timezone.now(),
    )
    if not updated:  # deleted, failed by the sweep or taken over while we worked
        discard_output(asset, converted_key=converted_key)
        return None
    announce_final_status(asset.pk)
    _observe(kind, started, failed=False)
    return Asset.objects.get(pk=asset.pk)


def _claim(asset_id: Any, *, redelivered: bool = False) -> Asset | None:
    """Start an attempt: PROCESSING with a fresh token, or None when there is nothing to do.

    A PROCESSING asset is taken over only once its attempt is older than the asset's time
    budget (the task's soft time limit) plus a grace period; a younger one may still be
    running, and AttemptInProgressError is raised; unless the task was ``redelivered``
    while the attempt was reading the file: the broker only hands a task again once its
    worker was lost (or after the visibility timeout, longer than any task), so that
    attempt is dead and the asset is failed now.
    """
    now = timezone.now()
    with transaction.atomic():
        asset = (
            Asset.objects.select_for_update(of=("self",))
            .select_related("organization")
            .filter(pk=asset_id)
            .first()
        )
        if asset is None or asset.status not in (AssetStatus.UPLOADED, AssetStatus.PROCESSING):
            return None
        started = asset.processing_started_at
        longest_attempt = _budget(asset) + TAKEOVER_GRACE
        lost_while_reading = redelivered and asset.processing_stage == STAGE_EXTRACTING
        if (
            asset.status == AssetStatus.PROCESSING
            and started
            and started + longest_attempt > now
            and not lost_while_reading
        ):
            seconds_left = (started + longest_attempt - now).total_seconds()
            raise AttemptInProgressError(asset.pk, seconds_left)
        refusal = _refusal(asset)
        if refusal:
            _fail_claimed(asset, refusal)
            return None
        asset.status = AssetStatus.PROCESSING
        asset.processing_started_at = now
        asset.processing_token = uuid.uuid4()
        asset.processing_attempts += 1
        asset.processing_stage = STAGE_EXTRACTING
        asset.progress_chunks_done = 0
        asset.progress_chunks_total = estimated_chunk_total(asset)
        asset.progress_started_at = None
        asset.save(
            update_fields=[
                "status", "processing_started_at", "processing_token",
                "processing_attempts", "processing_stage", "progress_chunks_done",
                "progress_chunks_total", "progress_started_at", "updated_at",
            ]
        )  # fmt: skip
    send_asset_status(asset)
    return asset


def _refusal(asset: Asset) -> str:
    """Why the asset must not be tried again ("" when it may be)."""
    if asset.status == AssetStatus.PROCESSING and asset.processing_stage == STAGE_EXTRACTING:
        return LOST_WHILE_READING_MESSAGE
    if asset.processing_attempts >= MAX_PROCESSING_ATTEMPTS:
        return f"Processing was tried {asset.processing_attempts} times without finishing."
    return ""


def asset_mark_failed(
    *,
    asset_id: Any,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    processing_token: uuid.UUID | None = None,
) -> bool:
    """Set FAILED with the error (only from UPLOADED/PROCESSING; COMPLETED stays).

    With ``processing_token``, only while that processing attempt still holds the asset
    (an attempt taken over by a newer one must not fail the newer one's work). Returns
    whether the asset was failed.
    """
    assets = Asset.objects.filter(
        pk=asset_id, status__in=[AssetStatus.UPLOADED, AssetStatus.PROCESSING]
    )
    if processing_token is not None:
        assets = assets.filter(status=AssetStatus.PROCESSING, processing_token=processing_token)
    failed = assets.update(
        status=AssetStatus.FAILED,
        error_code=code,
        error_message=message[:2000],
        error_details=details,
        chunk_count=0,
        updated_at=timezone.now(),
    )
    if failed:
        announce_final_status(asset_id)
    return bool(failed)


def _fail_claimed(asset: Asset, message: str) -> None:
    """FAILED (EXTRACTION_FAILED) under the row lock the claim holds; no chunk is kept."""
    logger.warning("asset %s failed without another attempt: %s", asset.pk, message)
    AssetChunk.objects.filter(asset_id=asset.pk).delete()
    Asset.objects.filter(pk=asset.pk).update(
        status=AssetStatus.FAILED,
        error_code=ExtractionFailed.code,
        error_message=message,
        error_details=None,
        chunk_count=0,
        processing_token=None,
        processing_stage="",
        updated_at=timezone.now(),
    )
    announce_final_status(asset.pk)


def _release_claim(asset: Asset, *, handed_back: bool = False) -> None:
    """Hand a failed attempt's asset back as UPLOADED, so the task's retry can claim it.

    ``handed_back``: the attempt was stopped by a worker shutdown, not by the file or a
    service, so it does not count (a deploy during every attempt must not fail the asset).
    """
    changes: dict[str, Any] = {}
    if handed_back:
        changes["processing_attempts"] = F("processing_attempts") - 1
    Asset.objects.filter(
        pk=asset.pk, status=AssetStatus.PROCESSING, processing_token=asset.processing_token
    ).update(
        status=AssetStatus.UPLOADED,
        processing_token=None,
        processing_started_at=None,
        processing_stage="",
        updated_at=timezone.now(),
        **changes,
    )


def _raise_if_stopping(asset_id: Any) -> None:
    """WorkerStoppingError once this worker shuts down (a safe point of the attempt)."""
    if stop_requested():
        raise WorkerStoppingError(f"the worker is stopping; asset {asset_id} is handed back")


def _holds_claim(asset: Asset) -> bool:
    """Lock the asset row until the transaction ends; False once another attempt claimed it.

    A deleted asset counts as lost too. Call inside ``transaction.atomic()``: whatever the
    caller writes in the same transaction cannot interleave with a newer attempt's claim.
    """
    current = Asset.objects.select_for_update().filter(pk=asset.pk).values("processing_token")
    row = current.first()
    return row is not None and _is_own_token(asset, row["processing_token"])


def _is_own_token(asset: Asset, token: uuid.UUID | None) -> bool:
    return asset.processing_token is not None and token == asset.processing_token


def _write_output(asset: Asset, kind: FileKind) -> tuple[int, str, int | None]:
    """Write chunks (and the converted file); return (chunk count, converted key, size).

    Raises AttemptSupersededError as soon as another attempt holds the asset: every batch is
    written in one transaction with the check that this attempt still holds its claim.
    """
    if not discard_output(asset):
        raise AttemptSupersededError(asset.pk)
    embedder = embedding_provider()
    # The task's soft time limit, kept here too: the threads pool does not enforce it.
    deadline = time.monotonic() + _budget(asset).total_seconds()
    count = 0
    with ExitStack() as stack:
        path = stack.enter_context(
            local_copy(asset.original_file.name, suffix=Path(asset.original_file.name).suffix)
        )
        segments: Iterable[Segment] = stack.enter_context(
            isolated_extraction(
                path,
                kind,
                limits=extraction_limits(file_size=asset.file_size),
                work_directory=_work_directory(),
                check_interrupt=lambda: _raise_if_stopping(asset.pk),
            )
        )
        asset.progress_started_at = timezone.now()
        _mark_stage(asset, STAGE_CHUNKING)
        converted: IO[str] | None = None
        conversion = format_of(kind).conversion
        if conversion is not None:
            converted = stack.enter_context(
                tempfile.NamedTemporaryFile(
                    "w+", encoding="utf-8", dir=settings.FILE_UPLOAD_TEMP_DIR, suffix=".conv"
                )
            )
            # The converted file is written from the same stream of segments.
            segments = conversion.write(segments, converted)
        chunks = chunk_segments(segments, size=settings.CHUNK_SIZE, overlap=settings.CHUNK_OVERLAP)
        batcher = embedding_batcher()
        # Batches queued for the model and not yet written: one ahead of the one being
        # written, which another ingestion of this process may embed meanwhile (and fill
        # up its batch with), so the model never waits while this one chunks and writes.
        pending: deque[_PendingBatch] = deque()
        try:
            while batch := list(islice(chunks, EMBEDDING_BATCH_SIZE)):
                _raise_if_stopping(asset.pk)  # between batches: the written ones are whole
                texts = [chunk.text.replace("\x00", "") for chunk in batch]
                pending.append(
                    _PendingBatch(
                        batch, texts, batcher.submit(texts, provider=embedder), embedder.name
                    )
                )
                if len(pending) > 1:
                    count = _store_batch(asset, pending.popleft(), count, deadline=deadline)
            while pending:
                count = _store_batch(asset, pending.popleft(), count, deadline=deadline)
        finally:
            for unwritten in pending:  # stopped early: free the model of what is not started
                unwritten.vectors.cancel()
        _mark_stage(asset, STAGE_INDEXING, total=count)
        if converted is None:
            return count, "", None
        converted.flush()
        size = Path(converted.name).stat().st_size
        with Path(converted.name).open("rb") as handle:
            key = store_file(converted_key_of(asset, kind), handle)
        return count, key, size


@dataclass(frozen=True, slots=True)
class _PendingBatch:
    chunks: list[Chunk]
    texts: list[str]
    vectors: Future[list[list[float]]]
    # The model that makes the vectors (AssetChunk.embedding_model; see assets.reembedding).
    embedding_model: str


def _store_batch(asset: Asset, batch: _PendingBatch, count: int, *, deadline: float) -> int:
    """Write a batch's chunks and vectors once the model has them; the new chunk count.

    Raises AttemptSupersededError once another attempt holds the asset, the model's error
    for these texts, and SoftTimeLimitExceeded when the processing time is up meanwhile.
    """
    try:
        vectors = embedding_batcher().result(
            batch.vectors,
            timeout=max(0.0, deadline - time.monotonic()),
            batch_size=EMBEDDING_BATCH_SIZE,
        )
    except TimeoutError:
        raise SoftTimeLimitExceeded() from None
    with transaction.atomic():
        if not _holds_claim(asset):
            raise AttemptSupersededError(asset.pk)
        AssetChunk.objects.bulk_create(
            AssetChunk(
                asset_id=asset.pk,
                organization_id=asset.organization_id,
                index=chunk.index,
                text=text,
                location=(chunk.location or "")[:200],
                embedding=vector,
                embedding_model=batch.embedding_model,
                **AssetChunk.location_fields(chunk.location),
            )
            for chunk, text, vector in zip(batch.chunks, batch.texts, vectors, strict=True)
        )
        count += len(batch.chunks)
        _record_progress(asset, stage=STAGE_EMBEDDING, done=count)
    send_asset_status(asset)
    return count


def extraction_limits(*, file_size: int | None = None) -> ExtractionLimits:
    """The extraction bounds of a file of ``file_size`` bytes (settings)."""
    return ExtractionLimits(
        memory_bytes=settings.ASSET_EXTRACTION_MEMORY_LIMIT_MB * 1024 * 1024,
        timeout_seconds=settings.ASSET_EXTRACTION_TIMEOUT_SECONDS,
        max_sheet_cells=settings.ASSET_XLSX_MAX_CELLS_PER_SHEET,
        max_chars=extracted_text_limit(file_size=file_size),
    )


def extracted_text_limit(*, file_size: int | None) -> int:
    """The most characters of text kept from a file of ``file_size`` bytes: the absolute cap
    (ASSET_EXTRACTED_MAX_CHARS), and no more than ASSET_EXTRACTED_MAX_RATIO per byte.

    Past it the asset is FAILED (nothing is kept): the text of an output bomb (a merged
    table cell or a shared string referred to a million times) would otherwise fill the
    data folder, the disk PostgreSQL and Redis share under ``make run``.
    """
    limit = int(settings.ASSET_EXTRACTED_MAX_CHARS)
    if file_size is not None:
        limit = min(limit, int(settings.ASSET_EXTRACTED_MAX_RATIO) * max(file_size, 1))
    return limit


def _work_directory() -> Path | None:
    return Path(settings.FILE_UPLOAD_TEMP_DIR) if settings.FILE_UPLOAD_TEMP_DIR else None


def _mark_stage(asset: Asset, stage: str, *, total: int | None = None) -> None:
    """Record what the attempt does (and tell the organization's sockets);
    AttemptSupersededError once it no longer holds the claim. ``total``: the chunk count,
    once known."""
    asset.processing_stage = stage
    if total is not None:
        asset.progress_chunks_total = total
    updated = Asset.objects.filter(
        pk=asset.pk, status=AssetStatus.PROCESSING, processing_token=asset.processing_token
    ).update(
        processing_stage=stage,
        progress_chunks_total=asset.progress_chunks_total,
        progress_started_at=asset.progress_started_at,
    )
    if not updated:
        raise AttemptSupersededError(asset.pk)
    send_asset_status(asset)


def _record_progress(asset: Asset, *, stage: str, done: int) -> None:
    """Progress after a stored batch; call in the batch's transaction (row already locked).

    The estimated total grows with the count when the estimate was too low.
    """
    asset.processing_stage = stage
    asset.progress_chunks_done = done
    if asset.progress_chunks_total is not None and asset.progress_chunks_total <= done:
        asset.progress_chunks_total = done + 1  # not done yet: the last batch may follow
    Asset.objects.filter(pk=asset.pk).update(
        processing_stage=stage,
        progress_chunks_done=done,
        progress_chunks_total=asset.progress_chunks_total,
    )


def discard_output(asset: Asset, *, converted_key: str = "") -> bool:
    """Remove what the attempt holding ``asset.processing_token`` wrote; True if it did.

    While the attempt still holds its claim (or the asset was deleted), its chunks and
    converted files are removed (storage errors are logged). Once another attempt took over,
    nothing the newer one may own is touched: only a converted file stored under a name of
    this attempt's own (not the shared converted key) is deleted, and False is returned.
    """
    kind = FileKind(asset.file_format) if asset.file_format != "unknown" else None
    shared_key = converted_key_of(asset, kind) if kind is not None else ""
    with transaction.atomic():
        row = Asset.objects.select_for_update().filter(pk=asset.pk).values("processing_token")
        current = row.first()
        holds_claim = current is None or _is_own_token(asset, current["processing_token"])
        if holds_claim:
            AssetChunk.objects.filter(asset_id=asset.pk).delete()
    if holds_claim:
        keys = {converted_key, asset.converted_file.name, shared_key}
    else:
        keys = {converted_key} - {shared_key}
    delete_files([key for key in keys if key], quiet=True)
    return holds_claim


def claim_stranded_uploads(*, older_than_seconds: int, limit: int = 500) -> list[str]:
    """Ids of assets UPLOADED and untouched for ``older_than_seconds``, to enqueue again.

    Such an asset lost its processing task (the broker was down when the upload committed,
    or the message was lost); processing is idempotent, so enqueueing it again is safe.
    Each one returned is touched (``updated_at``), so it is returned again only after
    another ``older_than_seconds``; concurrent sweeps never return the same asset.
    """
    now = timezone.now()
    with transaction.atomic():
        stranded = list(
            Asset.objects.select_for_update(skip_locked=True)
            .filter(
                status=AssetStatus.UPLOADED,
                updated_at__lt=now - timedelta(seconds=older_than_seconds),
            )
            .order_by("updated_at")
            .values_list("pk", flat=True)[:limit]
        )
        Asset.objects.filter(pk__in=stranded).update(updated_at=now)
    return [str(asset_id) for asset_id in stranded]


def fail_stale_assets() -> int:
    """Fail assets PROCESSING for longer than STALE_AFTER_BUDGETS times their time budget.

    Such an attempt is lost (its worker died and nothing took it over); a large file still
    within its own budget is left alone. Returns how many were failed; their partial chunks
    are removed. An asset taken over or finished meanwhile is left as it is.
    """
    now = timezone.now()
    # No budget is below an empty file's: younger attempts are not even looked at.
    shortest = timedelta(seconds=STALE_AFTER_BUDGETS * asset_budget_seconds(file_size=None))
    candidates = Asset.objects.filter(
        status=AssetStatus.PROCESSING, processing_started_at__lt=now - shortest
    ).values_list("pk", "file_size", "processing_started_at", "processing_token")
    failed = 0
    for asset_id, file_size, started, token in candidates:
        limit = STALE_AFTER_BUDGETS * asset_budget_seconds(file_size=file_size)
        if started + timedelta(seconds=limit) > now:
            continue
        if asset_mark_failed(
            asset_id=asset_id,
            code="EXTRACTION_FAILED",
            message=f"Processing did not finish within {limit} seconds.",
            processing_token=token,
        ):
            AssetChunk.objects.filter(asset_id=asset_id).delete()
            failed += 1
    return failed


def _budget(asset: Asset) -> timedelta:
    return timedelta(seconds=asset_budget_seconds(file_size=asset.file_size))


def _observe(kind: FileKind, started: float, *, failed: bool) -> None:
    try:
        from common.metrics import observe_ingestion
    except ImportError:
        return
    try:
        observe_ingestion(file_format=kind.value, seconds=time.monotonic() - started, failed=failed)
    except Exception:  # metrics must never fail an ingestion
        logger.debug("ingestion metrics not recorded", exc_info=True)
