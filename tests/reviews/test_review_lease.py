"""A review on the one lease (common.background): a lost worker's review is queued again by
the sweeper and completed, one interrupted too often fails, one the broker kept refusing
fails SERVICE_UNAVAILABLE: never `processing` for good."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from common.background import kinds, sweeper
from common.background.fields import LeaseState
from reviews import running
from reviews.models import Review
from reviews.tasks import run_review_task
from reviews.work import REVIEW
from tests.reviews.conftest import URL, review_of, start

pytestmark = pytest.mark.django_db

DPA = "DATA_PROCESSING_AGREEMENT"


def lost_worker(review: Review) -> str:
    """A worker claimed the review and was lost: its lease is held, then expires."""
    token = running.claim(review_id=review.pk)
    assert token is not None
    Review.objects.filter(pk=review.pk).update(
        stage="checking", lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    return token


def test_the_review_kind_is_registered_for_the_one_sweeper():
    assert kinds.named("review") is REVIEW


def test_a_review_whose_worker_was_lost_is_queued_again_by_the_sweeper_and_completed(
    dpo, committed, review_queue, dpa_asset
):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))
    assert review_queue.sent == [str(review.pk)]  # sent, but that worker is lost
    lost_worker(review)

    assert committed(lambda: sweeper.sweep(REVIEW)) == {"requeued": 1, "failed": 0, "resent": 0}

    review.refresh_from_db()
    assert (review.status, review.stage, review.lease_state) == (
        "processing", "queued", LeaseState.QUEUED,
    )  # fmt: skip
    assert review_queue.sent == [str(review.pk), str(review.pk)]
    committed(lambda: run_review_task.apply(args=[str(review.pk)], throw=True))
    review.refresh_from_db()
    assert (review.status, review.attempts) == ("completed", 2), review.error_message


def test_a_review_interrupted_on_every_attempt_fails_review_interrupted(dpo, committed, dpa_asset):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))
    for _attempt in range(REVIEW.max_attempts):
        lost_worker(review)
        committed(lambda: sweeper.sweep(REVIEW))

    body = dpo.client.get(f"{URL}/{review.pk}").json()
    assert body["status"] == "failed"
    assert body["error"]["code"] == "REVIEW_INTERRUPTED"
    assert Review.objects.get(pk=review.pk).lease_state == LeaseState.IDLE


def test_a_review_the_broker_kept_refusing_ends_service_unavailable(
    dpo, committed, monkeypatch, dpa_asset
):
    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise KombuOperationalError("Error 111 connecting to localhost:6379. Connection refused.")

    monkeypatch.setattr(run_review_task, "apply_async", broker_down)
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))
    review.refresh_from_db()
    assert (review.status, review.lease_state) == ("processing", LeaseState.QUEUED)

    Review.objects.filter(pk=review.pk).update(
        due_at=timezone.now() - timedelta(seconds=REVIEW.max_queued_seconds + 1)
    )
    assert committed(lambda: sweeper.sweep(REVIEW))["failed"] == 1

    review.refresh_from_db()
    assert (review.status, review.error_code) == ("failed", "SERVICE_UNAVAILABLE")


def test_a_duplicate_task_of_a_finished_review_does_nothing(dpo, committed, worker):
    from tests.assets.factories import AssetFactory

    asset = AssetFactory(organization=dpo.organization, status="FAILED")
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))
    ended = Review.objects.get(pk=review.pk)

    committed(lambda: run_review_task.apply(args=[str(review.pk)], throw=True))

    again = Review.objects.get(pk=review.pk)
    assert (again.status, again.attempts, again.completed_at) == (
        "failed", ended.attempts, ended.completed_at,
    )  # fmt: skip
