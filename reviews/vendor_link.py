"""A completed review of a vendor's DPA, kept on the register's vendor.

The register does not import the reviews app: the review's side calls the register's
service with plain values (register.services.vendor_record_dpa_review). The review task
calls `record_on_vendor` once a review has completed.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from register.services import vendor_record_dpa_review
from reviews.models import Review, ReviewStatus

# The document types whose review says something about a vendor's DPA.
DPA_TYPES = frozenset({"DATA_PROCESSING_AGREEMENT"})
GAP_STATUSES = frozenset({"missing", "weak"})


def missing_item_ids(review: Review) -> list[str]:
    """The checklist ids of the review's items found missing, in the report's order."""
    return [
        str(item.get("itemId"))
        for item in review.items or []
        if isinstance(item, dict) and item.get("status") == "missing" and item.get("itemId")
    ]


def has_gaps(review: Review) -> bool:
    """Whether the review found an item missing or weak (its verdict `gaps`)."""
    statuses = {item.get("status") for item in review.items or [] if isinstance(item, dict)}
    return review.verdict == "gaps" or bool(statuses & GAP_STATUSES)


def record_on_vendor(review: Review) -> bool:
    """Keep the review's result on its vendor; whether it was recorded.

    Only a completed review of a DPA with a vendor is recorded (a failed one says nothing
    about the contract; a privacy notice is not the vendor's DPA). The vendor keeps its
    latest review: an older one completing late changes nothing (the register's service).
    """
    if (
        review.vendor_id is None
        or review.status != ReviewStatus.COMPLETED
        or review.document_type not in DPA_TYPES
    ):
        return False
    vendor = review.vendor
    if vendor is None or vendor.organization_id != review.organization_id:
        return False
    vendor_record_dpa_review(
        vendor=vendor,
        review_id=review.pk,
        has_gaps=has_gaps(review),
        missing_items=missing_item_ids(review),
        reviewed_at=review.completed_at or timezone.now(),
    )
    return True


def recent_vendor_reviews(*, organization_id: Any, limit: int) -> list[Review]:
    """The organization's latest reviews of vendors' DPAs, newest first (the start page)."""
    return list(
        Review.objects.filter(
            organization_id=organization_id,
            vendor__isnull=False,
            document_type__in=DPA_TYPES,
        )
        .select_related("vendor", "asset")
        .order_by("-created_at")[:limit]
    )
