"""Celery task of reviews (queue `generation`, config/settings CELERY_TASK_ROUTES): a thin
wrapper that claims the review's lease and calls the running code with its id.

The queue: a review is short (seconds once its asset is ingested) and reads text, like a
document's generation; on `ingestion` it would wait behind uploads that take up to hours
on a worker of concurrency 1, while the asset it reviews is done already.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from common.background import leases
from common.background.leases import LeaseHeldError
from common.tasks import DATABASE_ERRORS, ServiceTask
from reviews import running, work

logger = logging.getLogger(__name__)

MAX_RETRIES = 3


def _give_up(task: Task, error: BaseException, review_id: str) -> None:
    """The task failed for good: the review fails with what a client may read."""
    if isinstance(error, LeaseHeldError):
        return  # another attempt holds the review: it ends it, or the sweeper does
    if isinstance(error, SoftTimeLimitExceeded | TimeLimitExceeded):
        code = "REVIEW_TIMEOUT"
        message = f"The review took longer than the {work.BUDGET_SECONDS} seconds allowed."
    elif isinstance(error, DATABASE_ERRORS):
        code, message = "SERVICE_UNAVAILABLE", "The database was unavailable; start it again."
    else:
        code, message = "INTERNAL_ERROR", running.UNEXPECTED_FAILURE
    running.fail(review_id=review_id, token=None, code=code, message=message)


class ReviewTask(ServiceTask):
    """Soft limit: the review's budget; the lease outlasts it by the grace."""

    @property  # type: ignore[override]
    def soft_time_limit(self) -> int:
        return work.BUDGET_SECONDS

    @property  # type: ignore[override]
    def time_limit(self) -> int:
        return work.BUDGET_SECONDS + work.GRACE_SECONDS


@shared_task(
    base=ReviewTask,
    bind=True,
    autoretry_for=DATABASE_ERRORS,
    max_retries=MAX_RETRIES,
    give_up=_give_up,
)
def run_review_task(self, review_id: str) -> None:  # type: ignore[no-untyped-def]
    """Run one review; it never stays `processing` for good.

    Claims the review's lease (a redelivered or duplicate task finds nothing to do, or
    looks again once the running attempt's lease expires), then runs it: a review whose
    asset is not ready goes back to the queue (reviews.running). Database hiccups hand the
    lease back and are retried with backoff (ServiceTask); then, like a run past its time
    limit, they fail the review with a reason a client may read.
    """
    lease = work.claim_or_retry(self, review_id)
    if lease is None:
        return
    try:
        running.run(
            review_id=review_id,
            token=lease.token,
            passthrough=(*DATABASE_ERRORS, SoftTimeLimitExceeded),
        )
    except DATABASE_ERRORS:
        _hand_back_for_retry(review_id, lease.token)
        raise


def _hand_back_for_retry(review_id: str, token: str) -> None:
    """Before the task's own retry: the lease back, the attempt not counted, nothing sent.
    Without a database the lease stays held: the retry waits for it."""
    try:
        leases.hand_back(work.REVIEW, review_id, token, send=False)
    except Exception:
        logger.warning("could not hand back review %s before its retry", review_id, exc_info=True)
