"""A completed review of a vendor's DPA is kept on the vendor (reviews.vendor_link)."""

from __future__ import annotations

import pytest

from register.models import Vendor
from reviews.vendor_link import record_on_vendor
from tests.reviews.surfaces_support import DPA_ITEMS, completed_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def vendor(dpo) -> Vendor:
    return Vendor.objects.create(organization=dpo.organization, name="Acme Cloud Ltd")


def test_a_completed_dpa_review_puts_its_gaps_and_missing_items_on_the_vendor(dpo, vendor):
    review = completed_review(organization=dpo.organization, vendor=vendor)

    assert record_on_vendor(review) is True

    vendor.refresh_from_db()
    assert vendor.dpa_review_id == review.pk
    assert vendor.dpa_review_has_gaps is True
    assert vendor.dpa_review_missing_items == ["g-deletion", "h-audits"]
    assert vendor.dpa_reviewed_at == review.completed_at


def test_a_review_without_gaps_says_so_on_the_vendor(dpo, vendor):
    present = [{**item, "status": "present"} for item in DPA_ITEMS]
    review = completed_review(
        organization=dpo.organization, vendor=vendor, items=present, verdict="no-gaps"
    )

    record_on_vendor(review)

    vendor.refresh_from_db()
    assert (vendor.dpa_review_has_gaps, vendor.dpa_review_missing_items) == (False, [])


def test_a_failed_review_a_privacy_notice_or_no_vendor_leave_the_vendor_alone(dpo, vendor):
    failed = completed_review(organization=dpo.organization, vendor=vendor)
    failed.status = "failed"
    notice = completed_review(
        organization=dpo.organization, vendor=vendor, document_type="PRIVACY_POLICY"
    )
    alone = completed_review(organization=dpo.organization)

    assert [record_on_vendor(r) for r in (failed, notice, alone)] == [False, False, False]
    vendor.refresh_from_db()
    assert vendor.dpa_review_id is None
