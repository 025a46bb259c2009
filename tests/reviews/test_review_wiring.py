"""What the review's run hands to the rest of the service: suggestions on each item, the
report as files through the API, and a DPA's result kept on its vendor."""

from __future__ import annotations

import json

import pytest

from audit.models import AuditEvent
from reviews.models import Review
from tests.register.factories import VendorFactory
from tests.reviews.conftest import URL, review_of, start
from tests.reviews.surfaces_support import completed_review
from tests.support.fake_openai import fake_openai_server
from webhooks.tasks import deliver_webhook_task

pytestmark = pytest.mark.django_db

DPA = "DATA_PROCESSING_AGREEMENT"


@pytest.fixture(autouse=True)
def _no_webhook_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deliver_webhook_task, "apply_async", lambda *args, **kwargs: None)


def test_every_item_carries_our_templates_clause_in_the_reports_language(
    dpo, committed, worker, dpa_asset
):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA, language="de"))

    items = {item["itemId"]: item for item in dpo.client.get(f"{URL}/{review.pk}").json()["items"]}

    assert all(item["suggestion"] for item in items.values())
    assert "Inspektionen" in items["h-audits"]["suggestion"]


def test_a_completed_dpa_review_with_a_vendor_is_kept_on_the_vendor(
    dpo, committed, worker, dpa_asset
):
    vendor = VendorFactory(organization=dpo.organization)

    review = review_of(
        start(dpo, committed, assetId=dpa_asset, documentType=DPA, vendorId=str(vendor.pk))
    )

    vendor.refresh_from_db()
    stored = Review.objects.get(pk=review.pk)
    assert stored.status == "completed"
    assert vendor.dpa_review_id == stored.pk
    missing = [item["itemId"] for item in stored.items if item["status"] == "missing"]
    assert vendor.dpa_review_missing_items == missing


@pytest.mark.parametrize(
    ("fmt", "content_type", "magic"),
    [
        ("pdf", "application/pdf", b"%PDF"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", b"PK"),
        ("md", "text/markdown", b"#"),
        ("html", "text/html", b"<"),
    ],
)
def test_the_report_downloads_as_a_file_and_the_export_is_audited(dpo, fmt, content_type, magic):
    review = completed_review(organization=dpo.organization)

    response = dpo.client.get(f"{URL}/{review.pk}", {"format": fmt})

    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith(content_type)
    assert response["Content-Disposition"].startswith('attachment; filename="review-')
    assert response.content.lstrip().startswith(magic)
    event = AuditEvent.objects.get(action="review.export")
    assert event.details["format"] == fmt


def test_a_format_the_report_has_not_is_a_400_naming_the_formats(dpo):
    review = completed_review(organization=dpo.organization)

    response = dpo.client.get(f"{URL}/{review.pk}", {"format": "xlsx"})

    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "docx" in error["message"]


def test_another_organizations_report_is_not_found_as_a_file_either(dpo, outsider):
    review = completed_review(organization=outsider.organization)

    response = dpo.client.get(f"{URL}/{review.pk}", {"format": "pdf"})

    assert response.status_code == 404


def test_with_a_model_configured_the_run_asks_it_and_says_so(
    dpo, committed, worker, dpa_asset, settings
):
    with fake_openai_server() as server:
        settings.GENERATION_PROVIDER = "openai"
        settings.OPENAI_API_KEY = "sk-test"
        settings.OPENAI_BASE_URL = server.base_url
        settings.LLM_MODEL = "review-test"
        settings.LLM_TIMEOUT_SECONDS = 2
        # An opinion on no item: the rules' result stands, but the model was asked.
        server.behaviour = lambda body: json.dumps({"items": []})

        review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))

        chat_calls = [r for r in server.requests if r["path"].endswith("/chat/completions")]
    stored = Review.objects.get(pk=review.pk)
    assert stored.status == "completed"
    assert chat_calls
    assert stored.method == "rules+model"


def test_without_a_model_the_review_is_the_rules_alone(dpo, committed, worker, dpa_asset):
    review = review_of(start(dpo, committed, assetId=dpa_asset, documentType=DPA))

    assert Review.objects.get(pk=review.pk).method == "rules"
