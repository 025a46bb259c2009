"""The DPO's start page and the register report in the admin, scoped to the staff user's
organization (organizations.admin_scoping), for every admin role (auditors included: both
pages only read). Reads are recorded in the audit trail like the API's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from audit.services import record_event
from compliance.breach_clock import breach_clock
from compliance.report import (
    SEVERITIES,
    ReportItem,
    breach_deadlines,
    items_at,
    narrowed,
    severity_counts,
)
from compliance.report_cache import cached_register_report, cached_report_basis
from legal_documents.models import Status
from legal_documents.selectors import document_counts_by_status, stale_documents
from organizations.admin_scoping import admin_actor, admin_organization
from organizations.models import Organization
from register.selectors import reviews_due
from reviews.admin_labels import verdict_label
from reviews.vendor_link import missing_item_ids, recent_vendor_reviews

REVIEW_HORIZON_DAYS = 30
STALE_SHOWN = 20
ADMIN_PAGES = {
    "processing_activity": "admin:register_processingactivity_change",
    "vendor": "admin:register_vendor_change",
    "transfer": "admin:register_transfer_change",
    "document": "admin:legal_documents_legaldocument_change",
    "review": "admin:reviews_review_report",
}
# The report's codes (the API's words) as the admin shows them, in the user's language. The
# items' findings and actions stay the API's English: they are the report's own text.
SEVERITY_LABELS = {
    "high": pgettext_lazy("report severity", "high"),
    "medium": pgettext_lazy("report severity", "medium"),
    "low": pgettext_lazy("report severity", "low"),
}
OBJECT_LABELS = {
    "processing_activity": _("processing activity"),
    "vendor": _("vendor"),
    "transfer": _("transfer"),
    "document": _("document"),
    "review": _("review"),
}
VENDOR_REVIEWS_SHOWN = 10


def _object_links(item: ReportItem) -> list[dict[str, str]]:
    links = []
    for obj in item.objects:
        try:
            url = reverse(ADMIN_PAGES[obj.type], args=[obj.id])
        except (KeyError, NoReverseMatch):
            url = ""
        label = OBJECT_LABELS.get(obj.type, obj.type.replace("_", " "))
        links.append({"type": label, "name": obj.name, "url": url})
    return links


def _rows(items: list[ReportItem]) -> list[dict[str, Any]]:
    return [
        {
            "item": item,
            "links": _object_links(item),
            "severity_label": SEVERITY_LABELS.get(item.severity, item.severity),
        }
        for item in items
    ]


def _audit(request: HttpRequest, organization: Organization, view: str, **details: Any) -> None:
    record_event(
        organization=organization,
        actor=admin_actor(request),
        action="register_report.read",
        object_type="register_report",
        details={"via": "admin", "view": view, **details},
    )


def _context(request: HttpRequest, title: str) -> dict[str, Any]:
    return {**admin.site.each_context(request), "title": title}


def start_page_view(request: HttpRequest) -> HttpResponse:
    """Counts by status, stale documents, report items by severity, reviews due in the next
    30 days, open breaches with the time left to notify."""
    organization = admin_organization(request)
    context = _context(request, gettext("DPO start page"))
    if organization is None:
        return render(request, "admin/compliance/start.html", {**context, "organization": None})
    now = timezone.now()
    basis = cached_report_basis(organization_id=organization.pk, now=now)
    items = items_at(basis=basis, now=now)
    by_severity = severity_counts(items=items)
    counts = document_counts_by_status(organization_id=organization.pk)
    documents_url = reverse("admin:legal_documents_legaldocument_changelist")
    report_url = reverse("admin:compliance_register_report")
    breaches = [
        {
            "url": reverse("admin:legal_documents_legaldocument_change", args=[breach.document.id]),
            "deadline": deadline,
            "hours_left": deadline.hours_remaining,
            "clock": breach_clock(deadline),
        }
        for breach, deadline in sorted(
            breach_deadlines(breaches=basis.breaches, now=now), key=lambda pair: pair[1].deadline
        )
    ]
    today = now.date()
    reviews = [
        {"activity": activity, "overdue": activity.next_review_date < today,
         "url": reverse("admin:register_processingactivity_change", args=[activity.pk])}
        for activity in reviews_due(
            organization_id=organization.pk, until=today + timedelta(days=REVIEW_HORIZON_DAYS)
        )
    ]  # fmt: skip
    stale = list(stale_documents(organization_id=organization.pk)[:STALE_SHOWN])
    vendor_reviews = [
        {
            "review": review,
            "url": reverse("admin:reviews_review_report", args=[review.pk]),
            "verdict": verdict_label(review.verdict) if review.verdict else "",
            "missing": missing_item_ids(review),
            "weak": (review.counts or {}).get("weak", 0),
        }
        for review in recent_vendor_reviews(
            organization_id=organization.pk, limit=VENDOR_REVIEWS_SHOWN
        )
    ]
    _audit(request, organization, "start", items=len(items))
    return render(
        request,
        "admin/compliance/start.html",
        {
            **context,
            "organization": organization,
            "status_counts": [
                {
                    "status": label,
                    "count": counts[value],
                    "url": f"{documents_url}?status__exact={value}",
                }
                for value, label in Status.choices
            ],
            "documents_total": sum(counts.values()),
            "stale": [
                {
                    "document": d,
                    "url": reverse("admin:legal_documents_legaldocument_change", args=[d.pk]),
                }
                for d in stale
            ],
            "severity_counts": [
                {
                    "severity": s,
                    "label": SEVERITY_LABELS[s],
                    "count": by_severity[s],
                    "url": f"{report_url}?severity={s}",
                }
                for s in SEVERITIES
            ],
            "top_items": _rows(items[:10]),
            "items_total": len(items),
            "report_url": report_url,
            "reviews": reviews,
            "review_horizon": REVIEW_HORIZON_DAYS,
            "breaches": breaches,
            "vendor_reviews": vendor_reviews,
            "reviews_url": reverse("admin:reviews_review_changelist"),
        },
    )


def register_report_view(request: HttpRequest) -> HttpResponse:
    """The consistency report, most severe first; `?severity=` and `?kind=` narrow it."""
    organization = admin_organization(request)
    context = _context(request, gettext("Register consistency report"))
    if organization is None:
        return render(request, "admin/compliance/report.html", {**context, "organization": None})
    items = cached_register_report(organization_id=organization.pk, now=timezone.now())
    severity, kind = request.GET.get("severity"), request.GET.get("kind")
    shown = narrowed(items=items, severity=severity, kind=kind)
    _audit(request, organization, "report", items=len(shown))
    return render(
        request,
        "admin/compliance/report.html",
        {
            **context,
            "organization": organization,
            "rows": _rows(shown),
            "severity": severity or "",
            "severities": [(name, SEVERITY_LABELS[name]) for name in SEVERITIES],
            "total": len(items),
        },
    )
