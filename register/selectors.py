"""Reads of the register: filtered lists, and the facts the GDPR rules read from an activity.

`activity_inputs` describes an activity in the create-body shape `gdpr` reads (the DPIA's
keys), so that the screening and the Art. 9 check here are the very rules the documents use.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from gdpr.composition.assessments.dpia_screening import Screening, screen
from gdpr.composition.context import CompositionContext
from gdpr.composition.inputs import normalize_inputs
from gdpr.composition.recognition import is_in_eea, recognise_legal_basis
from gdpr.composition.special_categories import SensitiveData, sensitive_data
from gdpr.composition.writers.dpia import facts_from
from register.models import ProcessingActivity, Transfer, Vendor


def wording(entry: Any) -> str:
    """The text of a list entry stored as a string or as `{code, wording}`."""
    if isinstance(entry, Mapping):
        return str(entry.get("wording") or entry.get("code") or "")
    return str(entry)


def basis_wordings(activity: ProcessingActivity) -> list[str]:
    """Every legal basis and Art. 9(2) condition of the activity, as worded."""
    return [wording(e) for e in [*activity.legal_bases, *activity.art9_conditions] if wording(e)]


def relies_on_consent(activity: ProcessingActivity) -> bool:
    """Consent (Art. 6(1)(a) or 9(2)(a)) among the bases, or the basis of a purpose."""
    wordings = [*basis_wordings(activity)]
    wordings += [
        str(p.get("legalBasis") or "") for p in activity.purposes if isinstance(p, Mapping)
    ]
    codes = {str(entry.get("code")) for entry in activity.legal_bases if isinstance(entry, Mapping)}
    if "consent" in codes or "art-9-2-a" in codes:
        return True
    for text in wordings:
        found = recognise_legal_basis(text) if text else None
        if found and ("consent" in found.codes or "a" in found.conditions):
            return True
    return False


def activity_inputs(activity: ProcessingActivity) -> dict[str, Any]:
    """The activity as DPIA create-body inputs (screening answers, data, bases, recipients)."""
    return {
        **(activity.dpia_screening or {}),
        "processingActivity": activity.name,
        # An empty column is not the DPO saying "none": left out, gdpr then asks.
        "specialCategories": list(activity.special_categories) or None,
        "dataCategories": list(activity.data_categories),
        "legalBasis": basis_wordings(activity),
        "recipients": list(activity.recipients),
    }


def _context(activity: ProcessingActivity) -> CompositionContext:
    return CompositionContext(
        inputs=normalize_inputs(activity_inputs(activity)), answers={}, now=timezone.now()
    )


def dpia_screening(activity: ProcessingActivity) -> Screening:
    """gdpr's DPIA screening (WP248, Art. 35(3)) of the activity's screening answers."""
    return screen(facts_from(_context(activity)))


def activity_sensitive_data(activity: ProcessingActivity) -> SensitiveData:
    """The activity's Art. 9/10 data and the Art. 9(2) conditions it states (gdpr's rules)."""
    return sensitive_data(_context(activity))


def _search(queryset: QuerySet[Any], filters: Mapping[str, Any], *fields: str) -> QuerySet[Any]:
    text = (filters.get("search") or "").strip()
    if text:
        query = Q()
        for field in fields:
            query |= Q(**{f"{field}__icontains": text})
        queryset = queryset.filter(query)
    if filters.get("reference"):
        queryset = queryset.filter(reference=filters["reference"])
    return queryset


def activity_list(
    *, queryset: QuerySet[ProcessingActivity], filters: Mapping[str, Any]
) -> QuerySet[ProcessingActivity]:
    """Activities (`queryset` already organization-scoped) by name, filtered."""
    queryset = _search(queryset, filters, "name", "reference", "description", "owner")
    if filters.get("role"):
        queryset = queryset.filter(role=filters["role"])
    if filters.get("vendorId"):
        queryset = queryset.filter(vendors__pk=filters["vendorId"])
    if filters.get("reviewDueBefore"):
        queryset = queryset.filter(next_review_date__lte=filters["reviewDueBefore"])
    return queryset.prefetch_related("vendors", "transfers").order_by("name", "pk")


def vendor_list(*, queryset: QuerySet[Vendor], filters: Mapping[str, Any]) -> QuerySet[Vendor]:
    """Vendors (`queryset` already organization-scoped) by name, filtered.

    `outsideEea` is decided by gdpr's EEA rule on the stored country text (names, ISO codes),
    which SQL cannot apply: the matching ids are found first, then filtered on.
    """
    queryset = _search(queryset, filters, "name", "reference", "services", "address")
    if filters.get("role"):
        queryset = queryset.filter(role=filters["role"])
    if filters.get("country"):
        queryset = queryset.filter(country__iexact=filters["country"])
    if filters.get("dpaStatus"):
        queryset = queryset.filter(dpa_status=filters["dpaStatus"])
    if filters.get("outsideEea") is not None:
        outside = [
            pk
            for pk, country in queryset.values_list("pk", "country")
            if bool(country) and not is_in_eea(country)
        ]
        queryset = (
            queryset.filter(pk__in=outside)
            if filters["outsideEea"]
            else queryset.exclude(pk__in=outside)
        )
    return queryset.prefetch_related("activities", "transfers").order_by("name", "pk")


def transfer_list(
    *, queryset: QuerySet[Transfer], filters: Mapping[str, Any]
) -> QuerySet[Transfer]:
    """Transfers (`queryset` already organization-scoped), filtered."""
    if filters.get("country"):
        queryset = queryset.filter(country__iexact=filters["country"])
    if filters.get("mechanism"):
        mechanism = "" if filters["mechanism"] == "none" else filters["mechanism"]
        queryset = queryset.filter(mechanism=mechanism)
    if filters.get("activityId"):
        queryset = queryset.filter(activity_id=filters["activityId"])
    if filters.get("vendorId"):
        queryset = queryset.filter(vendor_id=filters["vendorId"])
    return queryset.order_by("recipient", "country", "pk")


def reviews_due(*, organization_id: Any, until: date) -> list[ProcessingActivity]:
    """Activities of the organization whose next review date is on or before `until`."""
    queryset = ProcessingActivity.objects.filter(
        organization_id=organization_id, next_review_date__lte=until
    )
    return list(queryset.order_by("next_review_date", "name"))
