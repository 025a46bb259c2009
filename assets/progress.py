"""How far an ingestion has come: the ``progress`` of the find response and of the
``asset-status`` WebSocket event (docs/API.md, Assets).

Stored on the asset row (``processing_stage`` and the ``progress_*`` columns), written by
assets.ingestion with each embedding batch in the transaction that stores the batch: no
extra round trip, no other store. The total is an estimate while chunks stream: for text
formats (TXT, CSV, MD, HTML) the file's size over the chunk step; for the others it is
unknown (null, and so are ``percent`` and ``etaSeconds``) until the last batch.
"""

from __future__ import annotations

import math
from typing import Any, TypedDict

from django.conf import settings
from django.utils import timezone

from assets.models import Asset, AssetStatus
from assets.processing import FileKind

STAGE_EXTRACTING = "extracting"
STAGE_CHUNKING = "chunking"
STAGE_EMBEDDING = "embedding"
STAGE_INDEXING = "indexing"
STAGES = (STAGE_EXTRACTING, STAGE_CHUNKING, STAGE_EMBEDDING, STAGE_INDEXING)
# Formats whose byte size is close to their text's length (HTML overestimates: markup).
_SIZED_BY_TEXT = (FileKind.TXT, FileKind.CSV, FileKind.MD, FileKind.HTML)


class Progress(TypedDict):
    stage: str
    chunksTotal: int | None
    chunksDone: int
    percent: int | None
    etaSeconds: int | None


def estimated_chunk_total(asset: Asset) -> int | None:
    """The chunks the file will likely give, or None when its size says nothing of its text."""
    if asset.file_format not in {kind.value for kind in _SIZED_BY_TEXT}:
        return None
    step = max(1, settings.CHUNK_SIZE - settings.CHUNK_OVERLAP)
    return max(1, math.ceil(asset.file_size / step))


def asset_progress(asset: Asset) -> Progress | None:
    """The progress of a PROCESSING asset; 100 % for a COMPLETED one; None otherwise."""
    if asset.status == AssetStatus.COMPLETED:
        return {
            "stage": STAGE_INDEXING,
            "chunksTotal": asset.chunk_count,
            "chunksDone": asset.chunk_count,
            "percent": 100,
            "etaSeconds": 0,
        }
    if asset.status != AssetStatus.PROCESSING:
        return None
    stage = asset.processing_stage if asset.processing_stage in STAGES else STAGE_EXTRACTING
    done = asset.progress_chunks_done
    total = asset.progress_chunks_total
    if total is not None:
        total = max(total, done)
    percent: int | None = None
    eta: int | None = None
    if total:
        # Never 100 while processing: the final writes are still to come.
        percent = min(99, math.floor(100 * done / total))
        if done and asset.progress_started_at is not None:
            elapsed = (timezone.now() - asset.progress_started_at).total_seconds()
            eta = max(0, math.ceil(elapsed / done * (total - done)))
    return {
        "stage": stage,
        "chunksTotal": total,
        "chunksDone": done,
        "percent": percent,
        "etaSeconds": eta,
    }


def status_payload(asset: Asset) -> dict[str, Any]:
    """The ``data`` of an ``asset-status`` WebSocket event."""
    return {
        "assetId": str(asset.pk),
        "status": asset.status,
        "originalFileName": asset.original_file_name,
        "progress": asset_progress(asset),
    }
