"""Every app emits webhook events through one `queue_event`, with one payload (docs/API.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from common.background import sweeper
from tests.webhooks.factories import WebhookEndpointFactory
from webhooks.delivery import serialize_body
from webhooks.events import event_payload
from webhooks.models import DeliveryStatus, WebhookDelivery
from webhooks.services import queue_event, webhook_deliveries_create
from webhooks.work import KIND

AT = datetime(2025, 3, 1, 12, 30, 5, tzinfo=UTC)
ORGANIZATION = "4d9b66f2-2138-403e-8312-9c02d774a793"
SUBJECT = "7d7c0d6e-3a4c-4e0c-9a39-9ad0b1b7a001"


@pytest.mark.parametrize(
    ("event", "key"),
    [
        ("document.finalized", "documentId"),
        ("asset.failed", "assetId"),
        ("register_import.completed", "importId"),
    ],
)
def test_the_body_of_every_event_names_its_subject_in_the_documented_order(event, key):
    payload = event_payload(
        event=event, subject_id=SUBJECT, organization_id=ORGANIZATION,
        data={"status": "x"}, timestamp=AT,
    )  # fmt: skip

    assert serialize_body(payload) == (
        f'{{"event":"{event}","{key}":"{SUBJECT}","organizationId":"{ORGANIZATION}",'
        '"timestamp":"2025-03-01T12:30:05Z","data":{"status":"x"}}'
    )


@pytest.mark.django_db(transaction=True)
def test_an_event_is_queued_once_the_emitters_transaction_commits_and_never_on_rollback():
    endpoint = WebhookEndpointFactory(events=["document.created"])
    emit = {
        "event": "document.created", "subject_id": SUBJECT,
        "organization_id": endpoint.organization_id, "data": {"status": "QUEUED"},
    }  # fmt: skip

    with pytest.raises(RuntimeError), transaction.atomic():
        queue_event(**emit)
        raise RuntimeError
    assert not WebhookDelivery.objects.exists()

    with transaction.atomic():
        queue_event(**emit)
        assert not WebhookDelivery.objects.exists()
    [delivery] = WebhookDelivery.objects.all()
    assert delivery.payload["documentId"] == SUBJECT
    assert delivery.lease_state == "queued"


@pytest.mark.django_db
def test_an_unknown_event_is_refused_at_once():
    with pytest.raises(ValueError, match="Unknown webhook event"):
        queue_event(event="document.exploded", subject_id=SUBJECT, organization_id=ORGANIZATION,
                    data={})  # fmt: skip


@pytest.mark.django_db
def test_an_attempt_the_broker_never_took_ends_failed_after_a_day():
    endpoint = WebhookEndpointFactory(events=["document.created"])
    [delivery] = webhook_deliveries_create(
        event="document.created", subject_id=SUBJECT, organization_id=endpoint.organization_id,
        data={},
    )  # fmt: skip
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        due_at=timezone.now() - timedelta(seconds=KIND.max_queued_seconds + 1)
    )

    assert sweeper.sweep(KIND)["failed"] == 1

    delivery.refresh_from_db()
    assert (delivery.status, delivery.lease_state) == (DeliveryStatus.FAILED, "idle")
    assert delivery.error == "The job queue was unavailable; the event was not sent."
