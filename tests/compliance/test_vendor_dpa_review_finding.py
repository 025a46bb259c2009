"""The consistency report names a vendor whose reviewed DPA has missing items."""

from __future__ import annotations

import pytest
from django.utils import timezone

from compliance.report import register_report
from compliance.report_cache import cached_register_report
from reviews.vendor_link import record_on_vendor
from tests.compliance.register_seed import clean_register, vendor
from tests.reviews.surfaces_support import DPA_ITEMS, completed_review

pytestmark = pytest.mark.django_db
REPORT = "/api/v1/compliance/register-report"


def test_a_reviewed_dpa_with_missing_items_is_a_finding_naming_them(dpo):
    clean_register(dpo.organization)
    hosting = vendor(dpo.organization, "Hosting GmbH")
    review = completed_review(organization=dpo.organization, vendor=hosting)
    record_on_vendor(review)

    items = register_report(organization_id=dpo.organization.pk, now=timezone.now())

    assert [item.kind for item in items] == ["vendor-dpa-missing-items"]
    item = items[0]
    assert (item.severity, item.article) == ("high", "Art. 28(3)")
    assert "g-deletion" in item.message and "h-audits" in item.message
    assert "Hosting GmbH" in item.message
    assert [(o.type, o.id) for o in item.objects] == [
        ("vendor", str(hosting.pk)), ("review", str(review.pk)),
    ]  # fmt: skip
    body = dpo.client.get(REPORT).json()
    assert body["items"][0]["objects"][1]["type"] == "review"


def test_a_dpa_reviewed_with_weak_items_only_is_not_a_missing_items_finding(dpo):
    clean_register(dpo.organization)
    weak_only = [{**item, "status": "weak" if item["status"] == "missing" else item["status"]}
                 for item in DPA_ITEMS]  # fmt: skip
    record_on_vendor(
        completed_review(
            organization=dpo.organization, vendor=vendor(dpo.organization, "Hosting GmbH"),
            items=weak_only,
        )
    )  # fmt: skip

    assert register_report(organization_id=dpo.organization.pk, now=timezone.now()) == []


def test_a_review_recorded_after_the_report_was_cached_shows_at_once(dpo):
    clean_register(dpo.organization)
    assert cached_register_report(organization_id=dpo.organization.pk, now=timezone.now()) == []
    hosting = vendor(dpo.organization, "Hosting GmbH")

    record_on_vendor(completed_review(organization=dpo.organization, vendor=hosting))

    items = cached_register_report(organization_id=dpo.organization.pk, now=timezone.now())
    assert [item.kind for item in items] == ["vendor-dpa-missing-items"]
