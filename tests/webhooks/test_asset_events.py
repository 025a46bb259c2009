"""`asset.completed` and `asset.failed` go to the endpoints subscribed to them, signed like
the document events (Standard Webhooks)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from standardwebhooks.webhooks import Webhook

from assets.ingestion import asset_mark_failed, asset_process
from organizations.models import Plan, Role
from tests.conftest import make_caller
from tests.factories import OrganizationFactory
from tests.webhooks.factories import WebhookEndpointFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_targets", "eager_tasks")]

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


@pytest.fixture
def business_dpo(dpo, settings):  # type: ignore[no-untyped-def]
    settings.RATE_LIMIT_WRITES = "10000/min"
    dpo.organization.plan = Plan.BUSINESS
    dpo.organization.save(update_fields=["plan"])
    return dpo


def upload(caller, name: str, content: bytes) -> str:  # type: ignore[no-untyped-def]
    file = SimpleUploadedFile(name, content, content_type="text/plain")
    response = caller.client.post("/api/v1/assets/upload", {"file": file}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_a_completed_ingestion_sends_asset_completed(
    business_dpo, receiver, django_capture_on_commit_callbacks
):
    WebhookEndpointFactory(
        organization=business_dpo.organization,
        url=receiver.url(),
        secret=SECRET,
        events=["asset.completed"],
    )
    asset_id = upload(business_dpo, "notes.txt", b"Notes of the DPO on the register.\n" * 100)
    with django_capture_on_commit_callbacks(execute=True):
        asset = asset_process(asset_id=asset_id)
    assert asset is not None

    [request] = receiver.received
    payload = Webhook(SECRET).verify(request.body, request.headers)
    assert set(payload) == {"event", "assetId", "organizationId", "timestamp", "data"}
    assert payload["event"] == "asset.completed"
    assert payload["assetId"] == asset_id
    assert payload["organizationId"] == str(business_dpo.organization.pk)
    assert payload["data"] == {
        "status": "COMPLETED",
        "originalFileName": "notes.txt",
        "chunkCount": asset.chunk_count,
    }
    assert asset.chunk_count > 0


def test_a_failed_asset_sends_asset_failed_with_the_error_only_to_its_subscribers(
    business_dpo, receiver, django_capture_on_commit_callbacks
):
    WebhookEndpointFactory(
        organization=business_dpo.organization,
        url=receiver.url(),
        secret=SECRET,
        events=["asset.failed"],
    )
    completed_only = WebhookEndpointFactory(
        organization=business_dpo.organization,
        url=receiver.url().replace("/hooks/", "/other/"),
        events=["asset.completed"],
    )
    asset_id = upload(business_dpo, "notes.txt", b"Notes.\n" * 10)
    with django_capture_on_commit_callbacks(execute=True):
        asset_mark_failed(asset_id=asset_id, code="EXTRACTION_FAILED", message="unreadable")

    [request] = receiver.received
    assert request.path == "/hooks/legaldocs"
    payload = Webhook(SECRET).verify(request.body, request.headers)
    assert payload["event"] == "asset.failed"
    assert payload["data"] == {
        "status": "FAILED",
        "originalFileName": "notes.txt",
        "chunkCount": 0,
        "error": {"code": "EXTRACTION_FAILED", "message": "unreadable", "details": None},
    }
    assert not completed_only.deliveries.exists()


def test_an_endpoint_may_subscribe_to_asset_events():
    admin = make_caller(Role.ADMIN, organization=OrganizationFactory(plan=Plan.BUSINESS))
    response = admin.client.post(
        "/api/v1/webhooks",
        {"url": "https://hooks.example.com/in", "events": ["asset.completed", "asset.failed"]},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["events"] == ["asset.completed", "asset.failed"]
