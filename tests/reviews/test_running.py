"""A review's run through its real task: the report, waiting for the asset, failures, the
webhook events and the audit trail (reviews.running, reviews.tasks)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from assets.ingestion import asset_mark_failed
from audit.models import AuditEvent
from common.background.fields import LeaseState
from reviews import running
from reviews.models import Review
from tests.assets.factories import AssetFactory
from tests.reviews.conftest import URL, process, review_of, start, upload
from tests.reviews.samples import DPA_TEXT
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.models import WebhookDelivery
from webhooks.tasks import deliver_webhook_task

pytestmark = pytest.mark.django_db

DPA = "DATA_PROCESSING_AGREEMENT"


@pytest.fixture(autouse=True)
def _no_webhook_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deliveries are queued rows here; their task never reaches the real broker."""
    monkeypatch.setattr(deliver_webhook_task, "apply_async", lambda *args, **kwargs: None)


def test_a_review_runs_through_its_task_to_a_report_whose_quotes_are_the_assets_text(
    dpo, committed, worker, dpa_asset
):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))

    body = dpo.client.get(f"{URL}/{review.pk}").json()

    assert body["status"] == "completed", body["error"]
    assert (body["stage"], body["error"]) == (None, None)
    assert body["completedAt"].endswith("Z")
    assert body["documentLanguage"] == "en"
    assert body["verdict"] in ("no-gaps", "gaps", "needs-human-check")
    assert sum(body["counts"].values()) == len(body["items"]) > 0
    quotes = [c["quote"] for item in body["items"] for c in item["citations"]]
    assert quotes, body["items"]
    assert all(quote in DPA_TEXT for quote in quotes)
    assert set(body["items"][0]) == {
        "itemId", "article", "status", "finding", "citations", "suggestion",
    }  # fmt: skip
    assert (body["rulesetVersion"], body["method"]) == ("review-dpa-2026.1", "rules")
    stored = Review.objects.get(pk=review.pk)
    assert (stored.lease_state, stored.attempts) == (LeaseState.IDLE, 1)


def test_a_review_of_an_asset_still_processing_waits_and_runs_once_the_asset_completes(
    dpo, committed, worker
):
    asset_id = upload(dpo, "cloudmail-dpa.md", DPA_TEXT.encode())
    review = review_of(start(dpo, committed, assetId=asset_id, documentType=DPA))

    review.refresh_from_db()
    assert (review.status, review.stage) == ("processing", "waiting-for-asset")
    assert (review.lease_state, review.attempts) == (LeaseState.QUEUED, 0)
    assert worker.delayed == [(str(review.pk), running.WAIT_POLL_SECONDS)]

    committed(lambda: process(asset_id))  # its completion wakes the review at once

    review.refresh_from_db()
    assert review.status == "completed", review.error_message
    assert worker.ran == [str(review.pk), str(review.pk)]
    # The delayed look arrives later and finds nothing to do.
    worker.run_delayed()
    assert Review.objects.get(pk=review.pk).completed_at == review.completed_at


def test_a_waiting_review_looks_again_when_due_and_keeps_waiting_while_the_asset_processes(
    dpo, committed, worker
):
    asset = AssetFactory(organization=dpo.organization, status="PROCESSING")
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    committed(worker.run_delayed)

    review.refresh_from_db()
    assert (review.status, review.stage, review.attempts) == (
        "processing", "waiting-for-asset", 0,
    )  # fmt: skip
    assert len(worker.delayed) == 1


def test_a_review_of_an_asset_that_failed_fails_with_asset_failed(dpo, committed, worker):
    asset_id = upload(dpo, "scan.md", DPA_TEXT.encode())
    review = review_of(start(dpo, committed, assetId=asset_id, documentType=DPA))

    committed(
        lambda: asset_mark_failed(
            asset_id=asset_id, code="EXTRACTION_FAILED", message="The file could not be read."
        )
    )

    body = dpo.client.get(f"{URL}/{review.pk}").json()
    assert body["status"] == "failed"
    assert body["error"]["code"] == "ASSET_FAILED"
    assert "The file could not be read." in body["error"]["message"]
    assert Review.objects.get(pk=review.pk).lease_state == LeaseState.IDLE


def test_a_review_started_on_a_failed_asset_fails_at_once(dpo, committed, worker):
    asset = AssetFactory(organization=dpo.organization, status="FAILED", error_code="X")

    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    review.refresh_from_db()
    assert (review.status, review.error_code) == ("failed", "ASSET_FAILED")


def test_a_review_waits_for_its_asset_a_bounded_time(dpo, committed, worker):
    asset = AssetFactory(organization=dpo.organization, status="PROCESSING")
    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))
    Review.objects.filter(pk=review.pk).update(
        created_at=timezone.now() - timedelta(seconds=running.MAX_ASSET_WAIT_SECONDS + 1)
    )

    committed(worker.run_delayed)

    review.refresh_from_db()
    assert (review.status, review.error_code, review.lease_state) == (
        "failed", "ASSET_NOT_READY", LeaseState.IDLE,
    )  # fmt: skip
    assert worker.delayed == []


def test_an_asset_without_text_fails_the_review_with_empty_document(dpo, committed, worker):
    asset = AssetFactory(organization=dpo.organization)  # COMPLETED, no chunk

    review = review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    review.refresh_from_db()
    assert (review.status, review.error_code) == ("failed", "EMPTY_DOCUMENT")


def test_the_end_of_a_review_queues_its_webhook_event(dpo, committed, worker, dpa_asset):
    endpoint = WebhookEndpointFactory(
        organization=dpo.organization, events=["review.completed", "review.failed"]
    )

    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))

    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.event == "review.completed"
    payload = delivery.payload
    assert (payload["event"], payload["reviewId"]) == ("review.completed", str(review.pk))
    assert payload["organizationId"] == str(dpo.organization.pk)
    data = payload["data"]
    assert (data["status"], data["documentType"], data["assetId"]) == (
        "completed", DPA, dpa_asset,
    )  # fmt: skip
    assert data["verdict"] and data["counts"]


def test_a_failed_review_queues_review_failed_with_its_error(dpo, committed, worker):
    endpoint = WebhookEndpointFactory(organization=dpo.organization, events=["review.failed"])
    asset = AssetFactory(organization=dpo.organization, status="FAILED")

    review_of(start(dpo, committed, assetId=str(asset.pk), documentType=DPA))

    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert delivery.payload["data"]["error"]["code"] == "ASSET_FAILED"


def test_a_completed_review_is_audited_as_created_and_read(dpo, committed, worker, dpa_asset):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))
    dpo.client.get(f"{URL}/{review.pk}")

    actions = set(
        AuditEvent.objects.filter(object_id=str(review.pk)).values_list("action", flat=True)
    )
    assert {"review.create", "review.read"} <= actions
