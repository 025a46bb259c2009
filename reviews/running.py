"""A review's run in a worker: wait for the asset, read it, retrieve, check, store the report.

The review row carries the one lease of background work (reviews.work.REVIEW). The task
claims it (reviews.tasks), then `run`:

* the asset gate (`_asset_gate`, one transaction on the locked review): a COMPLETED asset
  goes on; a FAILED one fails the review (ASSET_FAILED); one still UPLOADED or PROCESSING
  puts the review back in the queue, stage `waiting-for-asset`, due again in
  WAIT_POLL_SECONDS, the attempt not counted. The asset's completion wakes it at once
  (`wake_waiting_reviews`, on assets' `asset_finished` signal); the due time is the
  fallback. A review waits at most MAX_ASSET_WAIT_SECONDS from its creation, then fails
  (ASSET_NOT_READY): nothing waits for good.
* `reading`: the asset's chunks in order (assets.selectors.asset_chunks) as passages; the
  document's language from its sentences.
* `retrieving`: per checklist item, its questions in the document's language
  (gdpr.review.engine.item_queries), each a hybrid search restricted to the asset.
* `checking`: gdpr.review.engine.review_document, then every quote verified against the
  passages (gdpr.review.report.with_verified_quotes): an item that loses a quote becomes
  needs-human-check.
* `complete` / `fail`: only the holder of the lease ends the review, in one transaction
  with its outcome; the frame goes to `/ws/reviews/{id}/` and the webhook event is queued.

A database error propagates (the task hands the lease back and retries); anything else
fails the review with a message a client may read (the error is logged). A worker lost
mid-way: the sweeper queues the review again, and fails it after MAX_ATTEMPTS.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from enum import Enum
from typing import Any

from django.db import transaction
from django.utils import timezone

from assets.models import Asset, AssetStatus
from common.background import leases
from common.background.fields import LeaseState
from gdpr.review import engine
from gdpr.review.report import ItemResult, ReviewReport, with_verified_quotes
from reviews import events, model_check, retrieval
from reviews.models import Review, ReviewStatus
from reviews.vendor_link import record_on_vendor
from reviews.work import REVIEW

logger = logging.getLogger(__name__)

STAGE_QUEUED = "queued"
STAGE_WAITING = "waiting-for-asset"
STAGE_READING = "reading"
STAGE_RETRIEVING = "retrieving"
STAGE_CHECKING = "checking"
STAGES = (STAGE_QUEUED, STAGE_WAITING, STAGE_READING, STAGE_RETRIEVING, STAGE_CHECKING)

# A review waiting for its asset looks again this often (its completion wakes it earlier).
WAIT_POLL_SECONDS = 60
# The longest a review waits for its asset, from its creation. An asset's processing always
# ends (its own lease fails it after its attempts), usually within minutes; a large file
# may take hours.
MAX_ASSET_WAIT_SECONDS = 6 * 3600

UNEXPECTED_FAILURE = "The review could not be run; the error was logged."
# How the lease ends a review it gave up on (reviews.work.REVIEW.end_failed).
END_FAILED = {
    "interrupted": (
        "REVIEW_INTERRUPTED",
        f"The review was interrupted {REVIEW.max_attempts} times; start it again.",
    ),
    "unsent": (
        "SERVICE_UNAVAILABLE",
        "The review queue was unavailable; the review was not run. Start it again shortly.",
    ),
}


class Gate(Enum):
    READY = "ready"
    STOP = "stop"


# -- claiming and running -----------------------------------------------------------------------
def claim(*, review_id: Any) -> str | None:
    """Take the lease of one attempt: its token, or None when there is nothing to run.

    Raises LeaseHeldError while another attempt holds an unexpired lease; a review whose
    attempts are spent fails (REVIEW_INTERRUPTED) instead of being run again.
    """
    lease = leases.claim(REVIEW, review_id)
    return lease.token if lease is not None else None


def run(*, review_id: Any, token: str, passthrough: tuple[type[BaseException], ...] = ()) -> None:
    """Run the claimed review to its end (or back to the queue while its asset is not ready).

    `passthrough` errors propagate (the task retries database errors and fails a run past
    its time limit itself); any other error fails the review with a generic message, and
    is logged.
    """
    review = Review.objects.filter(pk=review_id).first()
    if review is None or str(review.lease_token) != token:
        return
    if _asset_gate(review_id=review_id, token=token) is not Gate.READY:
        return
    try:
        _review(review, token)
    except passthrough:
        raise
    except Exception:
        logger.exception("review %s failed", review_id)
        fail(review_id=review_id, token=token, code="INTERNAL_ERROR", message=UNEXPECTED_FAILURE)


def _asset_gate(*, review_id: Any, token: str) -> Gate:
    """Go on with a COMPLETED asset; fail with a FAILED one; otherwise wait in the queue.

    One transaction on the locked review: an asset that completes meanwhile either is seen
    COMPLETED here, or its `asset_finished` receiver waits for this lock and then finds
    the review queued and waiting, and wakes it (no lost wake-up).
    """
    wait_seconds = 0.0
    with transaction.atomic():
        review = leases.holding(REVIEW, review_id, token)
        if review is None:
            return Gate.STOP
        asset = (
            Asset.objects.filter(pk=review.asset_id, organization_id=review.organization_id)
            .values("status", "error_code", "error_message", "original_file_name")
            .first()
        )
        if asset is None:  # deleted meanwhile (its reviews go with it): nothing to run
            leases.finish(review, error="ASSET_GONE")
            return Gate.STOP
        if asset["status"] == AssetStatus.COMPLETED:
            return Gate.READY
        if asset["status"] == AssetStatus.FAILED:
            reason = asset["error_message"] or asset["error_code"] or "unknown error"
            _finish_failed(
                review,
                code="ASSET_FAILED",
                message=f"The asset {asset['original_file_name']!r} could not be processed "
                f"({reason}); upload it again, then start the review again.",
            )
            leases.finish(review, error="ASSET_FAILED")
            return Gate.STOP
        waited = (timezone.now() - review.created_at).total_seconds()
        if waited >= MAX_ASSET_WAIT_SECONDS:
            hours = MAX_ASSET_WAIT_SECONDS / 3600
            _finish_failed(
                review,
                code="ASSET_NOT_READY",
                message=f"The asset was not processed within {hours:g} hours; start the "
                "review again once its status is COMPLETED.",
            )
            leases.finish(review, error="ASSET_NOT_READY")
            return Gate.STOP
        wait_seconds = min(WAIT_POLL_SECONDS, MAX_ASSET_WAIT_SECONDS - waited)
        review.stage = STAGE_WAITING
        review.save(update_fields=["stage", "updated_at"])
        # Back in the queue, due later; waiting is not an attempt.
        review.attempts = max(review.attempts - 1, 0)
        leases.queue(REVIEW, review, fresh=False, delay=wait_seconds)
    events.send_progress(review_id=review_id, stage=STAGE_WAITING)
    return Gate.STOP


def _review(review: Review, token: str) -> None:
    review_id = review.pk
    _stage(review_id, token, STAGE_READING)
    passages = retrieval.passages_of(
        organization_id=review.organization_id, asset_id=review.asset_id
    )
    if not passages:
        fail(
            review_id=review_id, token=token, code="EMPTY_DOCUMENT",
            message="The asset has no text to review (a scan without text, or an empty file).",
        )  # fmt: skip
        return
    document_language = retrieval.document_language(passages)
    queries = engine.item_queries(document_type=review.document_type, language=document_language)
    total = len(queries)
    _stage(review_id, token, STAGE_RETRIEVING, done=0, total=total)
    retrieved = retrieval.retrieve(
        organization_id=review.organization_id,
        asset_id=review.asset_id,
        queries=queries,
        on_item=lambda done, total: events.send_progress(
            review_id=review_id, stage=STAGE_RETRIEVING, items_done=done, items_total=total
        ),
    )
    _stage(review_id, token, STAGE_CHECKING, done=0, total=total)
    report = engine.review_document(
        document_type=review.document_type,
        passages=passages,
        report_language=review.language,
        retrieved=retrieved,
    )
    # Where a language model is configured it is asked as well, on each item's retrieved
    # passages; its answer is merged with the rules' (reviews.model_check), never instead.
    by_index = {passage.index: passage for passage in passages}
    checked = model_check.model_review(
        document_type=review.document_type,
        items=report.items,
        candidates={
            item_id: [by_index[index] for index in indexes if index in by_index]
            for item_id, indexes in retrieved.items()
        },
        report_language=review.language,
        document_language=document_language,
    )
    if checked is not None:
        report = replace(report, items=checked, method="rules+model")
    # Every stored quote is the asset's own text, whoever proposed it.
    verified = tuple(with_verified_quotes(item, passages) for item in report.items)
    report = replace(report, items=verified)
    complete(
        review_id=review_id,
        token=token,
        report=report,
        document_language=report.document_language or document_language,
    )


def _stage(
    review_id: Any, token: str, stage: str, *, done: int | None = None, total: int | None = None
) -> None:
    Review.objects.filter(pk=review_id, lease_token=token).update(
        stage=stage, updated_at=timezone.now()
    )
    events.send_progress(review_id=review_id, stage=stage, items_done=done, items_total=total)


# -- ending -------------------------------------------------------------------------------------
def item_body(item: ItemResult) -> dict[str, Any]:
    """One checklist item in the API's shape (stored as such in `Review.items`)."""
    return {
        "itemId": item.item_id,
        "article": item.article,
        "status": item.status.value,
        "finding": item.finding,
        "citations": [
            {"location": citation.location, "quote": citation.quote} for citation in item.citations
        ],
        "suggestion": item.suggestion,
    }


def complete(
    *, review_id: Any, token: str, report: ReviewReport, document_language: str
) -> Review | None:
    """Store the report, if `token` still holds the review."""
    with transaction.atomic():
        review: Review | None = leases.holding(REVIEW, review_id, token)
        if review is None:
            return None
        review.status = ReviewStatus.COMPLETED
        review.verdict = report.verdict.value
        review.counts = report.counts
        review.items = [item_body(item) for item in report.items]
        review.ruleset = report.ruleset[:40]
        review.method = report.method[:20]
        review.document_language = document_language[:8]
        _end(review)
        leases.finish(review)
        # In the same transaction: the vendor never shows a review that did not complete.
        record_on_vendor(review)
    return review


def fail(*, review_id: Any, token: str | None, code: str, message: str) -> Review | None:
    """Fail the review, if `token` still holds it (None: whichever attempt)."""
    with transaction.atomic():
        review: Review | None = leases.holding(REVIEW, review_id, token)
        if review is None:
            return None
        _finish_failed(review, code=code, message=message)
        leases.finish(review, error=code)
    return review


def end_failed(review: Review, reason: str) -> None:
    """Fail the locked review the lease gave up on (its caller then ends the lease)."""
    code, message = END_FAILED[reason]
    _finish_failed(review, code=code, message=message)


def _finish_failed(review: Review, *, code: str, message: str) -> None:
    review.status = ReviewStatus.FAILED
    review.error_code = code[:40]
    review.error_message = message[:2000]
    _end(review)


def _end(review: Review) -> None:
    """Save the review's outcome (the caller ends its lease in the same transaction)."""
    review.stage = ""
    review.completed_at = timezone.now()
    review.save(
        update_fields=[
            "status", "stage", "verdict", "counts", "items", "ruleset", "method",
            "document_language", "error_code", "error_message", "completed_at", "updated_at",
        ]
    )  # fmt: skip
    events.announce_final(review)


# -- waking reviews that wait for their asset ---------------------------------------------------
def wake_waiting_reviews(*, asset_id: Any, **_: Any) -> int:
    """Send at once the reviews queued while waiting for this asset (now COMPLETED or FAILED).

    The receiver of assets' `asset_finished` signal (ReviewsConfig.ready), called once the
    asset's final status committed. Each review is locked: one whose gate is deciding right
    now is found once it decided (queued and waiting: woken; running: it saw the status).
    """
    woken = 0
    pending = Review.objects.filter(asset_id=asset_id, status=ReviewStatus.PROCESSING)
    for review_id in list(pending.values_list("pk", flat=True)):
        with transaction.atomic():
            review = leases.locked(REVIEW, review_id)
            if (
                review is None
                or review.lease_state != LeaseState.QUEUED
                or review.stage != STAGE_WAITING
            ):
                continue
            review.due_at = timezone.now()
            review.save(update_fields=["due_at"])
            leases.send_on_commit(REVIEW, review_id)
            woken += 1
    return woken
