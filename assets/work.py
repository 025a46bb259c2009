"""An asset's processing as leased background work (common.background), described once.

The lease of one attempt is the asset's processing budget (assets.time_budget: a base plus
time per MB) and the grace its timed-out attempt has to record its failure: a running
attempt of a large file is not taken over while it may still be working. The one sweeper
queues again the asset of an expired lease (its worker was lost) and sends again the task
of an asset queued for minutes (lost, or refused by the broker); an asset is claimed at
most MAX_PROCESSING_ATTEMPTS times, and one the broker refused for an hour ends FAILED.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from assets.events import announce_final_status
from assets.models import Asset, AssetChunk, AssetStatus
from assets.progress import STAGE_EXTRACTING
from assets.time_budget import GRACE_SECONDS, asset_budget_seconds
from common.background.kinds import WorkKind

logger = logging.getLogger(__name__)

# Claims of one asset, retries and take-overs included, before it is failed: 1 + the task's
# 3 retries + 2 take-overs of an attempt whose worker was lost after the file was read.
MAX_PROCESSING_ATTEMPTS = 6
# An asset queued this long past due lost its task (or the broker refused it): sent again.
RESEND_AFTER_SECONDS = 300
LOST_WHILE_READING_MESSAGE = (
    "The worker processing this file stopped while reading it (out of memory or killed); "
    "the file is not tried again."
)
UNSENT_MESSAGE = "The job queue was unavailable; upload the file again."


def lease_seconds(asset: Asset) -> float:
    """How long one attempt holds the asset: its time budget, then the grace after it."""
    return asset_budget_seconds(file_size=asset.file_size) + GRACE_SECONDS


def lost_while_reading(asset: Asset) -> bool:
    """The asset's last attempt was reading the file when it ended without a word."""
    return asset.status == AssetStatus.PROCESSING and asset.processing_stage == STAGE_EXTRACTING


def end_failed(asset: Asset, reason: str) -> None:
    """FAILED by the lease (on the row the caller locked): no chunk is kept.

    ``interrupted``: the attempts are spent, or the last one was lost while reading the file
    (a hostile file may kill every worker it is handed to); ``unsent``: the broker refused
    its task for ``max_queued_seconds``. A COMPLETED or FAILED asset stays as it is.
    """
    if asset.status not in (AssetStatus.UPLOADED, AssetStatus.PROCESSING):
        return
    if reason == "unsent":
        code, message = "SERVICE_UNAVAILABLE", UNSENT_MESSAGE
    elif lost_while_reading(asset):
        code, message = "EXTRACTION_FAILED", LOST_WHILE_READING_MESSAGE
    else:
        code = "EXTRACTION_FAILED"
        message = f"Processing was tried {asset.attempts} times without finishing."
    logger.warning("asset %s failed without another attempt: %s", asset.pk, message)
    AssetChunk.objects.filter(asset_id=asset.pk).delete()
    asset.status = AssetStatus.FAILED
    asset.error_code = code
    asset.error_message = message
    asset.error_details = None
    asset.chunk_count = 0
    asset.processing_stage = ""
    asset.updated_at = timezone.now()
    asset.save(
        update_fields=[
            "status", "error_code", "error_message", "error_details", "chunk_count",
            "processing_stage", "updated_at",
        ]
    )  # fmt: skip
    announce_final_status(asset.pk)


def send(asset_id: str, countdown: float) -> None:
    """The processing task, with the asset's time limits (AssetProcessingTask)."""
    from assets.tasks import process_asset_task  # the tasks import the ingestion, which this

    if countdown:
        process_asset_task.apply_async((asset_id,), countdown=countdown)
    else:
        process_asset_task.delay(asset_id)


ASSET_PROCESSING = WorkKind(
    name="asset",
    model=Asset,
    send=send,
    lease_seconds=lease_seconds,
    end_failed=end_failed,
    max_attempts=MAX_PROCESSING_ATTEMPTS,
    resend_after_seconds=RESEND_AFTER_SECONDS,
)
