"""Processing an uploaded asset: convert, extract, chunk, embed, store the vectors.

``asset_process`` is what ``process_asset_task`` calls. Memory stays bounded whatever the
file size: segments stream from the extractors, chunks are embedded and written batch by
batch (one ``bulk_create`` per batch), and the converted file (XLSX -> CSV, HTML -> text)
is written to a temporary file from the same stream, then stored.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from itertools import islice
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from assets.embedding import embedding_provider
from assets.models import Asset, AssetChunk, AssetStatus
from assets.processing import ExtractionFailed, FileKind, Segment, chunk_segments
from assets.processing.conversion import SHEET_MARKER
from assets.processing.extraction import extract_segments
from assets.services import asset_mark_failed
from assets.storage import asset_key, delete_files, local_copy, store_file

logger = logging.getLogger(__name__)

EMBEDDING_BATCH_SIZE = 64
# What each convertible format is converted to, and the converted file's extension.
CONVERSIONS: dict[FileKind, str] = {FileKind.XLSX: "csv", FileKind.HTML: "txt"}


def asset_process(*, asset_id: Any) -> Asset | None:
    """Take an asset from UPLOADED (or a PROCESSING left by a killed worker) to COMPLETED.

    Idempotent: a COMPLETED or FAILED asset, or one deleted meanwhile, is left alone and
    None is returned; a re-run replaces the chunks and converted file of an earlier attempt.
    The status, chunk count and converted file are recorded only after every vector is
    written. A file that cannot be converted or read ends FAILED with the error
    (CONVERSION_FAILED with ``{originalFormat, targetFormat}``, or EXTRACTION_FAILED), and
    what was written for it is removed. Other errors (database, embedding service)
    propagate after the partial output is removed, for the task to retry or fail.
    """
    asset = _claim(asset_id)
    if asset is None:
        return None
    started = time.monotonic()
    kind = FileKind(asset.file_format)
    try:
        chunk_count, converted_key, converted_size = _write_output(asset, kind)
    except ExtractionFailed as error:
        discard_output(asset)
        asset_mark_failed(
            asset_id=asset.pk, code=error.code, message=error.message, details=error.details
        )
        _observe(kind, started, failed=True)
        return Asset.objects.filter(pk=asset.pk).first()
    except BaseException:
        discard_output(asset)
        raise
    updated = Asset.objects.filter(pk=asset.pk, status=AssetStatus.PROCESSING).update(
        status=AssetStatus.COMPLETED,
        chunk_count=chunk_count,
        converted_file=converted_key,
        converted_size=converted_size,
        embedding_provider=embedding_provider().name,
        error_code="",
        error_message="",
        error_details=None,
        completed_at=timezone.now(),
    )
    if not updated:  # deleted (or failed by the sweep) while we worked
        discard_output(asset, converted_key=converted_key)
        return None
    _observe(kind, started, failed=False)
    return Asset.objects.get(pk=asset.pk)


def _claim(asset_id: Any) -> Asset | None:
    with transaction.atomic():
        asset = (
            Asset.objects.select_for_update()
            .select_related("organization")
            .filter(pk=asset_id)
            .first()
        )
        if asset is None or asset.status not in (AssetStatus.UPLOADED, AssetStatus.PROCESSING):
            return None
        asset.status = AssetStatus.PROCESSING
        asset.processing_started_at = timezone.now()
        asset.save(update_fields=["status", "processing_started_at", "updated_at"])
    return asset


def converted_key_of(asset: Asset, kind: FileKind) -> str:
    return asset_key(
        container_name=asset.organization.container_name,
        asset_id=asset.pk,
        role="converted",
        extension=f".{CONVERSIONS[kind]}",
    )


def _write_output(asset: Asset, kind: FileKind) -> tuple[int, str, int | None]:
    """Write chunks (and the converted file); return (chunk count, converted key, size)."""
    discard_output(asset)
    embedder = embedding_provider()
    count = 0
    with ExitStack() as stack:
        path = stack.enter_context(
            local_copy(asset.original_file.name, suffix=Path(asset.original_file.name).suffix)
        )
        segments: Iterable[Segment] = extract_segments(path, kind)
        converted: IO[str] | None = None
        if kind in CONVERSIONS:
            converted = stack.enter_context(
                tempfile.NamedTemporaryFile(
                    "w+", encoding="utf-8", dir=settings.FILE_UPLOAD_TEMP_DIR, suffix=".conv"
                )
            )
            segments = _tee_converted(segments, converted, kind)
        chunks = chunk_segments(segments, size=settings.CHUNK_SIZE, overlap=settings.CHUNK_OVERLAP)
        while batch := list(islice(chunks, EMBEDDING_BATCH_SIZE)):
            texts = [chunk.text.replace("\x00", "") for chunk in batch]
            vectors = embedder.embed_documents(texts)
            AssetChunk.objects.bulk_create(
                AssetChunk(
                    asset_id=asset.pk,
                    organization_id=asset.organization_id,
                    index=chunk.index,
                    text=text,
                    location=(chunk.location or "")[:200],
                    embedding=vector,
                )
                for chunk, text, vector in zip(batch, texts, vectors, strict=True)
            )
            count += len(batch)
        if converted is None:
            return count, "", None
        converted.flush()
        size = Path(converted.name).stat().st_size
        with Path(converted.name).open("rb") as handle:
            key = store_file(converted_key_of(asset, kind), handle)
        return count, key, size


def _tee_converted(
    segments: Iterable[Segment], output: IO[str], kind: FileKind
) -> Iterator[Segment]:
    """Pass segments through while writing the converted file (same format as conversion.py)."""
    for segment in segments:
        if kind is FileKind.XLSX:
            sheet = (segment.location or "").removeprefix("sheet ")
            output.write(f"{SHEET_MARKER}{sheet}\n{segment.text}\n")
        else:
            output.write(segment.text)
        yield segment


def discard_output(asset: Asset, *, converted_key: str = "") -> None:
    """Remove the chunks and converted file of an attempt (storage errors are logged)."""
    AssetChunk.objects.filter(asset_id=asset.pk).delete()
    keys = {converted_key, asset.converted_file.name}
    kind = FileKind(asset.file_format) if asset.file_format != "unknown" else None
    if kind in CONVERSIONS:
        keys.add(converted_key_of(asset, kind))
    delete_files([key for key in keys if key], quiet=True)


def fail_stale_assets(*, older_than_seconds: int) -> int:
    """Fail assets PROCESSING for longer than ``older_than_seconds`` (a lost worker).

    Returns how many were failed; their partial chunks are removed.
    """
    limit = timezone.now() - timedelta(seconds=older_than_seconds)
    stale = list(
        Asset.objects.filter(
            status=AssetStatus.PROCESSING, processing_started_at__lt=limit
        ).select_related("organization")
    )
    for asset in stale:
        asset_mark_failed(
            asset_id=asset.pk,
            code="EXTRACTION_FAILED",
            message=f"Processing did not finish within {older_than_seconds} seconds.",
        )
        AssetChunk.objects.filter(asset_id=asset.pk).delete()
    return len(stale)


def _observe(kind: FileKind, started: float, *, failed: bool) -> None:
    try:
        from common.metrics import observe_ingestion
    except ImportError:
        return
    try:
        observe_ingestion(file_format=kind.value, seconds=time.monotonic() - started, failed=failed)
    except Exception:  # metrics must never fail an ingestion
        logger.debug("ingestion metrics not recorded", exc_info=True)
