"""A review as a kind of background work (common.background), described once.

Registered in `ReviewsConfig.ready`, so that the one sweeper (common.tasks) queues again a
review whose worker was lost, sends again one whose task the broker refused or lost, and
fails one interrupted MAX_ATTEMPTS times (REVIEW_INTERRUPTED) or queued past
MAX_QUEUED_SECONDS (SERVICE_UNAVAILABLE). A review waiting for its asset is queued with a
later due time (reviews.running.wait_for_asset): not lost, not swept before it is due.

The kind's hooks import the task and the running code when called: the running code uses
the kind, and the task calls the running code (the services<->tasks idiom).
"""

from __future__ import annotations

from typing import Any

from common.background import leases
from common.background.kinds import WorkKind
from reviews.models import Review

# One attempt: reading the chunks, the searches, the rules (a 150 KB DPA in seconds) and a
# language model's check where one is configured; the task's soft limit.
BUDGET_SECONDS = 300
# After the budget, the attempt has this long to record its own failure.
GRACE_SECONDS = 30
# Attempts (a worker lost mid-way is one); then it fails REVIEW_INTERRUPTED.
MAX_ATTEMPTS = 3
# A queued review this long past due lost its task (a lost message): sent again.
RESEND_AFTER_SECONDS = 300
# A review the broker kept refusing this long past due fails (SERVICE_UNAVAILABLE).
MAX_QUEUED_SECONDS = 3600


def _send(review_id: str, countdown: float) -> None:
    from reviews.tasks import run_review_task

    run_review_task.apply_async((review_id,), countdown=countdown or None)


def _end_failed(review: Review, reason: str) -> None:
    from reviews.running import end_failed

    end_failed(review, reason)


def _requeued(review: Review) -> None:
    # Its worker was lost: the API shows it waiting again, not at the stage it was lost in.
    review.stage = "queued"
    review.save(update_fields=["stage", "updated_at"])


REVIEW = WorkKind(
    name="review",
    model=Review,
    send=_send,
    lease_seconds=lambda review: BUDGET_SECONDS + GRACE_SECONDS,
    end_failed=_end_failed,
    max_attempts=MAX_ATTEMPTS,
    resend_after_seconds=RESEND_AFTER_SECONDS,
    max_queued_seconds=MAX_QUEUED_SECONDS,
    requeued=_requeued,
)


def claim_or_retry(task: Any, pk: Any) -> leases.Lease | None:
    """The lease of this run (None: nothing to run); while another attempt holds it, the
    task is retried once that lease expires (its retries spent: LeaseHeldError, which
    fails nothing: the attempt holding the lease ends the review, or the sweeper does)."""
    try:
        return leases.claim(REVIEW, pk)
    except leases.LeaseHeldError as held:
        raise task.retry(exc=held, countdown=held.seconds_left) from None
