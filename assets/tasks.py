"""Celery tasks of assets (queue `ingestion`): thin wrappers that call the services with ids."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError

from assets import ingestion
from assets.services import asset_mark_failed
from assets.storage import delete_files

logger = logging.getLogger(__name__)

MAX_RETRIES = 3
# Errors worth another attempt: the database, the storage or the embedding service may be
# back in a moment; a concurrent attempt on the same asset (IntegrityError) will be done.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    IntegrityError,
    ConnectionError,
    TimeoutError,
)


def _transient_errors() -> tuple[type[BaseException], ...]:
    try:
        import openai
    except ImportError:
        return TRANSIENT_ERRORS
    return (*TRANSIENT_ERRORS, openai.APIConnectionError, openai.APITimeoutError,
            openai.RateLimitError, openai.InternalServerError)  # fmt: skip


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.ASSET_PROCESSING_TIMEOUT_SECONDS,
)
def process_asset_task(self, asset_id: str) -> None:  # type: ignore[no-untyped-def]
    """Process one asset; it never stays PROCESSING once the retries are spent.

    A worker killed mid-way has the task redelivered (acks_late) and the re-run replaces
    what the first attempt wrote. Transient errors are retried with exponential backoff and
    jitter; then, like any unexpected error, the asset is FAILED (EXTRACTION_FAILED) with a
    message and the error is logged.
    """
    try:
        ingestion.asset_process(asset_id=asset_id)
    except _transient_errors() as error:
        if self.request.retries < self.max_retries:
            countdown = min(120, 2 ** (self.request.retries + 2))
            raise self.retry(exc=error, countdown=countdown) from error
        logger.warning("processing of asset %s failed after retries: %s", asset_id, error)
        asset_mark_failed(
            asset_id=asset_id,
            code="EXTRACTION_FAILED",
            message=f"A service needed for processing was unavailable: {error}"[:500],
        )
    except SoftTimeLimitExceeded:
        asset_mark_failed(
            asset_id=asset_id,
            code="EXTRACTION_FAILED",
            message=(
                f"Processing took longer than {settings.ASSET_PROCESSING_TIMEOUT_SECONDS} seconds."
            ),
        )
    except Exception:
        logger.exception("processing of asset %s failed", asset_id)
        asset_mark_failed(
            asset_id=asset_id,
            code="EXTRACTION_FAILED",
            message="The file could not be processed; the error was logged.",
        )


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=None,
)
def delete_asset_files_task(self, keys: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Delete the stored files of a deleted asset; retried (forever, with backoff) on failure."""
    delete_files(keys)


@shared_task
def fail_stale_assets_task() -> int:
    """Beat: fail assets PROCESSING for longer than twice the processing timeout."""
    return ingestion.fail_stale_assets(
        older_than_seconds=2 * settings.ASSET_PROCESSING_TIMEOUT_SECONDS
    )
