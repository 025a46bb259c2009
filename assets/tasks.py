"""Celery tasks of assets (queue `ingestion`): thin wrappers that call the services with ids."""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.exceptions import Reject, SoftTimeLimitExceeded, TimeLimitExceeded
from django.db import IntegrityError

from assets import ingestion, reembedding, tenant_indexes
from assets.models import Asset
from assets.storage import delete_files
from assets.time_budget import MIB, asset_budget_seconds, asset_time_limits
from common.tasks import DATABASE_ERRORS, ServiceTask

logger = logging.getLogger(__name__)

MAX_RETRIES = 3
# What the API shows for a failure that is not the file's fault; the details are logged.
UNEXPECTED_FAILURE_MESSAGE = "The file could not be processed; the error was logged."
# Errors worth another attempt: the database, the storage or the embedding service may be
# back in a moment; a concurrent attempt on the same asset (IntegrityError) will be done.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    *DATABASE_ERRORS,
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


def _file_size(asset_id: Any) -> int | None:
    size: int | None = Asset.objects.filter(pk=asset_id).values_list("file_size", flat=True).first()
    return size


class AssetProcessingTask(ServiceTask):
    """The class of ``process_asset_task``: every message carries its asset's time limits.

    However it is sent (the upload, the sweeper of background work, a look later while
    another attempt runs), ``apply_async`` adds the soft and hard limits of the asset's time budget
    (``assets.time_budget``) unless given; Celery's retries copy the limits of the message
    they retry. A message without them (sent by an older release) gets the base budget
    (``soft_time_limit_setting``).
    """

    def apply_async(  # type: ignore[no-untyped-def]
        self, args=None, kwargs=None, task_id=None, producer=None, link=None,
        link_error=None, shadow=None, **options,
    ):  # fmt: skip
        if args and options.get("soft_time_limit") is None:
            limits = asset_time_limits(file_size=_file_size(args[0]))
            options["soft_time_limit"] = limits.soft_time_limit
            options["time_limit"] = limits.time_limit
        return super().apply_async(
            args, kwargs, task_id, producer, link, link_error, shadow, **options
        )


def _fail_asset(task: Task, error: BaseException, asset_id: str) -> None:
    # Soft: the limit Celery or the ingestion itself enforces; hard: Celery killed the run.
    if isinstance(error, SoftTimeLimitExceeded | TimeLimitExceeded):
        size = _file_size(asset_id)
        seconds = asset_budget_seconds(file_size=size)
        megabytes = (size or 0) / MIB
        message = (
            f"Processing took longer than the {seconds} seconds allowed for a file of "
            f"{megabytes:.1f} MB."
        )
    else:
        message = UNEXPECTED_FAILURE_MESSAGE
    ingestion.asset_mark_failed(asset_id=asset_id, code="EXTRACTION_FAILED", message=message)


@shared_task(
    base=AssetProcessingTask,
    bind=True,
    autoretry_for=_transient_errors(),
    max_retries=MAX_RETRIES,
    retry_backoff=4,
    retry_backoff_max=120,
    soft_time_limit_setting="ASSET_PROCESSING_TIMEOUT_SECONDS",
    give_up=_fail_asset,
)
def process_asset_task(self, asset_id: str) -> None:  # type: ignore[no-untyped-def]
    """Process one asset; it never stays PROCESSING once the retries are spent.

    The asset's processing is leased work (``assets.work``, common.background): the
    ingestion claims the lease, processes, and ends it with the outcome. A worker killed
    mid-way has the task redelivered (acks_late) and the re-run replaces what the first
    attempt wrote; the sweeper queues it again once the lease expires. A delivery while the
    lease is held does nothing but look again once it expires (ServiceTask).
    Transient errors are retried with exponential backoff and full jitter (ServiceTask);
    then, like any unexpected error, the asset is FAILED (EXTRACTION_FAILED) with a generic
    message and Celery logs the error: internal error text never reaches the API. The typed
    processing errors (unreadable or unconvertible files) keep their own messages, written
    for users. A run longer than the asset's time budget (``assets.time_budget``: the soft
    limit its message carries, kept by the ingestion itself in the threads pool) is FAILED
    with a message that states the budget. A worker that shuts down hands the asset's lease
    back (``assets.worker``): its task is sent again at once for the next worker (or, when
    it stops before the claim, the message is rejected with requeue), neither a retry nor a
    failure.
    """
    # Redelivered: the worker of an earlier delivery was lost (reject_on_worker_lost).
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    try:
        asset = ingestion.asset_process(asset_id=asset_id, redelivered=redelivered)
    except ingestion.WorkerStoppingError as stopping:
        raise Reject(str(stopping), requeue=True) from None
    # The asset may have taken its organization past the threshold of its own vector index,
    # or the chunks written past its index's watermark past the rebuild fraction.
    if (
        asset is not None
        and asset.status == "COMPLETED"
        and tenant_indexes.needs_index(organization_id=asset.organization_id)
    ):
        reconcile_tenant_vector_indexes_task.delay(str(asset.organization_id))


@shared_task(
    base=ServiceTask,
    bind=True,
    autoretry_for=(Exception,),
    retry_backoff=30,
    retry_backoff_max=3600,
    max_retries=None,
)
def delete_asset_files_task(self, keys: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Delete the stored files of a deleted asset; retried (forever, with backoff) on failure."""
    delete_files(keys)


def _fail_reembedding(task: Task, error: BaseException, job_id: str) -> None:
    reembedding.reembed_mark_failed(job_id=job_id, error=f"{type(error).__name__}: {error}")


@shared_task(
    base=ServiceTask,
    bind=True,
    autoretry_for=_transient_errors(),
    max_retries=MAX_RETRIES,
    retry_backoff=4,
    retry_backoff_max=120,
    # The base budget, not an asset's: a step is one batch of chunks (job.batch_size), the
    # swap or a sweep batch, whatever the size of any file. (The index build grows with
    # the whole corpus, not with a file.)
    soft_time_limit_setting="ASSET_PROCESSING_TIMEOUT_SECONDS",
    give_up=_fail_reembedding,
)
def reembed_chunks_task(self, job_id: str) -> None:  # type: ignore[no-untyped-def]
    """One step of a re-embedding (assets.reembedding), then the next step's task.

    A step commits its own work, so a lost worker's redelivered task resumes after the last
    committed batch; a duplicate chain ends at once (one step at a time).
    """
    outcome = reembedding.reembed_step(job_id=job_id)
    if outcome.more:
        reembed_chunks_task.apply_async((job_id,), countdown=outcome.delay or None)


@shared_task(
    base=ServiceTask,
    bind=True,
    # No time limit of an asset's: building the index of a large organization takes
    # minutes (bench/bench_search_tenants.py), whatever the size of any one file.
)
def reconcile_tenant_vector_indexes_task(  # type: ignore[no-untyped-def]
    self, organization_id: str | None = None
) -> None:
    """Build the missing per-organization vector indexes (of ``organization_id`` only, when
    given), rebuild those whose tail has grown, and drop those of deleted organizations and
    the superseded ones (assets.tenant_indexes). Idempotent; a
    second one while one runs returns at once (the periodic run catches up)."""
    outcome = tenant_indexes.reconcile(organization_id=organization_id)
    if outcome.built or outcome.dropped or outcome.skipped:
        logger.info(
            "vector indexes: built %s, dropped %s%s", outcome.built, outcome.dropped,
            f" ({outcome.skipped})" if outcome.skipped else "",
        )  # fmt: skip
