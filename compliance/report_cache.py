"""The consistency report's findings, kept per organization while its register and its
documents stay as they are.

Computing the report loads the whole register and the report's documents and runs every
check; every member's GET (the API, the admin's report and start page) used to do it. The
findings (`compliance.report.ReportBasis`) are cached under a key made of the organization
and a *stamp* of what they were computed from: per register table and for the report's
documents, the row count, the latest `updated_at` and (register entries) the sum of the
revisions. Any write through the services moves one of them (a save moves `updated_at` and
the revision, a delete the count), so the next GET recomputes: there is nothing to
invalidate, and an organization's key never names another's data. The clock's checks (a
DPIA's review date, a breach's 72 hours) are evaluated at each GET from the cached basis.

The stamp costs four aggregate queries, whatever the size of the register. A cache that is
down costs the report its speed, never its answer.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, QuerySet, Sum

from compliance.report import (
    REPORT_DOCUMENT_TYPES,
    ReportBasis,
    ReportItem,
    items_at,
    register_facts,
    report_basis,
)
from legal_documents.models import LegalDocument
from register.models import ProcessingActivity, Transfer, Vendor

logger = logging.getLogger(__name__)

# Moves when the basis's shape or the checks change, so that a deployment never reads the
# findings an older version cached.
BASIS_VERSION = 3


def _aggregate(queryset: QuerySet[Any], *, revisions: bool) -> str:
    fields: dict[str, Any] = {"count": Count("pk"), "latest": Max("updated_at")}
    if revisions:
        fields["revisions"] = Sum("revision")
    values = queryset.aggregate(**fields)
    latest = values["latest"].isoformat() if values["latest"] else "-"
    return f"{values['count']}/{latest}/{values.get('revisions') or 0}"


def register_stamp(*, organization_id: Any) -> str:
    """A digest that moves whenever the organization's register or report documents do."""
    parts = (
        _aggregate(ProcessingActivity.objects.filter(organization_id=organization_id),
                   revisions=True),
        _aggregate(Vendor.objects.filter(organization_id=organization_id), revisions=True),
        _aggregate(Transfer.objects.filter(organization_id=organization_id), revisions=False),
        _aggregate(
            LegalDocument.objects.filter(
                organization_id=organization_id, document_type__in=REPORT_DOCUMENT_TYPES
            ),
            revisions=False,
        ),
    )  # fmt: skip
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _key(organization_id: Any, stamp: str) -> str:
    return f"register-report:v{BASIS_VERSION}:{organization_id}:{stamp}"


def cached_report_basis(*, organization_id: Any, now: datetime) -> ReportBasis:
    """The organization's report basis, from the cache when the stamp has not moved."""
    # The stamp first: facts loaded after it are at least as new as it says.
    key = _key(organization_id, register_stamp(organization_id=organization_id))
    try:
        cached = cache.get(key)
    except Exception:
        logger.warning("register report cache unavailable", exc_info=True)
        cached = None
    if isinstance(cached, ReportBasis):
        return cached
    basis = report_basis(facts=register_facts(organization_id=organization_id, now=now))
    try:
        cache.set(key, basis, timeout=settings.REGISTER_REPORT_CACHE_SECONDS)
    except Exception:
        logger.warning("register report cache unavailable", exc_info=True)
    return basis


def cached_register_report(*, organization_id: Any, now: datetime) -> list[ReportItem]:
    """`compliance.report.register_report`, the findings read from the cache when they can
    be: every item of the report at `now`, most severe first."""
    return items_at(basis=cached_report_basis(organization_id=organization_id, now=now), now=now)
