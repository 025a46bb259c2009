"""Processing an uploaded asset: convert, extract, chunk, embed, store the vectors.

``asset_process`` is what ``process_asset_task`` calls. Memory stays bounded whatever the
file size: segments stream from the extractors, chunks are embedded and written batch by
batch (one ``COPY`` per batch, ``assets.chunk_copy``; the model's batches, of the
provider's ``preferred_batch_size``, are shared with the other assets this process
ingests, ``assets.embedding_batcher``), and the converted file (XLSX -> CSV,
HTML -> text) is written to a temporary file from the same stream, then stored.
"""

from __future__ import annotations

import logging
import tempfile
import time
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
from django.utils import timezone

from assets.chunk_copy import NewChunk, copy_chunks
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
from assets.processing.embeddings import EmbeddingProvider
from assets.processing.isolation import ExtractionLimits, isolated_extraction
from assets.processing.ocr import OcrTally
from assets.progress import (
    STAGE_CHUNKING,
    STAGE_EMBEDDING,
    STAGE_EXTRACTING,
    STAGE_INDEXING,
    estimated_chunk_total,
)
from assets.storage import converted_key_of, delete_files, local_copy, store_file
from assets.time_budget import asset_budget_seconds
from assets.work import ASSET_PROCESSING, lost_while_reading
from assets.worker import stop_requested
from common.background import leases
from common.background.fields import LeaseState
from formats.ocr import OcrOptions
from formats.registry import format_of

logger = logging.getLogger(__name__)


class AttemptSupersededError(Exception):
    """The attempt's lease is lost: another attempt claimed the asset, or it was deleted
    (or ended) since this attempt claimed it."""


class WorkerStoppingError(Exception):
    """The worker is shutting down (assets.worker): the attempt hands its asset back.

    Raised at the attempt's safe points (before a batch is queued for the model, while the
    extraction child runs); the attempt hands its lease back (the asset is UPLOADED again
    without its partial output, its task sent again for the next worker). Raised before the
    asset is claimed too: then the task requeues its message.
    """


def asset_process(*, asset_id: Any, redelivered: bool = False) -> Asset | None:
    """Take an asset from UPLOADED (or a PROCESSING abandoned by a lost worker) to COMPLETED.

    Each attempt claims the lease of the asset's processing (``assets.work``,
    common.background): idempotent, a COMPLETED or FAILED asset, or one deleted meanwhile,
    is left alone and None is returned. An attempt that may still be running holds the lease
    (the asset's time budget, ``assets.time_budget``, plus a grace period: a task redelivered
    while the first run goes on) and LeaseHeldError is raised with the seconds until it
    expires. An attempt abandoned while reading the file (its worker died: a hostile file may
    kill every worker it is handed to) is not taken over: the asset is FAILED
    (EXTRACTION_FAILED); so is one claimed MAX_PROCESSING_ATTEMPTS times. ``redelivered``
    (the broker handed the task again: its worker was lost) fails such an asset at once,
    without waiting for the lease to expire. The attempt writes chunks, the final status and
    deletes output only while it holds its lease, so an attempt taken over by a newer one
    stops quietly (None) and leaves the newer one's chunks alone.

    The status, chunk count and converted file are recorded only after every vector is
    written, and the lease ends with them. A file that cannot be converted or read ends
    FAILED with the error (CONVERSION_FAILED with ``{originalFormat, targetFormat}``,
    EXTRACTION_FAILED or INVALID_FILE_TYPE), and what was written for it is removed. Other
    errors (database, embedding service) remove the partial output, put the asset back
    (UPLOADED, queued for the task's retry) and propagate. A worker shutdown
    (WorkerStoppingError) hands the lease back: the asset is queued again at once, the
    attempt not counted, and None is returned (WorkerStoppingError is raised only when the
    worker stops before the asset is claimed: the task requeues its message).
    """
    _raise_if_stopping(asset_id)
    asset = _start_attempt(asset_id, redelivered=redelivered)
    if asset is None:
        return None
    started = time.monotonic()
    kind = FileKind(asset.file_format)
    try:
        chunk_count, converted_key, converted_size, ocr = _write_output(asset, kind)
    except AttemptSupersededError:
        logger.info("processing of asset %s was taken over by another attempt", asset.pk)
        return None
    except WorkerStoppingError:
        if discard_output(asset):
            _release(asset, handed_back=True)
        logger.info("the worker is stopping: asset %s handed back for the next worker", asset.pk)
        return None
    except (ExtractionFailed, InvalidFileType) as error:
        if discard_output(asset):
            asset_mark_failed(
                asset_id=asset.pk,
                code=error.code,
                message=error.message,
                details=error.details,
                lease_token=_token(asset),
            )
        _observe(kind, started, failed=True)
        return Asset.objects.filter(pk=asset.pk).first()
    except Exception:
        if not discard_output(asset):
            # The newer attempt's rows may be what made this one fail (unique chunk index).
            logger.info("superseded processing of asset %s stopped", asset.pk, exc_info=True)
            return None
        _release(asset)
        raise
    except BaseException:  # worker shutdown: the redelivered task starts again
        if discard_output(asset):
            _release(asset)
        raise
    with transaction.atomic():
        held = leases.holding(ASSET_PROCESSING, asset.pk, _token(asset))
        if held is not None:
            Asset.objects.filter(pk=asset.pk).update(
                status=AssetStatus.COMPLETED,
                chunk_count=chunk_count,
                converted_file=converted_key,
                converted_size=converted_size,
                embedding_provider=embedding_provider().name,
                ocr=ocr,
                processing_stage="",
                error_code="",
                error_message="",
                error_details=None,
                completed_at=timezone.now(),
                updated_at=timezone.now(),
            )
            leases.finish(held)
    if held is None:  # deleted, failed or taken over while we worked
        discard_output(asset, converted_key=converted_key)
        return None
    announce_final_status(asset.pk)
    _observe(kind, started, failed=False)
    return Asset.objects.get(pk=asset.pk)


def _start_attempt(asset_id: Any, *, redelivered: bool = False) -> Asset | None:
    """Claim the lease of an attempt and mark the asset PROCESSING; None: nothing to do.

    An asset whose last attempt was lost while reading the file is FAILED instead, once
    that attempt's lease expired (or the sweeper queued it again), or at once when the task
    was ``redelivered``: the broker hands a task again only once its worker was lost (or
    after the visibility timeout, longer than any task), so that attempt is dead. Raises
    LeaseHeldError while another attempt may still be running (``leases.claim``).
    """
    now = timezone.now()
    with transaction.atomic():
        current = leases.locked(ASSET_PROCESSING, asset_id)
        if current is None:
            return None
        may_still_read = current.lease_state == LeaseState.LEASED and (
            current.lease_expires_at is not None and current.lease_expires_at > now
        )
        if lost_while_reading(current) and (redelivered or not may_still_read):
            leases.end_failed(ASSET_PROCESSING, current, "interrupted")
            return None
        lease = leases.claim(ASSET_PROCESSING, asset_id)
        if lease is None:
            return None
        asset: Asset = lease.row
        if asset.status not in (AssetStatus.UPLOADED, AssetStatus.PROCESSING):
            leases.finish(asset)  # ended without its lease (not by this module): nothing to run
            return None
        asset.status = AssetStatus.PROCESSING
        asset.processing_started_at = now
        asset.processing_stage = STAGE_EXTRACTING
        asset.progress_chunks_done = 0
        asset.progress_chunks_total = estimated_chunk_total(asset)
        asset.progress_started_at = None
        asset.save(
            update_fields=[
                "status", "processing_started_at", "processing_stage", "progress_chunks_done",
                "progress_chunks_total", "progress_started_at", "updated_at",
            ]
        )  # fmt: skip
    send_asset_status(asset)
    return asset


def _token(asset: Asset) -> str:
    """The lease token of the attempt that started ``asset`` (``_start_attempt``)."""
    return str(asset.lease_token)


def asset_mark_failed(
    *,
    asset_id: Any,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    lease_token: str | None = None,
) -> bool:
    """Set FAILED with the error (only from UPLOADED/PROCESSING; COMPLETED stays) and end
    the lease of its processing.

    With ``lease_token``, only while that processing attempt still holds the lease (an
    attempt taken over by a newer one must not fail the newer one's work). Returns whether
    the asset was failed.
    """
    with transaction.atomic():
        if lease_token is None:
            asset = leases.locked(ASSET_PROCESSING, asset_id)
        else:
            asset = leases.holding(ASSET_PROCESSING, asset_id, lease_token)
        if asset is None or asset.status not in (AssetStatus.UPLOADED, AssetStatus.PROCESSING):
            return False
        asset.status = AssetStatus.FAILED
        asset.error_code = code
        asset.error_message = message[:2000]
        asset.error_details = details
        asset.chunk_count = 0
        asset.updated_at = timezone.now()
        asset.save(
            update_fields=[
                "status", "error_code", "error_message", "error_details", "chunk_count",
                "updated_at",
            ]
        )  # fmt: skip
        leases.finish(asset)
        announce_final_status(asset_id)
    return True


def _release(asset: Asset, *, handed_back: bool = False) -> None:
    """Put a failed attempt's asset back, UPLOADED and queued, if it still holds the lease.

    The task's own retry (Celery's, with its backoff) claims it again; the sweeper sends it
    again if that retry is lost. ``handed_back``: the attempt was stopped by a worker
    shutdown, not by the file or a service: the lease is handed back (``leases.hand_back``:
    the attempt does not count, a deploy during every attempt must not fail the asset) and
    the task is sent again now, for the next worker.
    """
    with transaction.atomic():
        if handed_back:
            released = leases.hand_back(ASSET_PROCESSING, asset.pk, _token(asset))
        else:
            held = leases.holding(ASSET_PROCESSING, asset.pk, _token(asset))
            released = held is not None
            if held is not None:
                leases.queue(ASSET_PROCESSING, held, fresh=False, send=False)
        if released:
            Asset.objects.filter(pk=asset.pk).update(
                status=AssetStatus.UPLOADED,
                processing_started_at=None,
                processing_stage="",
                updated_at=timezone.now(),
            )


def _raise_if_stopping(asset_id: Any) -> None:
    """WorkerStoppingError once this worker shuts down (a safe point of the attempt)."""
    if stop_requested():
        raise WorkerStoppingError(f"the worker is stopping; asset {asset_id} is handed back")


def _holds_lease(asset: Asset) -> bool:
    """Lock the asset row until the transaction ends; False once the attempt lost its lease.

    A deleted asset counts as lost too. Call inside ``transaction.atomic()``: whatever the
    caller writes in the same transaction cannot interleave with a newer attempt's claim.
    """
    return leases.holding(ASSET_PROCESSING, asset.pk, _token(asset)) is not None


def _write_output(
    asset: Asset, kind: FileKind
) -> tuple[int, str, int | None, dict[str, Any] | None]:
    """Write chunks (and the converted file); return (chunk count, converted key, size, the
    OCR summary: None unless pages were recognised).

    Raises AttemptSupersededError as soon as another attempt holds the asset: every batch is
    written in one transaction with the check that this attempt still holds its lease.
    """
    if not discard_output(asset):
        raise AttemptSupersededError(asset.pk)
    embedder = embedding_provider()
    # The task's soft time limit, kept here too: the threads pool does not enforce it.
    deadline = time.monotonic() + _budget(asset).total_seconds()
    limits = extraction_limits(file_size=asset.file_size)
    tally = OcrTally(languages=limits.ocr.languages if limits.ocr else ())
    with ExitStack() as stack:
        path = stack.enter_context(
            local_copy(asset.original_file.name, suffix=Path(asset.original_file.name).suffix)
        )
        segments: Iterable[Segment] = stack.enter_context(
            isolated_extraction(
                path,
                kind,
                limits=limits,
                work_directory=_work_directory(),
                check_interrupt=lambda: _raise_if_stopping(asset.pk),
            )
        )
        segments = tally.counted(segments)
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
        count = store_chunks(asset, chunks, embedder=embedder, deadline=deadline)
        _mark_stage(asset, STAGE_INDEXING, total=count)
        if converted is None:
            return count, "", None, tally.summary()
        converted.flush()
        size = Path(converted.name).stat().st_size
        with Path(converted.name).open("rb") as handle:
            key = store_file(converted_key_of(asset, kind), handle)
        return count, key, size, tally.summary()


def store_chunks(
    asset: Asset, chunks: Iterable[Chunk], *, embedder: EmbeddingProvider, deadline: float
) -> int:
    """Embed and write ``chunks`` of ``asset`` batch by batch; the number written.

    Batches of ``embedder.preferred_batch_size`` chunks are queued for the model (shared
    with the other ingestions of this process, ``assets.embedding_batcher``) and each is
    written (``_store_batch``) once its vectors are back. Raises what ``_store_batch``
    raises, and WorkerStoppingError between batches once the worker stops.
    """
    batch_size = max(1, int(embedder.preferred_batch_size))
    batcher = embedding_batcher()
    count = 0
    # Batches queued for the model and not yet written: one ahead of the one being
    # written, which another ingestion of this process may embed meanwhile (and fill
    # up its batch with), so the model never waits while this one chunks and writes.
    pending: deque[_PendingBatch] = deque()
    chunks = iter(chunks)
    try:
        while batch := list(islice(chunks, batch_size)):
            _raise_if_stopping(asset.pk)  # between batches: the written ones are whole
            texts = [chunk.text.replace("\x00", "") for chunk in batch]
            pending.append(
                _PendingBatch(
                    batch,
                    texts,
                    batcher.submit(texts, provider=embedder),
                    embedder.name,
                    batch_size,
                )
            )
            if len(pending) > 1:
                count = _store_batch(asset, pending.popleft(), count, deadline=deadline)
        while pending:
            count = _store_batch(asset, pending.popleft(), count, deadline=deadline)
    finally:
        for unwritten in pending:  # stopped early: free the model of what is not started
            unwritten.vectors.cancel()
    return count


@dataclass(frozen=True, slots=True)
class _PendingBatch:
    chunks: list[Chunk]
    texts: list[str]
    vectors: Future[list[list[float]]]
    # The model that makes the vectors (AssetChunk.embedding_model; see assets.reembedding).
    embedding_model: str
    # The model's batch size (its provider's preferred_batch_size).
    batch_size: int


def _store_batch(asset: Asset, batch: _PendingBatch, count: int, *, deadline: float) -> int:
    """Write a batch's chunks and vectors once the model has them; the new chunk count.

    Raises AttemptSupersededError once another attempt holds the asset, the model's error
    for these texts, and SoftTimeLimitExceeded when the processing time is up meanwhile.
    """
    try:
        vectors = embedding_batcher().result(
            batch.vectors,
            timeout=max(0.0, deadline - time.monotonic()),
            batch_size=batch.batch_size,
        )
    except TimeoutError:
        raise SoftTimeLimitExceeded() from None
    with transaction.atomic():
        if not _holds_lease(asset):
            raise AttemptSupersededError(asset.pk)
        copy_chunks(
            asset_id=asset.pk,
            organization_id=asset.organization_id,
            chunks=(
                NewChunk(chunk.index, text, chunk.location, vector, batch.embedding_model)
                for chunk, text, vector in zip(batch.chunks, batch.texts, vectors, strict=True)
            ),
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
        ocr=ocr_options(),
    )


def ocr_options() -> OcrOptions:
    """How the pictures of a PDF's pages are recognised (the ASSET_OCR_* settings)."""
    return OcrOptions(
        enabled=bool(settings.ASSET_OCR_ENABLED),
        languages=tuple(part for part in str(settings.ASSET_OCR_LANGUAGES).split("+") if part),
        timeout_seconds=float(settings.ASSET_OCR_TIMEOUT_SECONDS),
        jobs=int(settings.ASSET_OCR_JOBS),
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
    AttemptSupersededError once it no longer holds its lease. ``total``: the chunk count,
    once known."""
    asset.processing_stage = stage
    if total is not None:
        asset.progress_chunks_total = total
    with transaction.atomic():
        if not _holds_lease(asset):
            raise AttemptSupersededError(asset.pk)
        Asset.objects.filter(pk=asset.pk).update(
            processing_stage=stage,
            progress_chunks_total=asset.progress_chunks_total,
            progress_started_at=asset.progress_started_at,
        )
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
    """Remove what the attempt of ``asset`` (its lease token) wrote; True if it did.

    While the attempt still holds its lease (or the asset was deleted), its chunks and
    converted files are removed (storage errors are logged). Once another attempt took over,
    nothing the newer one may own is touched: only a converted file stored under a name of
    this attempt's own (not the shared converted key) is deleted, and False is returned.
    """
    kind = FileKind(asset.file_format) if asset.file_format != "unknown" else None
    shared_key = converted_key_of(asset, kind) if kind is not None else ""
    with transaction.atomic():
        holds_lease = _holds_lease(asset) or not Asset.objects.filter(pk=asset.pk).exists()
        if holds_lease:
            AssetChunk.objects.filter(asset_id=asset.pk).delete()
    if holds_lease:
        keys = {converted_key, asset.converted_file.name, shared_key}
    else:
        keys = {converted_key} - {shared_key}
    delete_files([key for key in keys if key], quiet=True)
    return holds_lease


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
