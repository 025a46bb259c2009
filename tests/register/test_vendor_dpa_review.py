"""A review of a vendor's DPA kept on the register's vendor: written by its service only,
shown by the API, never moving the vendor's revision."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from register import services
from register.models import Vendor
from tests.compliance.register_seed import ACTOR

pytestmark = pytest.mark.django_db
VENDORS = "/api/v1/vendors"


@pytest.fixture
def vendor(dpo) -> Vendor:
    return services.vendor_create(
        organization=dpo.organization, actor=ACTOR,
        data={"name": "Acme Cloud Ltd", "country": "Ireland", "dpa_status": "signed"},
    )  # fmt: skip


def test_the_api_shows_the_last_review_of_the_vendors_dpa(dpo, vendor):
    review_id = uuid4()
    assert dpo.client.get(f"{VENDORS}/{vendor.pk}").json()["dpaReview"] is None

    services.vendor_record_dpa_review(
        vendor=vendor, review_id=review_id, has_gaps=True,
        missing_items=["g-deletion", "h-audits"], reviewed_at=timezone.now(),
    )  # fmt: skip

    shown = dpo.client.get(f"{VENDORS}/{vendor.pk}").json()["dpaReview"]
    assert shown["id"] == str(review_id)
    assert shown["hasGaps"] is True
    assert shown["missingItems"] == ["g-deletion", "h-audits"]
    assert shown["reviewedAt"]
    listed = dpo.client.get(VENDORS).json()["vendors"][0]
    assert listed["dpaReview"]["id"] == str(review_id)


def test_recording_a_review_moves_no_revision_and_is_audited(vendor):
    revision = vendor.revision

    services.vendor_record_dpa_review(
        vendor=vendor, review_id=uuid4(), has_gaps=False, missing_items=[],
        reviewed_at=timezone.now(),
    )  # fmt: skip

    vendor.refresh_from_db()
    assert vendor.revision == revision
    assert vendor.dpa_review_has_gaps is False
    assert AuditEvent.objects.filter(action="vendor.dpa_reviewed", object_id=vendor.pk).exists()


def test_an_older_review_completing_late_does_not_replace_the_newer_one(vendor):
    newer, older = uuid4(), uuid4()
    now = timezone.now()
    services.vendor_record_dpa_review(
        vendor=vendor, review_id=newer, has_gaps=False, missing_items=[], reviewed_at=now
    )

    services.vendor_record_dpa_review(
        vendor=vendor, review_id=older, has_gaps=True, missing_items=["h-audits"],
        reviewed_at=now - timedelta(hours=1),
    )  # fmt: skip

    vendor.refresh_from_db()
    assert (vendor.dpa_review_id, vendor.dpa_review_missing_items) == (newer, [])


def test_the_api_body_cannot_write_the_review_fields(dpo, vendor):
    response = dpo.client.patch(
        f"{VENDORS}/{vendor.pk}",
        {"dpaReview": {"id": str(uuid4()), "hasGaps": False, "missingItems": []}},
        format="json",
    )

    assert response.status_code == 200
    vendor.refresh_from_db()
    assert vendor.dpa_review_id is None
    assert "dpa_review_id" not in services.VENDOR_FIELDS
