"""Review rows written directly, with items in the API's shape, for the tests of the
report's surfaces (exports, admin, vendor, consistency report, start page)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from reviews.models import Review
from tests.assets.factories import AssetFactory

# A vendor's DPA with two terms missing and one weak, as the engine stores it.
DPA_ITEMS: list[dict[str, Any]] = [
    {
        "itemId": "a-instructions",
        "article": "Art. 28(3)(a)",
        "status": "present",
        "finding": "The processor acts only on documented instructions (Art. 28(3)(a)).",
        "citations": [
            {
                "location": "page 2, § 3.1",
                "quote": "The Processor shall process Personal Data only on documented"
                " instructions from the Controller.",
            }
        ],
        "suggestion": "",
    },
    {
        "itemId": "d-subprocessors",
        "article": "Art. 28(2), 28(3)(d)",
        "status": "weak",
        "finding": "A general authorisation without notice of changes or a right to object"
        " (Art. 28(2)).",
        "citations": [
            {
                "location": "page 4, § 7",
                "quote": "The Controller hereby grants a general authorisation to engage"
                " Sub-processors.",
            }
        ],
        "suggestion": "The processor shall inform the controller of any intended change"
        " concerning the addition or replacement of sub-processors, giving the controller"
        " the opportunity to object.",
    },
    {
        "itemId": "g-deletion",
        "article": "Art. 28(3)(g)",
        "status": "missing",
        "finding": "Nothing says the data are deleted or returned at the end of the services"
        " (Art. 28(3)(g)).",
        "citations": [],
        "suggestion": "At the end of the provision of services, the processor shall delete or"
        " return all the personal data to the controller.",
    },
    {
        "itemId": "h-audits",
        "article": "Art. 28(3)(h)",
        "status": "missing",
        "finding": "No audit or inspection by the controller is allowed (Art. 28(3)(h)).",
        "citations": [],
        "suggestion": "The processor shall allow for and contribute to audits, including"
        " inspections, conducted by the controller or another auditor mandated by it.",
    },
]
DPA_COUNTS = {"present": 1, "weak": 1, "missing": 2, "not-applicable": 0, "needs-human-check": 0}


def completed_review(
    *,
    organization: Any,
    vendor: Any = None,
    items: list[dict[str, Any]] | None = None,
    file_name: str = "acme-dpa.pdf",
    document_type: str = "DATA_PROCESSING_AGREEMENT",
    language: str = "en",
    verdict: str = "gaps",
    completed_at: datetime | None = None,
) -> Review:
    """A completed review of a new asset of `organization`, as the review task leaves it."""
    chosen = DPA_ITEMS if items is None else items
    counts = dict.fromkeys(DPA_COUNTS, 0)
    for item in chosen:
        counts[item["status"]] += 1
    return Review.objects.create(
        organization=organization,
        asset=AssetFactory(organization=organization, original_file_name=file_name),
        vendor=vendor,
        document_type=document_type,
        language=language,
        document_language="en",
        status="completed",
        verdict=verdict,
        counts=counts,
        items=chosen,
        ruleset="dpa-2026.2",
        method="rules",
        completed_at=completed_at or timezone.now(),
    )
